package cguest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/cguest"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

var (
	toolsOnce sync.Once
	toolsDir  string
	toolsErr  error
	tmpRoot   string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if tmpRoot != "" {
		os.RemoveAll(tmpRoot)
	}
	os.Exit(code)
}

// tools returns a tools directory holding the Go tools and the C guests.
// Without a build of the C guests the test is skipped — except under
// CI=true, where their absence is a failure: CI must build them.
func tools(t testing.TB) string {
	t.Helper()
	cdir, ok := cguest.Cached()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("the C guests are not built: CI must run `make cguests` (see .ci/run)")
		}
		t.Skip("the C guests are not built here (make cguests)")
	}
	goTools := guesttest.Dir(t)
	toolsOnce.Do(func() { toolsDir, toolsErr = combine(goTools, cdir) })
	if toolsErr != nil {
		t.Fatal(toolsErr)
	}
	return toolsDir
}

// combine makes a directory with links to the Go tools and the C guests
// and a manifest listing both.
func combine(goTools, cdir string) (string, error) {
	var err error
	if tmpRoot, err = os.MkdirTemp("", "cguest-tools-"); err != nil {
		return "", err
	}
	ents, err := os.ReadDir(goTools)
	if err != nil {
		return "", err
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".wasm") {
			if err := os.Symlink(filepath.Join(goTools, e.Name()), filepath.Join(tmpRoot, e.Name())); err != nil {
				return "", err
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(goTools, "manifest.json"))
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmpRoot, "manifest.json"), b, 0o644); err != nil {
		return "", err
	}
	for m := range cguest.Modules {
		if err := os.Symlink(filepath.Join(cdir, m), filepath.Join(tmpRoot, m)); err != nil {
			return "", err
		}
	}
	return tmpRoot, cguest.MergeManifest(tmpRoot)
}

func cacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "wasmsand-test", "modules")
}

// newSandbox makes a sandbox with the C guests; opts may set limits.
func newSandbox(t testing.TB, opts sandbox.Options) *sandbox.Sandbox {
	t.Helper()
	opts.ToolsDir = tools(t)
	opts.CacheDir = cacheDir()
	if opts.Timeout == 0 {
		opts.Timeout = 60 * time.Second
	}
	sb, err := sandbox.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

func run(t testing.TB, sb *sandbox.Sandbox, cmd string, opts ...sandbox.RunOption) *sandbox.RunResult {
	t.Helper()
	res, err := sb.Run(context.Background(), cmd, opts...)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd, err)
	}
	return res
}
