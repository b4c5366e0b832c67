//go:build js && wasm

package jsbridge

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"syscall/js"
	"time"

	"github.com/hack-pad/safejs"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
)

// hostFunc is one host function with its place in the dispatch table.
type hostFunc struct {
	module string
	wasm.HostFunc
}

// Engine runs guest modules on the host's WebAssembly. It implements
// wasm.Engine. Compiled modules are shared by every Engine in the
// process, keyed by the SHA-256 of their bytes.
type Engine struct {
	funcs    []hostFunc
	index    map[[2]string]int // {module, name} → index in funcs
	dispatch js.Func           // the one callback behind every import

	mu        sync.Mutex
	instances map[int]*instance // live instances by id
	nextID    int
	closed    bool
}

var _ wasm.Engine = (*Engine)(nil)

// NewEngine makes an engine whose guests may import hostModules. It fails
// with ErrNoJSPI when the host lacks JSPI.
func NewEngine(hostModules []wasm.HostModule) (*Engine, error) {
	if !HasJSPI() {
		return nil, ErrNoJSPI
	}
	e := &Engine{index: map[[2]string]int{}, instances: map[int]*instance{}}
	for _, hm := range hostModules {
		for _, hf := range hm.Funcs {
			if hf.Fn == nil {
				return nil, fmt.Errorf("jsbridge: host function %s.%s has no Fn", hm.Name, hf.Name)
			}
			for _, t := range slices.Concat(hf.Params, hf.Results) {
				switch t {
				case wasm.I32, wasm.I64, wasm.F32, wasm.F64:
				default:
					return nil, fmt.Errorf("jsbridge: host function %s.%s: unsupported value type 0x%x", hm.Name, hf.Name, byte(t))
				}
			}
			e.index[[2]string{hm.Name, hf.Name}] = len(e.funcs)
			e.funcs = append(e.funcs, hostFunc{hm.Name, hf})
		}
	}
	e.dispatch = js.FuncOf(e.hostCall)
	return e, nil
}

// EngineFactory adapts NewEngine to sandbox.EngineFactory.
//
// Every sandbox of the page shares one engine, so a tool module is fetched,
// instrumented and compiled once per page. The host modules are the same
// for every sandbox (they find their sandbox through the call's context).
func EngineFactory(_ context.Context, hostModules []wasm.HostModule) (wasm.Engine, error) {
	sharedOnce.Do(func() { shared, sharedErr = NewEngine(hostModules) })
	if sharedErr != nil {
		return nil, sharedErr
	}
	return shared, nil
}

var (
	sharedOnce sync.Once
	shared     *Engine
	sharedErr  error
)

// compiled is a WebAssembly.Module and what Go needs to know of it.
type compiled struct {
	mod     js.Value // WebAssembly.Module
	exports []string // exported function names, sorted
	funcs   map[string]binary.FuncType
	globals map[string]binary.GlobalType // exported globals
	imports []binary.Import              // function imports, in order
}

type compileEntry struct {
	once sync.Once
	c    *compiled
	err  error
}

var (
	compileMu    sync.Mutex
	compileCache = map[[32]byte]*compileEntry{}
)

// Compile validates bin and compiles it with WebAssembly.compile, once per
// distinct bytes in the process.
func (e *Engine) Compile(ctx context.Context, bin []byte) (wasm.Module, error) {
	if e.isClosed() {
		return nil, errEngineClosed
	}
	sum := sha256.Sum256(bin)
	compileMu.Lock()
	ce := compileCache[sum]
	if ce == nil {
		ce = &compileEntry{}
		compileCache[sum] = ce
	}
	compileMu.Unlock()
	ce.once.Do(func() { ce.c, ce.err = compile(bin) })
	if ce.err != nil {
		return nil, ce.err
	}
	for _, imp := range ce.c.imports {
		if _, ok := e.index[[2]string{imp.Module, imp.Name}]; !ok {
			return nil, fmt.Errorf("%w: it imports %s.%s, which the host does not provide", wasm.ErrInvalidModule, imp.Module, imp.Name)
		}
	}
	return &module{e: e, c: ce.c}, nil
}

