package guesttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// run runs one command of coreutils.wasm under wazero with a host
// directory mounted at /work as the working directory.
func run(t *testing.T, rt wazero.Runtime, mod wazero.CompiledModule, work string, stdin string, stdout interface{ Write([]byte) (int, error) }, args ...string) (stderr string, code uint32) {
	t.Helper()
	var errOut bytes.Buffer
	cfg := wazero.NewModuleConfig().
		WithArgs(args...).
		WithStdin(strings.NewReader(stdin)).
		WithStdout(stdout).
		WithStderr(&errOut).
		WithEnv("PWD", "/work").
		WithFSConfig(wazero.NewFSConfig().WithDirMount(work, "/work")).
		WithSysWalltime().WithSysNanotime().WithSysNanosleep().
		WithName("")
	m, err := rt.InstantiateModule(context.Background(), mod, cfg)
	if m != nil {
		m.Close(context.Background())
	}
	var exit *sys.ExitError
	switch {
	case errors.As(err, &exit):
		return errOut.String(), exit.ExitCode()
	case err != nil:
		t.Fatalf("%v: %v", args, err)
	}
	return errOut.String(), 0
}

func TestWasmModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the guest modules")
	}
	dir := Dir(t)
	var manifest map[string][]string
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	names := manifest["coreutils.wasm"]
	for _, want := range []string{"cat", "grep", "ls", "sort", "yes", "mv"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("manifest lacks %s: %v", want, names)
		}
	}
	bin, err := os.ReadFile(filepath.Join(dir, "coreutils.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.CompileModule(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "f"), []byte("b\na\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		args   []string
		stdin  string
		stdout string
		stderr string
		code   uint32
	}{
		{args: []string{"/bin/cat", "f"}, stdout: "b\na\nc\n"},
		{args: []string{"coreutils", "sort", "f"}, stdout: "a\nb\nc\n"},
		{args: []string{"grep", "-c", "[ab]", "f"}, stdout: "2\n"},
		{args: []string{"wc", "-l"}, stdin: "x\ny\n", stdout: "2\n"},
		{args: []string{"cat", "nope"}, stderr: "cat: nope: No such file or directory\n", code: 1},
		{args: []string{"ls", "-z"}, stderr: "ls: invalid option -- 'z'\nTry 'ls --help' for more information.\n", code: 2},
		{args: []string{"mkdir", "-p", "d/e"}},
		{args: []string{"cp", "f", "d/e/g"}},
		{args: []string{"mv", "d/e/g", "d/h"}},
		{args: []string{"ls", "-R", "d"}, stdout: "d:\ne\nh\n\nd/e:\n"},
		{args: []string{"touch", "-d", "2020-01-02 03:04:05", "d/h"}},
		{args: []string{"ls", "-l", "--time-style=+%F %T", "d/h"}, stdout: "-rw------- 1 user user 6 2020-01-02 03:04:05 d/h\n"},
		{args: []string{"rm", "-r", "d"}},
		{args: []string{"ls"}, stdout: "f\n"},
		{args: []string{"seq", "3"}, stdout: "1\n2\n3\n"},
		{args: []string{"sleep", "0.01"}},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		stderr, code := run(t, rt, mod, work, tc.stdin, &out, tc.args...)
		if out.String() != tc.stdout || stderr != tc.stderr || code != tc.code {
			t.Errorf("%v: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out.String(), stderr, code, tc.stdout, tc.stderr, tc.code)
		}
	}

	// yes must stop promptly when its output pipe closes. wazero's own WASI
	// reports the broken pipe as EIO (it has no EPIPE), so yes says
	// "write error"; the sandbox's host reports EPIPE and yes exits 141
	// silently (see the native tests of package tool).
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 4096)
		for n := 0; n < 1<<20; {
			m, err := r.Read(buf)
			if err != nil {
				break
			}
			n += m
		}
		r.Close()
	}()
	start := time.Now()
	stderr, code := run(t, rt, mod, work, "", w, "yes")
	w.Close()
	if code == 0 {
		t.Errorf("yes into a closed pipe: status 0 (stderr %q)", stderr)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("yes took %v to notice the closed pipe", d)
	}
}
