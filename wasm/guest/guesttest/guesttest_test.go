package guesttest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDir checks that Dir builds every module and lists its commands in
// the manifest. Running the commands is tested through the sandbox (they
// need its host functions beside WASI), in package sandbox and in each
// module's sandbox tests.
func TestDir(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the guest modules")
	}
	dir := Dir(t)
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest map[string][]string
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"coreutils.wasm": {"cat", "grep", "ls", "sort", "tail", "yes"},
		"sysutils.wasm":  {"date", "env", "printf", "test", "[", "which"},
		"findutils.wasm": {"find", "xargs", "diff"},
		"sed.wasm":       {"sed"},
		"awk.wasm":       {"awk"},
		"jq.wasm":        {"jq"},
		"archive.wasm":   {"tar", "gzip", "unzip"},
		"netutils.wasm":  {"curl", "wget"},
	}
	for file, cmds := range want {
		for _, c := range cmds {
			if !slices.Contains(manifest[file], c) {
				t.Errorf("%s does not list %s: %v", file, c, manifest[file])
			}
		}
		bin, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Error(err)
			continue
		}
		if !bytes.HasPrefix(bin, []byte("\x00asm\x01\x00\x00\x00")) {
			t.Errorf("%s is not a WebAssembly module", file)
		}
	}
}
