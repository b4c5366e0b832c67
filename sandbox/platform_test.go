package sandbox

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/platform/native/diskcache"
	"github.com/wasmsand/wasmsand/platform/native/hostdir"
	"github.com/wasmsand/wasmsand/platform/native/nethttp"
	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/wazeroengine"
)

// wazeroPlatform runs this package's tests on wazero, a disk cache,
// net/http and os.Root, as
// package platform/native does for programs (which imports this package,
// so its tests cannot import it). It has no tools: tests name theirs.
type wazeroPlatform struct {
	mu      sync.Mutex
	engines map[string]wasm.Engine
}

func newWazeroPlatform() *wazeroPlatform {
	return &wazeroPlatform{engines: map[string]wasm.Engine{}}
}

func (p *wazeroPlatform) Engine(ctx context.Context, hosts []wasm.HostModule, cacheDir string) (wasm.Engine, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.engines[cacheDir]; ok {
		return e, nil
	}
	e, err := wazeroengine.New(ctx, wazeroengine.Config{HostModules: hosts, CacheDir: cacheDir})
	if err == nil {
		p.engines[cacheDir] = e
	}
	return e, err
}

func (p *wazeroPlatform) Tools(context.Context) (fs.FS, error) { return nil, nil }

func (p *wazeroPlatform) ModuleCache(dir string) ModuleStore {
	return diskcache.Store{Dir: filepath.Join(dir, "instrumented")}
}

func (p *wazeroPlatform) Transport() netpolicy.Transport { return nethttp.Transport }

func (p *wazeroPlatform) HostDir(path string) (vfs.Host, error) { return hostdir.Open(path) }

var testPlatform = newWazeroPlatform()

func init() { SetDefaultPlatform(testPlatform) }

func TestNoPlatform(t *testing.T) {
	SetDefaultPlatform(nil)
	defer SetDefaultPlatform(testPlatform)
	if _, err := New(context.Background(), Options{}); !errors.Is(err, ErrNoPlatform) {
		t.Errorf("err = %v, want ErrNoPlatform", err)
	}
	if !strings.Contains(ErrNoPlatform.Error(), "platform/native") {
		t.Errorf("ErrNoPlatform does not say what to import: %v", ErrNoPlatform)
	}
	// An explicit platform needs no default.
	sb, err := New(context.Background(), Options{Platform: testPlatform})
	if err != nil {
		t.Fatal(err)
	}
	sb.Close()
}

// TestNoToolsHint: a sandbox without tool modules says so where a
// command is not found — on $PATH, and for a tool entry of a snapshot
// taken where there were tools — and one with tools does not.
func TestNoToolsHint(t *testing.T) {
	bare, err := New(context.Background(), Options{Platform: testPlatform})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	res := run(t, bare, "echo 'a,1' | cut -d, -f2 | sort | tail -n 1")
	if res.ExitCode != 127 || !strings.Contains(string(res.Stderr), ": cut: command not found ("+NoToolsHint+")\n") {
		t.Fatalf("exit %d, stderr %q; want 127 and the no-tools hint", res.ExitCode, res.Stderr)
	}
	withTools := newTest(t, Options{})
	res = run(t, withTools, "nosuchcommand")
	if res.ExitCode != 127 || string(res.Stderr) != "bash: line 1: nosuchcommand: command not found\n" {
		t.Fatalf("with tools: exit %d, stderr %q; want a plain command not found", res.ExitCode, res.Stderr)
	}
	// /bin/cat of the snapshot stands for a tool this sandbox lacks.
	snap, err := withTools.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := Restore(context.Background(), snap, Options{Platform: testPlatform})
	if err != nil {
		t.Fatal(err)
	}
	defer restored.Close()
	res = run(t, restored, "cat /etc/hostname")
	if res.ExitCode != 127 || !strings.Contains(string(res.Stderr), ": cat: command not found ("+NoToolsHint+")\n") {
		t.Fatalf("restored: exit %d, stderr %q; want 127 and the hint", res.ExitCode, res.Stderr)
	}
}
