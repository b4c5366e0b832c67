//go:build js && wasm

package hostwasm

import (
	"io/fs"
	"math"
	"syscall/js"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm"
)

// What package jsbridge, which makes the core's JavaScript objects,
// shares with the engine: JavaScript globals looked up once, Promise
// helpers and exact conversions of numbers and bytes.
var (
	Global      = jsGlobal
	Promise     = jsPromise
	Object      = jsObject
	Array       = jsArray
	Uint8Array  = jsUint8Array
	ArrayBuffer = jsArrayBuffer
	BigInt      = jsBigInt
)

// Await blocks the calling goroutine until p settles and returns its
// value, or a *Error for a rejection. It must not be called from a
// js.FuncOf callback.
func Await(p js.Value) (js.Value, error) { return await(p) }

// Error is a rejection or exception from JavaScript.
type Error = jsError

// NewError is the Error of the thrown value v.
func NewError(v js.Value) error { return &jsError{v} }

// Thrown is the value that was thrown.
func (e *jsError) Thrown() js.Value { return e.v }

// BytesToJS copies b into a new Uint8Array.
func BytesToJS(b []byte) js.Value { return bytesToJS(b) }

// BigToU64 returns the low 64 bits of a JavaScript BigInt.
func BigToU64(v js.Value) uint64 { return bigToU64(v) }

// U64ToBig returns u as an unsigned BigInt.
func U64ToBig(u uint64) js.Value { return u64ToBig(u) }

// Deferred is a pending Promise with its resolve and reject functions.
type Deferred struct{ Promise, Resolve, Reject js.Value }

// NewDeferred makes a pending Promise.
func NewDeferred() Deferred {
	d := newDeferred()
	return Deferred{d.promise, d.resolve, d.reject}
}

// RunSynchronously makes the engine run guests without JSPI, to their end
// inside each call from JavaScript: for host functions that never wait
// (the low-level module API's, when none may), where a call then costs
// no trip through the event loop. Call it before the first Compile.
func (e *Engine) RunSynchronously() { e.jspi = false }

// MaxSlots is the most JavaScript arguments a host function may take.
const MaxSlots = maxSlots

// Slots is the number of JavaScript arguments params take (an i64 is
// passed as two).
func Slots(params []wasm.ValueType) int { return slots(params) }

// MemoryObject returns the WebAssembly.Memory behind m, if m is one of
// this engine's memories.
func MemoryObject(m wasm.Memory) (js.Value, bool) {
	if mm, ok := m.(*memory); ok && mm != nil {
		return mm.mem, true
	}
	return js.Undefined(), false
}

// Deliver calls fn(s) from a microtask: never inside a guest's host call,
// and what fn throws is ignored.
func Deliver(fn js.Value, s string) { glue().deliver.Invoke(fn, s) }

// jsIsNegZero tells -0 from 0: syscall/js turns -0 into 0 when a number
// crosses into Go.
var jsIsNegZero = jsGlobal.Get("Function").New("v", "return Object.is(v, -0)")

// Number reads a JavaScript number, -0 included.
func Number(v js.Value) float64 { return jsNumber(v) }

func jsNumber(v js.Value) float64 {
	f := v.Float()
	if f == 0 && jsIsNegZero.Invoke(v).Bool() {
		return math.Copysign(0, -1)
	}
	return f
}

// ModuleStore is a sandbox.ModuleStore over a JavaScript object with
// load(raw, variant) and store(raw, variant, bytes) methods returning
// Promises (see jsModuleStore): the browser loader's keeps modules in
// the Cache API, the Node loader's in files.
func ModuleStore(obj js.Value) sandbox.ModuleStore { return jsModuleStore{obj} }

// ToolsFS is the tools the loader hands in as an object mapping file
// names to bytes or to functions that load them (see toolsFS), as an
// fs.FS for Options.Tools. It reports the first entry that is neither.
func ToolsFS(obj js.Value) (fs.FS, string) {
	t, bad := newToolsFS(obj)
	if t == nil {
		return nil, bad
	}
	return t, bad
}

// String is v as JavaScript's String(v) gives it, for messages.
func String(v js.Value) string { return jsString(v) }

func jsString(v js.Value) string {
	if v.Type() == js.TypeString {
		return v.String()
	}
	return jsGlobal.Call("String", v).String()
}
