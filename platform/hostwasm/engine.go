//go:build js && wasm

package hostwasm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"syscall/js"

	"github.com/hack-pad/safejs"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/lazytable"
	"github.com/wasmsand/wasmsand/wasm/memsize"
)

// hostFunc is one host function with its place in the dispatch table.
type hostFunc struct {
	module string
	wasm.HostFunc
}

// Engine runs guest modules on the host's WebAssembly. It implements
// wasm.Engine. Compiled modules are shared by every Engine in the
// process, keyed by the SHA-256 of their bytes.
//
// With JSPI, guests run on the event loop and suspend in host calls that
// wait. Without it (Synchronous reports true) each guest runs to its end
// inside one call from Go, and a host call that waits holds the whole
// JavaScript thread: the sandbox must then hand guests input that is
// already complete (see RATIONALE.md).
type Engine struct {
	funcs []hostFunc
	index map[[2]string]int // {module, name} → index in funcs
	jspi  bool

	mu     sync.Mutex
	closed bool
}

var _ wasm.Preparer = (*Engine)(nil)

// NewEngine makes an engine whose guests may import hostModules. It uses
// JSPI when the host has it and runs guests synchronously otherwise.
func NewEngine(hostModules []wasm.HostModule) (*Engine, error) {
	if g := glue(); g.err != nil {
		return nil, g.err
	}
	e := &Engine{index: map[[2]string]int{}, jspi: HasJSPI()}
	for _, hm := range hostModules {
		for _, hf := range hm.Funcs {
			if hf.Fn == nil {
				return nil, fmt.Errorf("jsbridge: host function %s.%s has no Fn", hm.Name, hf.Name)
			}
			if len(hf.Results) > 1 {
				return nil, fmt.Errorf("jsbridge: host function %s.%s has %d results; at most one is supported", hm.Name, hf.Name, len(hf.Results))
			}
			for _, t := range slices.Concat(hf.Params, hf.Results) {
				switch t {
				case wasm.I32, wasm.I64, wasm.F32, wasm.F64:
				default:
					return nil, fmt.Errorf("jsbridge: host function %s.%s: unsupported value type 0x%x", hm.Name, hf.Name, byte(t))
				}
			}
			if slots(hf.Params) > maxSlots {
				return nil, fmt.Errorf("jsbridge: host function %s.%s has too many parameters", hm.Name, hf.Name)
			}
			e.index[[2]string{hm.Name, hf.Name}] = len(e.funcs)
			e.funcs = append(e.funcs, hostFunc{hm.Name, hf})
		}
	}
	return e, nil
}

// Synchronous reports whether guests run to their end inside one call
// (the host has no JSPI), so a host call that waits stalls every guest.
func (e *Engine) Synchronous() bool { return !e.jspi }

// slots counts the float64 slots params take in wasmsand_hostcall.
func slots(params []wasm.ValueType) int {
	n := len(params)
	for _, t := range params {
		if t == wasm.I64 {
			n++
		}
	}
	return n
}

// signature encodes a host function's type for glueSource's maker.
func signature(hf *wasm.HostFunc) (params string, kind int) {
	b := make([]byte, len(hf.Params))
	for k, t := range hf.Params {
		b[k] = map[wasm.ValueType]byte{wasm.I32: 'i', wasm.I64: 'I', wasm.F32: 'f', wasm.F64: 'F'}[t]
	}
	if len(hf.Results) == 1 {
		kind = map[wasm.ValueType]int{wasm.I32: 1, wasm.I64: 2, wasm.F32: 3, wasm.F64: 4}[hf.Results[0]]
	}
	return string(b), kind
}

// EngineFactory returns the engine of every sandbox (see Platform).
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
	// mem is the limits of the module's memory when it was compiled to
	// import it (see importDefs), else nil; dirty (a Uint32Array) is
	// then the ranges of a recycled memory to zero (see binary.DirtyRanges).
	mem   *binary.Limits
	dirty js.Value
	// ownSize is set when the module keeps its memory's size itself (see
	// package memsize): its instances can be given a recycled memory that
	// grew, and their size is its memsize.SizeExport global.
	ownSize bool
	// table is the type of the module's table when it was compiled to
	// import it, else nil.
	table *binary.TableType
}

type compileEntry struct {
	once sync.Once
	c    *compiled
	err  error
}

var (
	compiles            atomic.Int64 // modules compiled, for tests
	asyncInstantiations atomic.Int64 // fallbacks to WebAssembly.instantiate, for tests
	compileMu           sync.Mutex
	compileCache        = map[[32]byte]*compileEntry{}
)

