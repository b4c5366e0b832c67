//go:build js

package sandbox

import (
	"context"
	"errors"

	"github.com/wasmsand/wasmsand/wasm"
)

// defaultEngine has nothing to offer under js: the page's own WebAssembly
// is the engine, and jsbridge passes it as Options.Engine.
func defaultEngine(context.Context, []wasm.HostModule, string) (wasm.Engine, error) {
	return nil, errors.New("no default engine under GOOS=js: set Options.Engine (jsbridge.EngineFactory)")
}