func compile(bin []byte) (*compiled, error) {
	m, err := binary.Decode(bin)
	if err != nil {
		return nil, err
	}
	c := &compiled{funcs: map[string]binary.FuncType{}, globals: map[string]binary.GlobalType{}}
	var funcTypes []uint32 // type index of every function, imports first
	for _, imp := range m.Imports {
		if imp.Kind != binary.ExternFunc {
			return nil, fmt.Errorf("%w: it imports %s.%s, which is not a function (only function imports are supported)", wasm.ErrInvalidModule, imp.Module, imp.Name)
		}
		c.imports = append(c.imports, imp)
		funcTypes = append(funcTypes, imp.Func)
	}
	funcTypes = append(funcTypes, m.Funcs...)
	globals := make([]binary.GlobalType, len(m.Globals))
	for k, g := range m.Globals {
		globals[k] = g.Type
	}
	for _, ex := range m.Exports {
		switch ex.Kind {
		case binary.ExternFunc:
			if int(ex.Index) < len(funcTypes) && int(funcTypes[ex.Index]) < len(m.Types) {
				c.exports = append(c.exports, ex.Name)
				c.funcs[ex.Name] = m.Types[funcTypes[ex.Index]]
			}
		case binary.ExternGlobal:
			if int(ex.Index) < len(globals) {
				c.globals[ex.Name] = globals[ex.Index]
			}
		}
	}
	slices.Sort(c.exports)

	mod, err := await(jsWebAssembly.Call("compile", bytesToJS(bin)))
	runtime.KeepAlive(bin)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", wasm.ErrInvalidModule, err)
	}
	c.mod = mod
	return c, nil
}

// Close stops the engine: later compiles and instantiations fail. Compiled
// modules stay in the process-wide cache.
func (e *Engine) Close(context.Context) error {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	return nil
}

func (e *Engine) isClosed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

var errEngineClosed = errors.New("jsbridge: engine is closed")

// module is a compiled module bound to an engine's host functions.
type module struct {
	e *Engine
	c *compiled
}

// Exports lists the exported function names, sorted.
func (m *module) Exports() []string { return slices.Clone(m.c.exports) }

// Close does nothing: compiled modules are cached for the process.
func (m *module) Close(context.Context) error { return nil }

// Instantiate creates an instance whose imports call the engine's host
// functions with this instance's memory and the ctx of its current Call.
func (m *module) Instantiate(ctx context.Context) (wasm.Instance, error) {
	e := m.e
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, errEngineClosed
	}
	e.nextID++
	i := &instance{e: e, c: m.c, id: e.nextID, ctx: ctx}
	e.instances[i.id] = i
	e.mu.Unlock()

	suspending := jsWebAssembly.Get("Suspending")
	imports := jsObject.New()
	for _, imp := range m.c.imports {
		ns := imports.Get(imp.Module)
		if ns.IsUndefined() {
			ns = jsObject.New()
			imports.Set(imp.Module, ns)
		}
		idx := e.index[[2]string{imp.Module, imp.Name}]
		bound := e.dispatch.Call("bind", js.Null(), i.id, idx)
		ns.Set(imp.Name, suspending.New(bound))
	}
	v, err := safejs.Safe(jsWebAssembly).Get("Instance")
	if err == nil {
		var inst safejs.Value
		inst, err = v.New(safejs.Safe(m.c.mod), safejs.Safe(imports))
		if err == nil {
			i.inst = safejs.Unsafe(inst)
		}
	}
	if err != nil {
		// Hosts may refuse synchronous instantiation (browsers, on the
		// main thread, for large modules): fall back to the async form.
		var r js.Value
		r, err = await(jsWebAssembly.Call("instantiate", m.c.mod, imports))
		if err == nil {
			i.inst = r
		}
	}
	if err != nil {
		i.forget()
		if herr := i.takeHostErr(); herr != nil {
			return nil, herr
		}
		return nil, fmt.Errorf("jsbridge: instantiating: %w", err)
	}
	i.exports = i.inst.Get("exports")
	if mem := i.exports.Get("memory"); mem.Type() == js.TypeObject && mem.InstanceOf(jsWebAssembly.Get("Memory")) {
		i.mem = &memory{mem: mem, stale: true}
	}
	return i, nil
}

// yieldInterval is how long guests may run, counting host calls that
// finish at once, before a host call gives the event loop a turn.
const yieldInterval = 10 * time.Millisecond

var (
	lastYield = time.Now()
	// setImmediate is Node's cheapest way to run a callback after the
	// event loop's pending work; elsewhere setTimeout(fn, 0) does.
	setImmediate = jsGlobal.Get("setImmediate")
	setTimeout   = jsGlobal.Get("setTimeout")
)