// Compile validates bin and compiles it with WebAssembly.compile, once per
// distinct bytes in the process.
func (e *Engine) Compile(ctx context.Context, bin []byte) (wasm.Module, error) {
	if e.isClosed() {
		return nil, errEngineClosed
	}
	sum := moduleSum(bin, !e.jspi && nested.depth() > 0)
	compileMu.Lock()
	ce := compileCache[sum]
	if ce == nil {
		ce = &compileEntry{}
		compileCache[sum] = ce
	}
	compileMu.Unlock()
	ce.once.Do(func() {
		ce.c, ce.err = compile(bin, !e.jspi && nested.depth() > 0)
		releaseCopies(2 * len(bin)) // the digest's copy and the compiler's
	})
	if ce.err != nil {
		return nil, ce.err
	}
	if err := e.checkImports(ce.c); err != nil {
		return nil, err
	}
	return &module{e: e, c: ce.c}, nil
}

// PreparedFormat names what Prepare writes (see wasm.Preparer). Change it
// whenever Prepare's output or preparedMeta may change.
func (e *Engine) PreparedFormat() string { return "hostwasm2" }

// Prepare checks bin as Compile does and returns it as Compile hands it
// to the host: Go's function table filled on first use (package
// lazytable), the memory and table imported (see importDefs), and in
// front a custom section (preparedSection) with what the engine needs to
// know of the module, so that compiling it again decodes nothing.
func (e *Engine) Prepare(_ context.Context, bin []byte) ([]byte, error) {
	out, _, err := prepare(bin)
	return out, err
}

// CompilePrepared compiles what Prepare returned, in this process or
// another, without rewriting or decoding it again. Unlike Compile it keeps
// no cache of its own: its caller keeps the modules it compiles.
func (e *Engine) CompilePrepared(_ context.Context, prepared []byte) (wasm.Module, error) {
	if e.isClosed() {
		return nil, errEngineClosed
	}
	meta, err := readMeta(prepared)
	if err != nil {
		return nil, err
	}
	mod, err := jsCompiler(!e.jspi && nested.depth() > 0)(bytesToJS(prepared))
	releaseCopies(len(prepared))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", wasm.ErrInvalidModule, err)
	}
	return e.preparedModule(meta, mod)
}

// preparedModule is mod, compiled from a prepared module meta describes.
func (e *Engine) preparedModule(meta *preparedMeta, mod js.Value) (wasm.Module, error) {
	c := meta.compiled()
	if err := e.checkImports(c); err != nil {
		return nil, err
	}
	compiles.Add(1)
	c.mod = mod
	return &module{e: e, c: c}, nil
}

// jsCompiler returns the host's compile function. sync compiles with new
// WebAssembly.Module, for callers that cannot wait for a Promise (a
// guest's host call without JSPI); browsers refuse it for large modules on
// their main thread.
func jsCompiler(sync bool) func(js.Value) (js.Value, error) {
	if sync {
		return func(b js.Value) (js.Value, error) {
			v, err := safejs.Safe(jsWebAssembly.Get("Module")).New(safejs.Safe(b))
			return safejs.Unsafe(v), err
		}
	}
	return func(b js.Value) (js.Value, error) {
		return await(jsWebAssembly.Call("compile", b))
	}
}

// checkImports fails unless the engine provides every function c imports.
func (e *Engine) checkImports(c *compiled) error {
	for _, imp := range c.imports {
		if _, ok := e.index[[2]string{imp.Module, imp.Name}]; !ok {
			return fmt.Errorf("%w: it imports %s.%s, which the host does not provide", wasm.ErrInvalidModule, imp.Module, imp.Name)
		}
	}
	return nil
}

// compile prepares and compiles bin (see jsCompiler for sync).
func compile(bin []byte, sync bool) (*compiled, error) {
	prepared, meta, err := prepare(bin)
	if err != nil {
		return nil, err
	}
	compiles.Add(1)
	c := meta.compiled()
	if c.mod, err = jsCompiler(sync)(bytesToJS(prepared)); err != nil {
		return nil, fmt.Errorf("%w: %v", wasm.ErrInvalidModule, err)
	}
	return c, nil
}

