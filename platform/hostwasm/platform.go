//go:build js && wasm

package hostwasm

import (
	"context"
	"io/fs"

	"github.com/wasmsand/wasmsand/platform/hostwasm/fetch"
	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
	"github.com/wasmsand/wasmsand/wasm"
)

// Platform runs sandboxes on the host's own WebAssembly (one Engine
// shared by every sandbox of the page, see EngineFactory); their network
// is the host's fetch() (package fetch). It has no
// tools of its own: the loader fetches them (by URL in a browser, from
// the npm package in Node) and they reach the core as Options.Tools.
var Platform sandbox.Platform = jsPlatform{}

type jsPlatform struct{}

func (jsPlatform) Engine(ctx context.Context, hosts []wasm.HostModule, _ string) (wasm.Engine, error) {
	return EngineFactory(ctx, hosts)
}

func (jsPlatform) Tools(context.Context) (fs.FS, error) { return nil, nil }

func (jsPlatform) Transport() netpolicy.Transport { return fetch.Transport }
