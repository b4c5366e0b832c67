// Package native is the platform of native Go programs: guests run on
// wazero (github.com/tetratelabs/wazero), tool modules come from a
// directory — by default the tools built from this module's own sources
// into the user cache directory on first use — and compiled modules,
// instrumented modules and snapshots are kept on disk.
//
// Importing the package makes it the default platform of package
// sandbox, so that the zero Options run natively:
//
//	import (
//		"github.com/wasmsand/wasmsand/sandbox"
//		_ "github.com/wasmsand/wasmsand/platform/native"
//	)
//
//	sb, err := sandbox.New(ctx, sandbox.Options{})
//
// A Platform made by New with a Config of its own is passed as
// Options.Platform instead.
//
// # Tools without a checkout
//
// A program that depends on this module (go get) has no build/tools
// directory. The first sandbox without Options.Tools or Options.ToolsDir
// then builds the Go guest tools (cat, grep, sed, awk, jq, ...) from the
// module's sources — wherever the go command keeps them, the module cache
// or a replace directive's directory — into the user cache directory,
// writing one line to stderr first; this takes a few minutes once per
// version and the go command must be on $PATH. To build them ahead of
// time:
//
//	go run github.com/wasmsand/wasmsand/wasm/guest/cmd/buildtools -cache
//
// $WASMSAND_TOOLS_DIR, if set, names a tools directory to use instead.
// The C guests (python3, sqlite3, wat2wasm) need Debian's toolchain and
// a checkout: `make cguests build` there, then point ToolsDir at
// build/tools.
package native

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/wasmsand/wasmsand/platform/native/diskcache"
	"github.com/wasmsand/wasmsand/platform/native/hostdir"
	"github.com/wasmsand/wasmsand/platform/native/nethttp"
	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/guest"
)

// Config configures a native Platform. The zero value is the default
// platform's.
type Config struct {
	// ToolsDir is the directory of tool modules (manifest.json and
	// NAME.wasm files) of sandboxes whose Options name none. "" means
	// $WASMSAND_TOOLS_DIR if set, else the tools built from this
	// module's sources into the user cache directory (see the package
	// doc).
	ToolsDir string
	// NoTools gives sandboxes whose Options name no tools none at all:
	// only shell builtins run.
	NoTools bool
	// BuildLog receives the line written before the tools are built;
	// nil means os.Stderr.
	BuildLog io.Writer
	// CacheLimit bounds the bytes of compiled and instrumented modules
	// kept in a sandbox's Options.CacheDir: the least recently used go
	// first, when the platform makes its engine for that directory.
	// 0 means diskcache.DefaultLimit (3 GiB); negative, no limit.
	CacheLimit int64
}

// Platform runs sandboxes natively. It implements sandbox.Platform.
type Platform struct {
	cfg Config

	mu      sync.Mutex
	engines map[string]wasm.Engine // by cache directory
	tools   fs.FS                  // once found or built
}

var _ sandbox.Platform = (*Platform)(nil)

// New returns a native platform configured by cfg. Engines are made on
// first use and shared by every sandbox of the platform.
func New(cfg Config) *Platform {
	return &Platform{cfg: cfg, engines: map[string]wasm.Engine{}}
}

// Default is the platform importing this package registers as package
// sandbox's default (New(Config{})).
var Default = New(Config{})

func init() { sandbox.SetDefaultPlatform(Default) }

// Transport is net/http, through a dialer that refuses private addresses
// a rule does not name (package nethttp).
func (p *Platform) Transport() netpolicy.Transport { return nethttp.Transport }

// ModuleCache keeps instrumented modules in cacheDir/instrumented
// (package diskcache).
func (p *Platform) ModuleCache(cacheDir string) sandbox.ModuleStore {
	return diskcache.Store{Dir: filepath.Join(cacheDir, "instrumented")}
}

// HostDir opens the host directory path with os.Root (package hostdir),
// so nothing in the mount reaches outside it.
func (p *Platform) HostDir(path string) (vfs.Host, error) { return hostdir.Open(path) }

// Tools returns the platform's tool modules (see Config.ToolsDir),
// building them into the user cache directory the first time when no
// directory is named.
func (p *Platform) Tools(ctx context.Context) (fs.FS, error) {
	if p.cfg.NoTools {
		return nil, nil
	}
	dir := p.cfg.ToolsDir
	if dir == "" {
		dir = os.Getenv("WASMSAND_TOOLS_DIR")
	}
	if dir != "" {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("native: tools directory: %w (build the tools with `make build` in a checkout, or name another directory)", err)
		}
		return os.DirFS(dir), nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tools != nil {
		return p.tools, nil
	}
	dir, err := ToolsDir(ctx, p.cfg.BuildLog)
	if err != nil {
		return nil, err
	}
	p.tools = os.DirFS(dir)
	return p.tools, nil
}

// ToolsDir returns the directory of the Go guest tools built from this
// module's sources in the user cache directory, building them first if
// they are not there (a few minutes), with a line to log (nil:
// os.Stderr) before it starts.
func ToolsDir(ctx context.Context, log io.Writer) (string, error) {
	if log == nil {
		log = os.Stderr
	}
	dir, err := guest.Cached(ctx, guest.CacheRoot(), log)
	if err != nil {
		return "", fmt.Errorf("building the guest tools (set Options.ToolsDir or $WASMSAND_TOOLS_DIR to a directory of built tools instead): %w", err)
	}
	return dir, nil
}