// prepare is Prepare, returning the description it writes too. Only
// function imports are accepted.
func prepare(bin []byte) ([]byte, *preparedMeta, error) {
	m, err := binary.Decode(bin)
	if err != nil {
		return nil, nil, err
	}
	meta := &preparedMeta{Funcs: map[string]binary.FuncType{}, Globals: map[string]binary.GlobalType{}}
	var funcTypes []uint32 // type index of every function, imports first
	for _, imp := range m.Imports {
		if imp.Kind != binary.ExternFunc {
			return nil, nil, fmt.Errorf("%w: it imports %s.%s, which is not a function (only function imports are supported)", wasm.ErrInvalidModule, imp.Module, imp.Name)
		}
		meta.Imports = append(meta.Imports, imp)
		funcTypes = append(funcTypes, imp.Func)
	}
	funcTypes = append(funcTypes, m.Funcs...)
	for _, ex := range m.Exports {
		switch ex.Kind {
		case binary.ExternFunc:
			if int(ex.Index) < len(funcTypes) && int(funcTypes[ex.Index]) < len(m.Types) {
				meta.Funcs[ex.Name] = m.Types[funcTypes[ex.Index]]
			}
		case binary.ExternGlobal:
			if int(ex.Index) < len(m.Globals) {
				meta.Globals[ex.Name] = m.Globals[ex.Index].Type
			}
		}
	}
	if binary.HasCustom(bin, "go:buildid") {
		// See wazeroengine: Go's table, filled on first use. Apply adds a
		// function and changes the elements, never the imports, exports,
		// memory, table or data read from m.
		bin = lazytable.Apply(bin)
	}
	// A memory that grew can serve the module's next instance only if
	// the module keeps its memory's size itself. Like lazytable, memsize
	// adds to the module and never changes what importDefs reads of m.
	sized, ownSize := memsize.Apply(bin)
	if out, h, err := importDefs(sized, m); err == nil {
		bin, meta.Mem, meta.Table, meta.OwnSize = out, h.mem, h.table, ownSize && h.mem != nil
		if lim := h.mem; lim != nil {
			meta.Dirty = binary.DirtyRanges(m, uint32(min(uint64(lim.Min)<<16, math.MaxUint32)))
		}
	}
	desc, err := json.Marshal(meta)
	if err != nil {
		return nil, nil, err
	}
	out := binary.AppendCustom(append(make([]byte, 0, len(bin)+len(desc)+32), bin[:8]...), preparedSection, desc)
	return append(out, bin[8:]...), meta, nil
}

// preparedSection is the custom section in which Prepare describes the
// module it writes.
const preparedSection = "wasmsand:prepared"

// preparedMeta is what the engine knows of a prepared module: what
// compiled holds besides the WebAssembly.Module.
type preparedMeta struct {
	Imports []binary.Import              // function imports, in order
	Funcs   map[string]binary.FuncType   // exported functions
	Globals map[string]binary.GlobalType // exported globals
	Mem     *binary.Limits               `json:",omitempty"`
	Table   *binary.TableType            `json:",omitempty"`
	Dirty   []uint32                     `json:",omitempty"`
	OwnSize bool                         `json:",omitempty"` // see compiled.ownSize
}

// readMeta reads a prepared module's description.
func readMeta(prepared []byte) (*preparedMeta, error) {
	desc, ok := binary.CustomData(prepared, preparedSection)
	if !ok {
		return nil, fmt.Errorf("%w: not a prepared module (no %s section)", wasm.ErrInvalidModule, preparedSection)
	}
	return decodeMeta(desc)
}

func decodeMeta(desc []byte) (*preparedMeta, error) {
	meta := &preparedMeta{}
	if err := json.Unmarshal(desc, meta); err != nil {
		return nil, fmt.Errorf("%w: a damaged %s section: %v", wasm.ErrInvalidModule, preparedSection, err)
	}
	for _, imp := range meta.Imports {
		if imp.Kind != binary.ExternFunc {
			return nil, fmt.Errorf("%w: a damaged %s section: import %s.%s is not a function", wasm.ErrInvalidModule, preparedSection, imp.Module, imp.Name)
		}
	}
	if meta.Table != nil && meta.Table.Elem != binary.FuncRef {
		return nil, fmt.Errorf("%w: a damaged %s section: the table does not hold functions", wasm.ErrInvalidModule, preparedSection)
	}
	return meta, nil
}

// compiled returns what meta says of its module, without the module.
func (meta *preparedMeta) compiled() *compiled {
	c := &compiled{
		funcs:   meta.Funcs,
		globals: meta.Globals,
		imports: meta.Imports,
		mem:     meta.Mem,
		table:   meta.Table,
		ownSize: meta.OwnSize,
	}
	if c.funcs == nil {
		c.funcs = map[string]binary.FuncType{}
	}
	if c.globals == nil {
		c.globals = map[string]binary.GlobalType{}
	}
	for name := range c.funcs {
		c.exports = append(c.exports, name)
	}
	slices.Sort(c.exports)
	if c.mem != nil {
		c.dirty = jsGlobal.Get("Uint32Array").New(len(meta.Dirty))
		for k, v := range meta.Dirty {
			c.dirty.SetIndex(k, v)
		}
	}
	return c
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

	specsOnce sync.Once
	specs     js.Value // import specs for glueSource's makeImports
}

