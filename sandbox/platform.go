package sandbox

import (
	"context"
	"errors"
	"io/fs"
	"sync"

	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

// Platform is the one seam between the core and where it runs: the
// engine that runs guest modules, the disk caches of compiled and
// instrumented modules, the tool modules a sandbox gets when its Options
// name none, the network that guests' allowed requests go out on, and
// the host's directories. Two more parts of the seam are per-sandbox
// options, since one platform serves sandboxes that keep them apart:
// Options.Store (where snapshots go) and Options.ModuleStore (where
// instrumented modules are kept when there is no cache directory).
//
// Package platform/native is the platform of native Go programs (wazero,
// tools from a directory or built into the user cache, files, net/http,
// os.Root); importing it makes it the default. Package platform/hostwasm
// is the js/wasm core's, over the host's own WebAssembly in Node and
// browsers, whose tools the JavaScript loader fetches by URL (browser) or
// reads from the npm package (Node).
type Platform interface {
	// Engine returns the engine that runs guest modules, which may
	// import hostModules. Sandboxes share engines: the core calls Engine
	// for every new sandbox and keeps one module cache per engine
	// returned, so a platform returns the same engine for the same
	// cacheDir. cacheDir is Options.CacheDir, where a platform with a
	// disk may keep compiled code ("" for none).
	Engine(ctx context.Context, hostModules []wasm.HostModule, cacheDir string) (wasm.Engine, error)
	// ModuleCache returns the store of instrumented modules kept in
	// cacheDir (Options.CacheDir, not ""), or nil where there is no disk.
	ModuleCache(cacheDir string) ModuleStore
	// Tools returns the tool modules of a sandbox whose Options.Tools
	// and Options.ToolsDir are unset: manifest.json and NAME.wasm files at
	// the root of an fs.FS. A nil FS means none: only shell builtins
	// run, and every other command is "command not found" with a hint
	// (NoToolsHint).
	Tools(ctx context.Context) (fs.FS, error)
	// Transport carries the HTTP requests of guests (curl, wget, fetch,
	// urllib) that Options.Network allowed, when Options.Network names
	// no Transport of its own; nil means none: every allowed request
	// fails to connect.
	Transport() netpolicy.Transport
	// HostDir opens the host directory path for a mount (Mount.HostPath),
	// or says why this platform has none.
	HostDir(path string) (vfs.Host, error)
}

// ErrNoPlatform is returned by New, Restore and Load when Options.Platform
// is nil and no default platform is registered.
var ErrNoPlatform = errors.New(`sandbox: no platform to run guests on: import _ "github.com/wasmsand/wasmsand/platform/native" to run natively (wazero), or set Options.Platform`)

var (
	defaultMu       sync.Mutex
	defaultPlatform Platform
)

// SetDefaultPlatform makes p the platform of every sandbox whose
// Options.Platform is nil. Importing package platform/native calls it,
// so that sandbox.New(ctx, sandbox.Options{}) runs natively.
func SetDefaultPlatform(p Platform) {
	defaultMu.Lock()
	defaultPlatform = p
	defaultMu.Unlock()
}

// platformOf returns the platform opts asks for.
func platformOf(opts Options) (Platform, error) {
	if opts.Platform != nil {
		return opts.Platform, nil
	}
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultPlatform == nil {
		return nil, ErrNoPlatform
	}
	return defaultPlatform, nil
}

// NoToolsHint follows "command not found" in a sandbox that has no tool
// modules at all, which is almost always a configuration mistake rather
// than a misspelt command.
const NoToolsHint = "this sandbox has no tool modules, only shell builtins: use the platform/native default, which builds them, or set Options.ToolsDir to a directory of built tools such as a checkout's build/tools"
