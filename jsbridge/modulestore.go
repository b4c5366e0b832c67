//go:build js && wasm

package jsbridge

import (
	"context"
	"syscall/js"
)

// jsModuleStore is a sandbox.ModuleStore over a JavaScript object with
//
//	load(raw: Uint8Array, variant: string) → Promise<Uint8Array | null>
//	store(raw: Uint8Array, variant: string, bytes: Uint8Array) → Promise
//
// The browser loader's keeps modules in the Cache API, keyed by the
// SHA-256 of raw computed with Web Crypto (see sandbox.ModuleStore).
// Failures are misses: the store is an optimisation.
type jsModuleStore struct{ obj js.Value }

func (s jsModuleStore) Load(_ context.Context, raw []byte, variant string) (b []byte, ok bool) {
	defer func() {
		if recover() != nil { // load threw
			b, ok = nil, false
		}
	}()
	v, err := await(jsPromise.Call("resolve", s.obj.Call("load", bytesToJS(raw), variant)))
	if err != nil {
		return nil, false
	}
	if v.InstanceOf(jsArrayBuffer) {
		v = jsUint8Array.New(v)
	}
	if !v.InstanceOf(jsUint8Array) {
		return nil, false
	}
	b = make([]byte, v.Length())
	js.CopyBytesToGo(b, v)
	return b, true
}

func (s jsModuleStore) Store(_ context.Context, raw []byte, variant string, b []byte) {
	defer func() { _ = recover() }() // store threw
	_, _ = await(jsPromise.Call("resolve", s.obj.Call("store", bytesToJS(raw), variant, bytesToJS(b))))
}
