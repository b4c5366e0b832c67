//go:build !js

package sandbox

import (
	"context"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/wazeroengine"
)

// defaultEngine is wazero. It is the one file of the core with a build
// constraint: linking wazero into the js/wasm core would add megabytes
// that page never runs (the js build passes Options.Engine).
func defaultEngine(ctx context.Context, hosts []wasm.HostModule, cacheDir string) (wasm.Engine, error) {
	return wazeroengine.New(ctx, wazeroengine.Config{HostModules: hosts, CacheDir: cacheDir})
}
