//go:build js && wasm

package jsbridge

import (
	"syscall/js"

	"github.com/wasmsand/wasmsand/platform/hostwasm"
	"github.com/wasmsand/wasmsand/wasm"
)

// The JavaScript helpers the engine (package platform/hostwasm) shares
// with the objects made here, under the names this package uses.
var (
	jsGlobal      = hostwasm.Global
	jsPromise     = hostwasm.Promise
	jsObject      = hostwasm.Object
	jsArray       = hostwasm.Array
	jsUint8Array  = hostwasm.Uint8Array
	jsArrayBuffer = hostwasm.ArrayBuffer
	jsBigInt      = hostwasm.BigInt
)

type jsError = hostwasm.Error

func await(p js.Value) (js.Value, error) { return hostwasm.Await(p) }

func bytesToJS(b []byte) js.Value { return hostwasm.BytesToJS(b) }

func jsNumber(v js.Value) float64 { return hostwasm.Number(v) }

func slots(params []wasm.ValueType) int { return hostwasm.Slots(params) }

type deferred struct{ promise, resolve, reject js.Value }

func newDeferred() deferred {
	d := hostwasm.NewDeferred()
	return deferred{d.Promise, d.Resolve, d.Reject}
}

func jsString(v js.Value) string { return hostwasm.String(v) }