// importSpecs lists [module, name, funcIndex, params, kind] for every
// import, in a JavaScript array made once per module.
func (m *module) importSpecs() js.Value {
	m.specsOnce.Do(func() {
		specs := make([]any, len(m.c.imports))
		for k, imp := range m.c.imports {
			idx := m.e.index[[2]string{imp.Module, imp.Name}]
			params, kind := signature(&m.e.funcs[idx].HostFunc)
			specs[k] = []any{imp.Module, imp.Name, idx, params, kind}
		}
		m.specs = js.ValueOf(specs)
	})
	return m.specs
}

// Exports lists the exported function names, sorted.
func (m *module) Exports() []string { return slices.Clone(m.c.exports) }

// Close does nothing: compiled modules are cached for the process.
func (m *module) Close(context.Context) error { return nil }

// Instantiate creates an instance whose imports call the engine's host
// functions with this instance's memory and the ctx of its current Call.
func (m *module) Instantiate(ctx context.Context) (wasm.Instance, error) {
	e := m.e
	if e.isClosed() {
		return nil, errEngineClosed
	}
	i := &instance{e: e, c: m.c, ctx: ctx}
	registerInstance(i)
	memMin, memMax := limits(m.c.mem)
	tableMin, tableMax := -1, -1
	if t := m.c.table; t != nil {
		tableMin, tableMax = limits(&t.Limits)
	}
	g := glue()

	// A start function runs inside the constructor, a call from Go.
	nested.push(i)
	thrown := g.instantiate.Invoke(i.id, m.c.mod, m.importSpecs(), e.jspi, memMin, memMax, m.c.dirty, m.c.ownSize, tableMin, tableMax)
	nested.pop(i)
	var err error
	if !thrown.IsNull() {
		err = &jsError{thrown}
	}
	if err != nil && !i.hostErrSet() {
		// Hosts may refuse synchronous instantiation (browsers, on the
		// main thread, for large modules): fall back to the async form.
		asyncInstantiations.Add(1)
		_, err = await(g.instantiateAsync.Invoke(i.id, m.c.mod))
	}
	if err != nil {
		i.forget()
		if herr := i.takeHostErr(); herr != nil {
			return nil, herr
		}
		return nil, fmt.Errorf("jsbridge: instantiating: %w", err)
	}
	if mem := g.memory.Invoke(i.id); mem.Type() == js.TypeObject {
		size := js.Undefined()
		if m.c.ownSize {
			size = g.exported.Invoke(i.id, memsize.SizeExport)
		}
		i.mem = newMemory(mem, size)
	}
	return i, nil
}

// limits gives lim's minimum and maximum for the glue: -1 for no limits
// (lim is nil) or no maximum.
func limits(lim *binary.Limits) (lo, hi int) {
	if lim == nil {
		return -1, -1
	}
	if !lim.HasMax {
		return int(lim.Min), -1
	}
	return int(lim.Min), int(lim.Max)
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
		return uint64(math.Float32bits(float32(jsFloatResult(v))))
	default:
		return math.Float64bits(jsFloatResult(v))
	}
}

// jsFloatResult reads a float result; "-0" is how jsKeepNegZero hands
// over a negative zero, which syscall/js would turn into +0.
func jsFloatResult(v js.Value) float64 {
	if v.Type() == js.TypeString && v.String() == "-0" {
		return math.Copysign(0, -1)
	}
	return jsNumber(v)
}

func toJS(t wasm.ValueType, x uint64) any {
	switch t {
	case wasm.I32:
		return int32(uint32(x))
	case wasm.I64:
		return u64ToBig(x)
	case wasm.F32:
		return jsFloatArg(float64(math.Float32frombits(uint32(x))))
	default:
		return jsFloatArg(math.Float64frombits(x))
	}
}

// jsFloatArg is f as a value for JS. syscall/js turns -0 into +0, so -0 goes
// as the string "-0", which WebAssembly's ToNumber makes -0 again for an
// f32/f64 parameter or global.
func jsFloatArg(f float64) any {
	if f == 0 && math.Signbit(f) {
		return "-0"
	}
	return f
}
