//go:build js && wasm

package hostwasm

import (
	"errors"
	"sync"
	"syscall/js"

	"github.com/hack-pad/safejs"
)

// JavaScript globals looked up once.
var (
	jsGlobal      = js.Global()
	jsWebAssembly = jsGlobal.Get("WebAssembly")

	// jsKeepNegZero wraps an export whose results include floats so that
	// a -0 result (or one inside a multi-value array, or a promise's
	// value) comes back as the string "-0": syscall/js turns -0 into +0
	// when a number crosses into Go.
	jsKeepNegZero = jsGlobal.Get("Function").New("f", `
		const fix = r => (typeof r === "number" && Object.is(r, -0)) ? "-0" : (Array.isArray(r) ? r.map(fix) : r);
		return (...a) => { const r = f(...a); return (r && typeof r.then === "function") ? r.then(fix) : fix(r); };`)
	jsPromise     = jsGlobal.Get("Promise")
	jsObject      = jsGlobal.Get("Object")
	jsArray       = jsGlobal.Get("Array")
	jsUint8Array  = jsGlobal.Get("Uint8Array")
	jsBigInt      = jsGlobal.Get("BigInt")
	jsArrayBuffer = jsGlobal.Get("ArrayBuffer")

	// scratch64 and scratch32 share one 8-byte buffer: the cheapest way
	// to move a 64-bit integer across the BigInt boundary exactly.
	scratch64 = jsGlobal.Get("BigUint64Array").New(1)
	scratch32 = jsGlobal.Get("Uint32Array").New(scratch64.Get("buffer"))
)

// HasJSPI reports whether the host's WebAssembly has JSPI
// (WebAssembly.Suspending and WebAssembly.promising).
func HasJSPI() bool {
	return jsWebAssembly.Get("Suspending").Type() == js.TypeFunction &&
		jsWebAssembly.Get("promising").Type() == js.TypeFunction
}

// bigToU64 returns the low 64 bits of a JavaScript BigInt.
func bigToU64(v js.Value) uint64 {
	scratch64.SetIndex(0, v)
	return uint64(uint32(scratch32.Index(0).Int())) | uint64(uint32(scratch32.Index(1).Int()))<<32
}

// u64ToBig returns u as an unsigned BigInt; WebAssembly wraps it to i64.
func u64ToBig(u uint64) js.Value {
	if u < 1<<53 {
		return jsBigInt.Invoke(float64(u))
	}
	scratch32.SetIndex(0, uint32(u))
	scratch32.SetIndex(1, uint32(u>>32))
	return scratch64.Index(0)
}

// bytesToJS copies b into a new Uint8Array.
func bytesToJS(b []byte) js.Value {
	a := jsUint8Array.New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// deferred is a Promise with its resolve and reject functions.
type deferred struct {
	promise, resolve, reject js.Value
}

// newDeferred makes a pending Promise, through Promise.withResolvers
// where the host has it.
func newDeferred() deferred {
	if wr := jsPromise.Get("withResolvers"); wr.Type() == js.TypeFunction {
		r := jsPromise.Call("withResolvers")
		return deferred{r.Get("promise"), r.Get("resolve"), r.Get("reject")}
	}
	var d deferred
	exec := js.FuncOf(func(_ js.Value, args []js.Value) any {
		d.resolve, d.reject = args[0], args[1]
		return nil
	})
	d.promise = jsPromise.New(exec)
	exec.Release()
	return d
}

// errRejected is wrapped by await errors that carry a JavaScript value
// rather than an Error.
var errRejected = errors.New("promise rejected")

// jsError is a rejection or exception from JavaScript.
type jsError struct {
	v js.Value // the thrown value
}

func (e *jsError) Error() string {
	if e.v.Type() == js.TypeObject {
		if m := e.v.Get("message"); m.Type() == js.TypeString {
			if n := e.v.Get("name"); n.Type() == js.TypeString {
				return n.String() + ": " + m.String()
			}
			return m.String()
		}
	}
	s, err := safejs.Safe(jsGlobal.Get("String")).Invoke(safejs.Safe(e.v))
	if err != nil {
		return errRejected.Error()
	}
	str, _ := s.String()
	return str
}

func (e *jsError) Unwrap() error { return errRejected }

// await blocks the calling goroutine until p settles. It must not be
// called from a js.FuncOf callback.
func await(p js.Value) (js.Value, error) {
	g := glue()
	if g.err != nil {
		return js.Undefined(), g.err
	}
	id, ch := newAwait()
	g.watch.Invoke(p, id)
	return awaited(id, <-ch)
}

// An await learns of its promise's settlement through the export
// wasmsand_await_done, as host calls do (see hostcall.go), not through a
// js.FuncOf: a syscall/js callback unpacks its event with about ten
// crossings into JavaScript, each with a finalized js.Value, and one a
// process (its _start) came to about 2% of the CPU time of a loop of
// short processes in Node. The glue keeps the value, if there is one,
// until Go takes it.

// Statuses of a settled await, from the glue's watch.
const (
	awaitFulfilledUndefined = 1
	awaitFulfilled          = 2 // with a value to take
	awaitRejected           = -1
	awaitRejectedUnwind     = -2 // with errUnwind: a host function ended the guest
)

var (
	awaitMu     sync.Mutex
	awaitNextID int32
	awaits      = map[int32]chan int32{}
)

func newAwait() (int32, chan int32) {
	ch := make(chan int32, 1)
	awaitMu.Lock()
	defer awaitMu.Unlock()
	for {
		awaitNextID++
		if awaitNextID <= 0 {
			awaitNextID = 1
		}
		if awaits[awaitNextID] == nil {
			awaits[awaitNextID] = ch
			return awaitNextID, ch
		}
	}
}

//go:wasmexport wasmsand_await_done
func wasmAwaitDone(id, status int32) { settleAwait(id, status) }

// settleAwait hands status to await id. It runs inside an export, so it
// must not block: the channel has room for the one status it gets.
func settleAwait(id, status int32) {
	awaitMu.Lock()
	ch := awaits[id]
	delete(awaits, id)
	awaitMu.Unlock()
	if ch != nil {
		ch <- status
	}
}

// awaited turns a settled await's status into await's results, taking
// its value from the glue when it has one.
func awaited(id, status int32) (js.Value, error) {
	switch status {
	case awaitFulfilledUndefined:
		return js.Undefined(), nil
	case awaitFulfilled:
		return glue().takeAwaited.Invoke(id), nil
	case awaitRejectedUnwind:
		return js.Undefined(), &jsError{errUnwind}
	}
	return js.Undefined(), &jsError{glue().takeAwaited.Invoke(id)}
}

// pendingAwaits is the number of awaits not yet settled, for tests.
func pendingAwaits() int {
	awaitMu.Lock()
	defer awaitMu.Unlock()
	return len(awaits)
}
