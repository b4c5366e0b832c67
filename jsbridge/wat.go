//go:build js && wasm

package jsbridge

import (
	"context"
	"fmt"
	"io/fs"
	"sync"
	"syscall/js"

	"github.com/wasmsand/wasmsand/platform/hostwasm"
	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/wat"
)

// watCompiler converts WebAssembly text for createWasmSandbox's load with
// the wat2wasm guest (package wat). The tools come from a loader function
// the JavaScript side passes to wasmSandbox(): it is called, and wat2wasm
// fetched, only when text is first loaded.
type watCompiler struct {
	loader js.Value // () → Promise of a tools object

	mu sync.Mutex
	c  *wat.Compiler
}

// compile is a modsandbox.TextCompiler. It runs on a goroutine of its
// own (load's promise), so it may await the loader.
func (w *watCompiler) compile(ctx context.Context, text []byte) ([]byte, error) {
	w.mu.Lock()
	if w.c == nil {
		tfs, err := w.tools()
		if err != nil {
			w.mu.Unlock()
			return nil, err
		}
		w.c = wat.New(sandbox.Options{Platform: hostwasm.Platform, Tools: tfs})
	}
	c := w.c
	w.mu.Unlock()
	return c.Compile(ctx, text)
}

// tools calls the loader and wraps the tools object it resolves to.
func (w *watCompiler) tools() (tfs fs.FS, err error) {
	defer func() {
		if r := recover(); r != nil { // the loader threw
			err = fmt.Errorf("wat: loading the tools: %v", r)
		}
	}()
	obj, err := await(jsPromise.Call("resolve", w.loader.Invoke()))
	if err != nil {
		return nil, fmt.Errorf("wat: loading the tools: %w", err)
	}
	if obj.Type() != js.TypeObject {
		return nil, fmt.Errorf("wat: the tools loader gave %s, not an object", jsString(obj))
	}
	tfs, bad := hostwasm.ToolsFS(obj)
	if bad != "" {
		return nil, fmt.Errorf("wat: the tools object has a bad entry %q", bad)
	}
	return tfs, nil
}