// later calls fn(arg) from a macrotask, after the event loop's pending
// work.
func later(fn, arg js.Value) {
	if setImmediate.Type() == js.TypeFunction {
		setImmediate.Invoke(fn, arg)
		return
	}
	setTimeout.Invoke(fn, 0, arg)
}

// hostCall is the callback behind every import: args are the instance
// id, the function index (both bound at instantiation) and the guest's
// arguments. It never blocks: the host function runs on a goroutine and,
// unless it finishes during one scheduler pass, the guest suspends on a
// Promise the goroutine settles.
func (e *Engine) hostCall(_ js.Value, args []js.Value) any {
	e.mu.Lock()
	i := e.instances[args[0].Int()]
	e.mu.Unlock()
	if i == nil {
		return jsPromise.Call("reject", jsGlobal.Get("Error").New("wasmsand: host call from a closed instance"))
	}
	hf := &e.funcs[args[1].Int()]
	c := &call{i: i, hf: hf}
	n := max(len(hf.Params), len(hf.Results))
	if n <= len(c.small) {
		c.stack = c.small[:n]
	} else {
		c.stack = make([]uint64, n)
	}
	for k, t := range hf.Params {
		c.stack[k] = fromJS(t, args[2+k])
	}
	if i.mem != nil {
		i.mem.stale = true
	}
	if i.hostErrSet() {
		// The guest already ended (for example it caught our exception);
		// keep unwinding it.
		return jsPromise.Call("reject", jsGlobal.Get("Error").New("wasmsand: guest ended"))
	}

	go c.run()
	runtime.Gosched()

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done && time.Since(lastYield) < yieldInterval {
		return c.result()
	}
	c.d = newDeferred()
	if c.done {
		c.settle()
	}
	return c.d.promise
}

// call is one host function call in flight.
type call struct {
	i     *instance
	hf    *hostFunc
	stack []uint64
	small [4]uint64
	err   error // the host function's panic

	mu   sync.Mutex
	done bool
	d    deferred // set when the guest waits on a Promise
}

// run runs the host function; it is the call's own goroutine.
func (c *call) run() {
	defer func() {
		if r := recover(); r != nil {
			err, ok := r.(error)
			if !ok {
				err = fmt.Errorf("jsbridge: host function %s.%s panicked: %v", c.hf.module, c.hf.Name, r)
			}
			c.err = err
			c.i.setHostErr(err)
		}
		c.mu.Lock()
		c.done = true
		if !c.d.promise.IsUndefined() {
			c.settle()
		}
		c.mu.Unlock()
	}()
	c.hf.Fn(c.i.callCtx(), c.i.Memory(), c.stack)
}

// result is the JavaScript value the import returns: its result, or a
// rejected Promise that unwinds the guest.
func (c *call) result() any {
	if c.err != nil {
		return jsPromise.Call("reject", errUnwind)
	}
	switch len(c.hf.Results) {
	case 0:
		return nil
	case 1:
		return toJS(c.hf.Results[0], c.stack[0])
	}
	out := make([]any, len(c.hf.Results))
	for k, t := range c.hf.Results {
		out[k] = toJS(t, c.stack[k])
	}
	return out
}

// settle resolves or rejects c.d, giving the event loop a turn first if
// guests have run for yieldInterval without one.
func (c *call) settle() {
	if c.err != nil {
		c.d.reject.Invoke(errUnwind)
		return
	}
	v := c.result()
	if time.Since(lastYield) >= yieldInterval {
		lastYield = time.Now()
		later(c.d.resolve, js.ValueOf(v))
		return
	}
	c.d.resolve.Invoke(v)
}

// errUnwind is thrown into a guest whose host function ended it; the
// Go error is kept by the instance and returned by Call.
var errUnwind = jsGlobal.Get("Error").New("wasmsand: guest ended by its host")

func fromJS(t wasm.ValueType, v js.Value) uint64 {
	switch t {
	case wasm.I32:
		return uint64(uint32(int32(v.Int())))
	case wasm.I64:
		return bigToU64(v)
	case wasm.F32:
		return uint64(math.Float32bits(float32(v.Float())))
	default:
		return math.Float64bits(v.Float())
	}
}

func toJS(t wasm.ValueType, x uint64) any {
	switch t {
	case wasm.I32:
		return int32(uint32(x))
	case wasm.I64:
		return u64ToBig(x)
	case wasm.F32:
		return float64(math.Float32frombits(uint32(x)))
	default:
		return math.Float64frombits(x)
	}
}
