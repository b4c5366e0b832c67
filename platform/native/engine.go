package native

import (
	"context"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/wazeroengine"
)

// Engine returns the wazero engine for cacheDir (made on first use, with
// wazero's compilation cache in cacheDir when it is not ""). Every
// sandbox with the same cacheDir shares it.
func (p *Platform) Engine(ctx context.Context, hosts []wasm.HostModule, cacheDir string) (wasm.Engine, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.engines[cacheDir]; ok {
		return e, nil
	}
	e, err := wazeroengine.New(ctx, wazeroengine.Config{HostModules: hosts, CacheDir: cacheDir})
	if err != nil {
		return nil, err
	}
	p.engines[cacheDir] = e
	return e, nil
}
