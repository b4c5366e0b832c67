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
	a := newAwait()
	awaitThen().Invoke(p, a.id, awaitSettle)
	r := <-a.ch
	if !r.ok {
		return js.Undefined(), &jsError{r.v}
	}
	return r.v, nil
}

// Every await shares one js.FuncOf, told which await a settlement is for
// by its id: making and releasing a callback pair per await (one a
// process, for its _start) cost a js.Func's registration, a JavaScript
// closure and a finalizer each.

type awaitResult struct {
	v  js.Value
	ok bool
}

type pendingAwait struct {
	id int
	ch chan awaitResult
}

var (
	awaitMu     sync.Mutex
	awaitNextID int
	awaits      = map[int]chan awaitResult{}

	// awaitSettle(id, ok, value) hands a settlement to its await.
	awaitSettle = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 {
			return nil
		}
		id := args[0].Int()
		awaitMu.Lock()
		ch := awaits[id]
		delete(awaits, id)
		awaitMu.Unlock()
		if ch != nil {
			var v js.Value
			if len(args) > 2 {
				v = args[2]
			}
			ch <- awaitResult{v, args[1].Bool()}
		}
		return nil
	})

	awaitThenOnce sync.Once
	awaitThenFn   js.Value
)

// awaitThen returns the JavaScript function (p, id, settle) that calls
// settle(id, ok, value) once p settles.
func awaitThen() js.Value {
	awaitThenOnce.Do(func() {
		awaitThenFn = jsGlobal.Get("Function").New("p", "id", "settle",
			"p.then((v) => settle(id, true, v), (e) => settle(id, false, e));")
	})
	return awaitThenFn
}

func newAwait() pendingAwait {
	ch := make(chan awaitResult, 1)
	awaitMu.Lock()
	awaitNextID++
	if awaitNextID > 1<<30 {
		awaitNextID = 1
	}
	id := awaitNextID
	awaits[id] = ch
	awaitMu.Unlock()
	return pendingAwait{id, ch}
}

// pendingAwaits is the number of awaits not yet settled, for tests.
func pendingAwaits() int {
	awaitMu.Lock()
	defer awaitMu.Unlock()
	return len(awaits)
}
