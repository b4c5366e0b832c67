//go:build js && wasm

package hostwasm

import (
	"context"
	"errors"
	"io/fs"

	"github.com/wasmsand/wasmsand/platform/hostwasm/fetch"
	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

// Platform runs sandboxes on the host's own WebAssembly (one Engine
// shared by every sandbox of the page, see EngineFactory); their network
// is the host's fetch() (package fetch). It has no tools of its own: the
// loader fetches them (by URL in a browser, from the npm package in
// Node) and they reach the core as Options.Tools.
var Platform sandbox.Platform = jsPlatform{}

type jsPlatform struct{}

func (jsPlatform) Engine(ctx context.Context, hosts []wasm.HostModule, _ string) (wasm.Engine, error) {
	return EngineFactory(ctx, hosts)
}

func (jsPlatform) Tools(context.Context) (fs.FS, error) { return nil, nil }

func (jsPlatform) Transport() netpolicy.Transport { return fetch.Transport }

// HostDir refuses: the core cannot reach the host's files itself. In
// Node the loader opens mounts with Node's fs and passes Mount.Host
// (package platform/node); a browser has no host directories.
func (jsPlatform) HostDir(path string) (vfs.Host, error) {
	return nil, errors.New("host directories can be mounted only natively or in Node.js (through the npm package); not in a browser")
}

// ModuleCache is nil: there is no disk. The loader passes a ModuleStore
// over the Cache API (browser) or files (Node) as Options.ModuleStore.
func (jsPlatform) ModuleCache(string) sandbox.ModuleStore { return nil }
