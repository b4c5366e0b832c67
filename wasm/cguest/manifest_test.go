package cguest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/cguest"
)

// TestMergeManifest checks that a C guest's command replaces a Go tool's
// of the same name, and that a Go module left with no command goes.
func TestMergeManifest(t *testing.T) {
	dir := t.TempDir()
	old := map[string][]string{
		"awk.wasm":       {"awk"},
		"coreutils.wasm": {"cat", "ls"},
		"mixed.wasm":     {"gawk", "other"},
		"empty.wasm":     {},
	}
	b, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"manifest.json", "awk.wasm", "coreutils.wasm", "mixed.wasm", "empty.wasm"} {
		data := []byte("\x00asm")
		if f == "manifest.json" {
			data = b
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := cguest.MergeManifest(dir); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string][]string
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"coreutils.wasm": {"cat", "ls"},
		"mixed.wasm":     {"other"},
		"empty.wasm":     {},
	}
	for m, cmds := range cguest.Modules {
		want[m] = cmds
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("manifest after the merge:\n%v\nwant\n%v", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "awk.wasm")); !os.IsNotExist(err) {
		t.Errorf("awk.wasm, left with no command, is still there (%v)", err)
	}
	for _, f := range []string{"coreutils.wasm", "mixed.wasm", "empty.wasm"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s went: %v", f, err)
		}
	}
}
