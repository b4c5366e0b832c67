// Package native runs modsandbox instances on wazero, the engine of the
// native Go build.
package native

import (
	"context"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/modsandbox"
	"github.com/wasmsand/wasmsand/wasm/wazeroengine"
)

// Factory returns a modsandbox.EngineFactory creating wazero engines with
// cfg (whose HostModules it replaces).
func Factory(cfg wazeroengine.Config) modsandbox.EngineFactory {
	return func(ctx context.Context, hostModules []wasm.HostModule) (wasm.Engine, error) {
		c := cfg
		c.HostModules = hostModules
		return wazeroengine.New(ctx, c)
	}
}

// New returns a Runtime on wazero's optimizing compiler, compiled code
// kept in memory.
func New() *modsandbox.Runtime {
	return modsandbox.NewRuntime(Factory(wazeroengine.Config{}))
}
