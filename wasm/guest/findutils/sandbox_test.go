package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

var (
	toolsOnce sync.Once
	toolsPath string
	toolsErr  error
)

// toolsDir builds this module and coreutils (which the fixture and the
// cases use: mkdir, touch, cat...) for wasip1, and writes their manifest.
// Building only these two keeps a broken sibling module from stopping
// these tests.
func toolsDir(t testing.TB) string {
	t.Helper()
	toolsOnce.Do(func() {
		dir, err := guesttest.TempDir("findutils-tools")
		if err != nil {
			toolsErr = err
			return
		}
		manifest := map[string][]string{}
		for _, m := range []string{"findutils", "coreutils"} {
			out := filepath.Join(dir, m+".wasm")
			cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "../"+m)
			cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
			if b, err := cmd.CombinedOutput(); err != nil {
				toolsErr = fmt.Errorf("building %s: %v\n%s", m, err, b)
				return
			}
			list := exec.Command("go", "run", "../"+m)
			list.Env = append(os.Environ(), "WASMSAND_LIST_COMMANDS=1")
			b, err := list.Output()
			if err != nil {
				toolsErr = fmt.Errorf("listing %s: %v", m, err)
				return
			}
			var names []string
			names = append(names, splitFields(string(b))...)
			manifest[m+".wasm"] = names
		}
		data, _ := json.Marshal(manifest)
		toolsErr = os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o644)
		toolsPath = dir
	})
	if toolsErr != nil {
		t.Fatal(toolsErr)
	}
	return toolsPath
}

func splitFields(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

func newSandbox(t testing.TB) *sandbox.Sandbox {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sb, err := sandbox.New(context.Background(), sandbox.Options{
		ToolsDir: toolsDir(t),
		CacheDir: filepath.Join(cache, "wasmsand-test", "modules"),
		Env:      []string{"TZ=UTC", "LC_ALL=C"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

// TestSandbox runs the cases marked for it inside the sandbox and compares
// the answers with GNU's on this machine.
func TestSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guest modules")
	}
	gnuAvailable(t)
	sb := newSandbox(t)
	root := t.TempDir()
	n, failed := 0, 0
	for i, c := range cases {
		if !c.box {
			continue
		}
		n++
		want := runNative(t, filepath.Join(root, "w"), "", c.script)
		script := "cd /; rm -rf /tmp/w; mkdir -p /tmp/w; cd /tmp/w\n" + fixture + "\n" + c.script
		res, err := sb.Run(context.Background(), script)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		got := result{string(res.Stdout), string(res.Stderr), res.ExitCode}
		if !c.same(got, want) {
			failed++
			t.Errorf("case %d: %s\ngot  (%d) stdout %q\n     stderr %q\nwant (%d) stdout %q\n     stderr %q",
				i, c.script, got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
		}
	}
	t.Logf("%d sandbox cases, %d differ", n, failed)
}
