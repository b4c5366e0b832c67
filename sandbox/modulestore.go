package sandbox

import (
	"context"
	"fmt"

	"github.com/wasmsand/wasmsand/wasm"
)

// ModuleStore keeps instrumented guest modules across processes or page
// loads, so that a tool is instrumented once per machine or browser
// profile rather than once per process. On an engine that is a
// wasm.Preparer it keeps the engine's prepared form of the instrumented
// module, under a variant that names that form too. Options.CacheDir is the native
// one (files on disk); the browser loader passes one over the Cache API.
// A store is an optimisation: a failed Load is a miss, a failed Store is
// ignored.
//
// Keys are not computed by the core: hashing tens of megabytes in the
// js/wasm build takes most of a second, where the host's own digest (Web
// Crypto) takes milliseconds. A store derives the key from raw (for
// example its SHA-256) and variant, which names everything else the
// instrumented bytes depend on (the memory cap and the instrumenter's
// version).
type ModuleStore interface {
	// Load returns the instrumented module stored for raw and variant.
	Load(ctx context.Context, raw []byte, variant string) ([]byte, bool)
	// Store keeps instrumented, the module made from raw for variant.
	Store(ctx context.Context, raw []byte, variant string, instrumented []byte)
}

// A ModuleLoader is a ModuleStore that can hand a module it keeps to the
// engine itself, compiled, so that its bytes never pass through the core:
// in the JavaScript hosts, copying a ten-megabyte module into the core's
// memory and back costs more than reading it. LoadModule returns false for
// a miss, an engine it cannot hand modules to, or a kept module that does
// not compile; the sandbox then uses Load.
type ModuleLoader interface {
	LoadModule(ctx context.Context, eng wasm.Engine, raw []byte, variant string) (wasm.Module, bool)
}

// storeVariant names what instrumented bytes depend on besides the raw
// module.
func storeVariant(memPages uint32) string {
	return fmt.Sprintf("%d-v%s", memPages, instrumentVersion)
}
