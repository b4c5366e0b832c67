package native

import (
	"context"
	"path/filepath"

	"github.com/wasmsand/wasmsand/platform/native/diskcache"
	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/wazeroengine"
)

// Engine returns the wazero engine for cacheDir (made on first use, with
// wazero's compilation cache in cacheDir when it is not ""). Every
// sandbox with the same cacheDir shares it. Making it first trims the
// module caches in cacheDir to Config.CacheLimit (package diskcache).
func (p *Platform) Engine(ctx context.Context, hosts []wasm.HostModule, cacheDir string) (wasm.Engine, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.engines[cacheDir]; ok {
		return e, nil
	}
	if cacheDir != "" && p.cfg.CacheLimit >= 0 {
		limit := p.cfg.CacheLimit
		if limit == 0 {
			limit = diskcache.DefaultLimit
		}
		// Only the caches' own directories: cacheDir may be shared (the
		// CLI's is the user cache directory's wasmsand, beside the tools).
		// A cache is an optimisation: failing to trim it is not an error.
		dirs, _ := filepath.Glob(filepath.Join(cacheDir, "wazero-*"))
		_, _ = diskcache.Trim(limit, append(dirs, filepath.Join(cacheDir, "instrumented"))...)
	}
	e, err := wazeroengine.New(ctx, wazeroengine.Config{HostModules: hosts, CacheDir: cacheDir})
	if err != nil {
		return nil, err
	}
	p.engines[cacheDir] = e
	return e, nil
}
