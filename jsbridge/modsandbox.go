//go:build js && wasm

package jsbridge

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"runtime/debug"
	"sync"
	"syscall/js"
	"time"

	"github.com/hack-pad/safejs"

	"github.com/wasmsand/wasmsand/platform/hostwasm"
	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/modsandbox"
)

// This file binds package modsandbox, the low-level single-module API, to
// JavaScript: the loader's createWasmSandbox (web/npm/modsandbox.mjs)
// wraps the functions of the object wasmSandbox returns.

// registerWasmSandbox adds wasmSandbox() to the API object: each call
// makes a modsandbox.Runtime on the host's WebAssembly and returns its
// functions. Its optional argument, a function resolving to a tools
// object, lets load accept WebAssembly text (see watCompiler).
func registerWasmSandbox(obj, errClass js.Value) {
	obj.Set("wasmSandbox", js.FuncOf(func(_ js.Value, args []js.Value) any {
		w := newWasmSandbox(errClass)
		if loader := arg(args, 0); loader.Type() == js.TypeFunction {
			w.rt.SetTextCompiler((&watCompiler{loader: loader}).compile)
		}
		return w.object()
	}))
}

// wsRuntime is one createWasmSandbox() runtime and its live instances.
type wsRuntime struct {
	rt       *modsandbox.Runtime
	errClass js.Value

	mu        sync.Mutex
	instances map[string]*modsandbox.Instance
	sync      map[string]bool // ids of instances on a synchronous engine
}

func newWasmSandbox(errClass js.Value) *wsRuntime {
	return &wsRuntime{rt: modsandbox.NewRuntime(wsEngine), errClass: errClass,
		instances: map[string]*modsandbox.Instance{}, sync: map[string]bool{}}
}

// wsEngine makes the engine of a set of host functions. When none of them
// may wait, guests run synchronously, without JSPI: a call into the guest
// then costs no trip through the event loop, and execute runs inside the
// call from JavaScript.
func wsEngine(_ context.Context, hm []wasm.HostModule) (wasm.Engine, error) {
	e, err := hostwasm.NewEngine(hm)
	if err != nil {
		return nil, err
	}
	if allNonBlocking(hm) {
		e.RunSynchronously()
	}
	return e, nil
}

func allNonBlocking(hm []wasm.HostModule) bool {
	for _, m := range hm {
		for _, f := range m.Funcs {
			if !f.NonBlocking {
				return false
			}
		}
	}
	return true
}

// synchronous reports whether instances with cfg run on a synchronous
// engine (see wsEngine): no host function is async and neither
// __read_file nor __fetch has a provider.
func synchronous(cfg *modsandbox.Config) bool {
	for _, hf := range cfg.HostFunctions {
		if !hf.NonBlocking {
			return false
		}
	}
	return cfg.FS == nil && cfg.Fetch == nil
}

// object returns the functions JavaScript calls. Instances are named by
// their id. Synchronous functions return a SandboxError instead of
// throwing; the loader throws it.
func (w *wsRuntime) object() js.Value {
	obj := jsObject.New()
	for name, fn := range map[string]func(args []js.Value) any{
		"create":              w.create,
		"load":                w.load,
		"execute":             w.execute,
		"destroy":             w.destroy,
		"snapshot":            w.snapshot,
		"restore":             w.restore,
		"suspend":             w.suspend,
		"resume":              w.resume,
		"status":              w.status,
		"metrics":             w.metrics,
		"hostCallLog":         w.hostCallLog,
		"memoryPressure":      w.memoryPressure,
		"advise":              w.advise,
		"presets":             w.presets,
		"validateDeterminism": w.validateDeterminism,
	} {
		obj.Set(name, js.FuncOf(w.guard(name, fn)))
	}
	return obj
}

// async reports whether the function named returns a Promise.
func async(name string) bool {
	switch name {
	case "load", "execute", "restore", "resume", "validateDeterminism":
		return true
	}
	return false
}

// guard turns a panic (a wrong argument type, a bug) into a returned or
// rejected SandboxError: a panic in a js.FuncOf callback kills the core.
func (w *wsRuntime) guard(name string, fn func(args []js.Value) any) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				var err error
				if e, ok := r.(*js.ValueError); ok {
					err = wsErrorf(modsandbox.CodeInvalidArgument, "%s: wrong argument type: %v", name, e)
				} else {
					err = fmt.Errorf("%s: internal error: %v\n%s", name, r, debug.Stack())
				}
				out = w.jsErr(err)
				if async(name) {
					out = jsPromise.Call("reject", out)
				}
			}
		}()
		return fn(args)
	}
}

func wsErrorf(code modsandbox.Code, format string, args ...any) *modsandbox.Error {
	return &modsandbox.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// jsErr makes a SandboxError for err, with trap and check properties for
// the errors that have them.
func (w *wsRuntime) jsErr(err error) js.Value {
	var e *modsandbox.Error
	if !errors.As(err, &e) {
		return w.errClass.New(codeInternal, err.Error())
	}
	v := w.errClass.New(string(e.Code), errorMessage(e))
	if e.Trap != "" {
		v.Set("trap", string(e.Trap))
	}
	if e.Check != "" {
		v.Set("check", e.Check)
	}
	return v
}

// errorObject is the error of a failed execute: {code, message, trap?,
// check?}.
func errorObject(e *modsandbox.Error) js.Value {
	o := object("code", string(e.Code), "message", errorMessage(e))
	if e.Trap != "" {
		o.Set("trap", string(e.Trap))
	}
	if e.Check != "" {
		o.Set("check", e.Check)
	}
	return o
}

// errorMessage is e's message without its code, which JavaScript gets
// apart.
func errorMessage(e *modsandbox.Error) string {
	if e.Message == "" {
		return e.Error()
	}
	return e.Message
}

// object makes a JavaScript object whose keys keep the order given: kv
// alternates names and values (anything js.ValueOf takes).
func object(kv ...any) js.Value {
	o := jsObject.New()
	for k := 0; k+1 < len(kv); k += 2 {
		o.Set(kv[k].(string), kv[k+1])
	}
	return o
}

// promise runs fn on a goroutine and returns a Promise of its result.
func (w *wsRuntime) promise(fn func() (any, error)) js.Value {
	d := newDeferred()
	go func() {
		v, err := func() (v any, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("internal error: %v\n%s", r, debug.Stack())
				}
			}()
			return fn()
		}()
		if err != nil {
			d.reject.Invoke(w.jsErr(err))
			return
		}
		d.resolve.Invoke(v)
	}()
	return d.promise
}

// lookup finds the instance named by args[0]. A destroyed or unknown one
// gives INSTANCE_DESTROYED.
func (w *wsRuntime) lookup(args []js.Value) (*modsandbox.Instance, error) {
	v := arg(args, 0)
	if v.Type() != js.TypeString {
		return nil, wsErrorf(modsandbox.CodeInvalidArgument, "the instance must be one made by create()")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	in := w.instances[v.String()]
	if in == nil {
		return nil, wsErrorf(modsandbox.CodeInstanceDestroyed, "instance %s was destroyed", v.String())
	}
	return in, nil
}

// create(config) → {id, config} with the frozen config's numbers, or a
// SandboxError (INVALID_CONFIG).
func (w *wsRuntime) create(args []js.Value) any {
	cfg, err := parseWSConfig(arg(args, 0))
	if err != nil {
		return w.jsErr(err)
	}
	in, err := w.rt.Create(cfg)
	if err != nil {
		return w.jsErr(err)
	}
	w.mu.Lock()
	w.instances[in.ID()] = in
	w.sync[in.ID()] = synchronous(&cfg)
	w.mu.Unlock()
	return object("id", in.ID(), "config", configObject(in.Config()))
}

// configObject is the numbers of a frozen config, as JavaScript sees them.
func configObject(c modsandbox.Config) js.Value {
	return object(
		"maxMemoryBytes", float64(c.MaxMemoryBytes),
		"maxGas", float64(c.MaxGas),
		"maxExecutionMs", float64(c.MaxExecutionMs),
		"deterministicSeed", float64(c.DeterministicSeed),
		"eventTimestamp", float64(c.EventTimestamp),
		"hostCallGas", float64(c.HostCallGas),
		"maxCallDepth", float64(c.MaxCallDepth),
		"readPrefixes", stringsToJS(c.ReadPrefixes),
		"fetchHosts", stringsToJS(c.FetchHosts),
	)
}

func stringsToJS(s []string) []any {
	out := make([]any, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}

// parseWSConfig reads createWasmSandbox's config object: maxMemoryBytes,
// maxGas, maxExecutionMs, deterministicSeed, eventTimestamp, hostCallGas,
// maxCallDepth, hostFunctions, readPrefixes with readFile(path), and
// fetchHosts with fetch(url).
func parseWSConfig(o js.Value) (modsandbox.Config, error) {
	var cfg modsandbox.Config
	if o.Type() != js.TypeObject {
		return cfg, wsErrorf(modsandbox.CodeInvalidConfig, "create: the config must be an object (eventTimestamp is required)")
	}
	var err error
	num := func(name string, max float64) float64 {
		v := o.Get(name)
		if v.IsUndefined() || v.IsNull() || err != nil {
			return 0
		}
		var f float64
		switch jsKind(v) {
		case "number":
			f = v.Float()
		case "bigint":
			f = float64(int64(hostwasm.BigToU64(v)))
		default:
			err = wsErrorf(modsandbox.CodeInvalidConfig, "create: config.%s must be a number", name)
			return 0
		}
		if f < 0 || f > max || f != math.Trunc(f) {
			err = wsErrorf(modsandbox.CodeInvalidConfig, "create: config.%s must be a whole number from 0 to %g", name, max)
			return 0
		}
		return f
	}
	cfg.MaxMemoryBytes = uint64(num("maxMemoryBytes", 1<<32))
	cfg.MaxGas = uint64(num("maxGas", 1<<62))
	cfg.MaxExecutionMs = int64(num("maxExecutionMs", 1<<40))
	cfg.DeterministicSeed = uint32(num("deterministicSeed", math.MaxUint32))
	cfg.EventTimestamp = int64(num("eventTimestamp", 1<<53))
	cfg.HostCallGas = uint64(num("hostCallGas", 1<<40))
	cfg.MaxCallDepth = uint32(num("maxCallDepth", math.MaxUint32))
	if err != nil {
		return cfg, err
	}
	if cfg.HostFunctions, err = parseHostFunctions(o.Get("hostFunctions")); err != nil {
		return cfg, err
	}
	if cfg.ReadPrefixes, err = stringList("readPrefixes", o.Get("readPrefixes")); err != nil {
		return cfg, err
	}
	if cfg.FetchHosts, err = stringList("fetchHosts", o.Get("fetchHosts")); err != nil {
		return cfg, err
	}
	if fn := o.Get("readFile"); fn.Type() == js.TypeFunction {
		cfg.FS = jsFS{fn}
	} else if !fn.IsUndefined() && !fn.IsNull() {
		return cfg, wsErrorf(modsandbox.CodeInvalidConfig, "create: config.readFile must be a function (path) → Uint8Array | string | Promise of one")
	}
	if fn := o.Get("fetch"); fn.Type() == js.TypeFunction {
		cfg.Fetch = func(_ context.Context, url string) ([]byte, error) { return callForBytes(fn, url) }
	} else if !fn.IsUndefined() && !fn.IsNull() {
		return cfg, wsErrorf(modsandbox.CodeInvalidConfig, "create: config.fetch must be a function (url) → Uint8Array | string | Promise of one")
	}
	return cfg, nil
}

func stringList(name string, v js.Value) ([]string, error) {
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if !jsArray.Call("isArray", v).Bool() {
		return nil, wsErrorf(modsandbox.CodeInvalidConfig, "create: config.%s must be an array of strings", name)
	}
	out := make([]string, v.Length())
	for k := range out {
		e := v.Index(k)
		if e.Type() != js.TypeString {
			return nil, wsErrorf(modsandbox.CodeInvalidConfig, "create: config.%s[%d] must be a string", name, k)
		}
		out[k] = e.String()
	}
	return out, nil
}

// callForBytes calls fn(arg) and waits for the bytes it gives: a
// Uint8Array, an ArrayBuffer or a string, or a Promise of one. It runs on
// a goroutine of a host call that may wait (not a NonBlocking one).
func callForBytes(fn js.Value, arg string) ([]byte, error) {
	r, err := safejs.Safe(fn).Invoke(arg)
	if err != nil {
		return nil, jsErrorOf(err)
	}
	v := safejs.Unsafe(r)
	if isThenable(v) {
		if v, err = await(v); err != nil {
			return nil, err
		}
	}
	switch jsKind(v) {
	case "undefined", "null":
		return nil, fs.ErrNotExist
	case "string", "object":
		return bytesArg("the result", v)
	}
	return nil, errors.New("the result must be a Uint8Array, ArrayBuffer or string")
}

// jsFS is config.readFile as an fs.FS for __read_file.
type jsFS struct{ fn js.Value }

func (f jsFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: errors.ErrUnsupported}
}

// ReadFile implements fs.ReadFileFS, which fs.ReadFile uses.
func (f jsFS) ReadFile(name string) ([]byte, error) {
	b, err := callForBytes(f.fn, "/"+name)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return b, nil
}

func isThenable(v js.Value) bool {
	return jsKind(v) == "object" && v.Get("then").Type() == js.TypeFunction
}

// jsTypeOf is JavaScript's typeof: syscall/js's Value.Type panics on a
// BigInt.
var jsTypeOf = jsGlobal.Get("Function").New("v", "return v === null ? 'null' : typeof v")

// jsKind is typeof v, "null" for null.
func jsKind(v js.Value) string {
	if v.IsUndefined() {
		return "undefined"
	}
	return jsTypeOf.Invoke(v).String()
}

// jsErrorOf turns a safejs error (a thrown JavaScript value) into an
// error whose message is the thrown one's.
func jsErrorOf(err error) error {
	var je js.Error
	if errors.As(err, &je) {
		return hostwasm.NewError(je.Value)
	}
	return err
}

var valueTypes = map[string]wasm.ValueType{"i32": wasm.I32, "i64": wasm.I64, "f32": wasm.F32, "f64": wasm.F64}

func typeList(what string, v js.Value) ([]wasm.ValueType, error) {
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if !jsArray.Call("isArray", v).Bool() {
		return nil, wsErrorf(modsandbox.CodeInvalidConfig, "create: %s must be an array of 'i32', 'i64', 'f32' or 'f64'", what)
	}
	out := make([]wasm.ValueType, v.Length())
	for k := range out {
		e := v.Index(k)
		t, ok := valueTypes[jsString(e)]
		if e.Type() != js.TypeString || !ok {
			return nil, wsErrorf(modsandbox.CodeInvalidConfig, "create: %s[%d] must be 'i32', 'i64', 'f32' or 'f64'", what, k)
		}
		out[k] = t
	}
	return out, nil
}

// parseHostFunctions reads config.hostFunctions: an object mapping names
// to {params, results, fn, async}, or an array of {name, params, results,
// fn, async}.
func parseHostFunctions(v js.Value) ([]modsandbox.HostFunction, error) {
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if v.Type() != js.TypeObject {
		return nil, wsErrorf(modsandbox.CodeInvalidConfig, "create: config.hostFunctions must map names to {params, results, fn}")
	}
	type entry struct {
		name string
		decl js.Value
	}
	var entries []entry
	if jsArray.Call("isArray", v).Bool() {
		for k := range v.Length() {
			d := v.Index(k)
			if d.Type() != js.TypeObject || d.Get("name").Type() != js.TypeString {
				return nil, wsErrorf(modsandbox.CodeInvalidConfig, "create: config.hostFunctions[%d] must be {name, params, results, fn}", k)
			}
			entries = append(entries, entry{d.Get("name").String(), d})
		}
	} else {
		keys := jsObject.Call("keys", v)
		for k := range keys.Length() {
			name := keys.Index(k).String()
			entries = append(entries, entry{name, v.Get(name)})
		}
	}
	out := make([]modsandbox.HostFunction, 0, len(entries))
	for _, e := range entries {
		what := "config.hostFunctions." + e.name
		d := e.decl
		if d.Type() == js.TypeFunction {
			return nil, wsErrorf(modsandbox.CodeInvalidConfig, "create: %s must be {params, results, fn}, not a bare function: its types must be declared", what)
		}
		if d.Type() != js.TypeObject || d.Get("fn").Type() != js.TypeFunction {
			return nil, wsErrorf(modsandbox.CodeInvalidConfig, "create: %s must be {params, results, fn} with fn a function", what)
		}
		params, err := typeList(what+".params", d.Get("params"))
		if err != nil {
			return nil, err
		}
		results, err := typeList(what+".results", d.Get("results"))
		if err != nil {
			return nil, err
		}
		if len(results) > 1 {
			return nil, wsErrorf(modsandbox.CodeInvalidConfig, "create: %s declares %d results; at most one is supported in JavaScript hosts", what, len(results))
		}
		if slots(params) > hostwasm.MaxSlots {
			return nil, wsErrorf(modsandbox.CodeInvalidConfig, "create: %s has too many parameters (an i64 counts twice, at most %d)", what, hostwasm.MaxSlots)
		}
		isAsync := d.Get("async").Truthy()
		hf := &jsHostFunc{name: e.name, fn: d.Get("fn"), params: params, results: results, async: isAsync}
		out = append(out, modsandbox.HostFunction{Name: e.name, Params: params, Results: results,
			Fn: hf.call, NonBlocking: !isAsync})
	}
	return out, nil
}

// jsHostFunc is a host function written in JavaScript.
type jsHostFunc struct {
	name            string
	fn              js.Value
	params, results []wasm.ValueType
	async           bool
}

// call calls the JavaScript function with the arguments as JavaScript
// values (i32, f32, f64 as numbers, i64 as a BigInt) and a last argument
// {name, memory}, memory being the guest's WebAssembly.Memory. It must
// return a number (or BigInt for i64) for one result and nothing for none;
// an async one may return a Promise of that. What it throws stops the
// guest with HOST_FUNCTION_ERROR.
func (h *jsHostFunc) call(_ context.Context, mem wasm.Memory, args []uint64) ([]uint64, error) {
	jsArgs := jsArray.New(len(args) + 1)
	for k, t := range h.params {
		setValue(jsArgs, k, t, args[k])
	}
	info := jsObject.New()
	info.Set("name", h.name)
	if m, ok := hostwasm.MemoryObject(mem); ok {
		info.Set("memory", m)
	}
	jsArgs.SetIndex(len(args), info)
	r, err := safejs.Safe(h.fn).Call("apply", nil, safejs.Safe(jsArgs))
	if err != nil {
		return nil, thrown(jsErrorOf(err))
	}
	v := safejs.Unsafe(r)
	if isThenable(v) {
		if !h.async {
			return nil, errors.New("returned a Promise: declare the host function with async: true to wait for it")
		}
		if v, err = await(v); err != nil {
			return nil, thrown(err)
		}
	}
	if len(h.results) == 0 {
		return nil, nil
	}
	x, err := valueFromJS(h.results[0], v)
	if err != nil {
		return nil, err
	}
	return []uint64{x}, nil
}

// thrown is the error for what a host function threw: the message of an
// Error, as a Go host function's error would read, or String(value).
func thrown(err error) error {
	var je *jsError
	if errors.As(err, &je) && jsKind(je.Thrown()) == "object" {
		if m := je.Thrown().Get("message"); m.Type() == js.TypeString {
			return errors.New(m.String())
		}
	}
	return err
}

func i64ToBig(n int64) js.Value {
	if n >= -(1<<53) && n <= 1<<53 {
		return jsBigInt.Invoke(float64(n))
	}
	return jsBigInt.Call("asIntN", 64, hostwasm.U64ToBig(uint64(n)))
}

// valueFromJS converts a host function's result to raw bits of type t.
func valueFromJS(t wasm.ValueType, v js.Value) (uint64, error) {
	kind := jsKind(v)
	switch kind {
	case "number":
		f := jsNumber(v)
		switch t {
		case wasm.F32:
			return uint64(math.Float32bits(float32(f))), nil
		case wasm.F64:
			return math.Float64bits(f), nil
		}
		if f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, fmt.Errorf("returned %v, which is not an integer", f)
		}
		if t == wasm.I32 {
			if f < math.MinInt32 || f > math.MaxUint32 {
				return 0, fmt.Errorf("returned %v, which does not fit an i32", f)
			}
			return uint64(uint32(int64(f))), nil
		}
		if f < -(1<<63) || f >= 1<<64 {
			return 0, fmt.Errorf("returned %v, which does not fit an i64", f)
		}
		if f >= 1<<63 {
			return uint64(f), nil
		}
		return uint64(int64(f)), nil
	case "bigint":
		u := hostwasm.BigToU64(v)
		if t == wasm.I32 {
			return uint64(uint32(u)), nil
		}
		if t == wasm.I64 {
			return u, nil
		}
	}
	return 0, fmt.Errorf("returned %s, want a result of type %s", kind, typeName(t))
}

func typeName(t wasm.ValueType) string {
	switch t {
	case wasm.I32:
		return "i32"
	case wasm.I64:
		return "i64 (a BigInt)"
	case wasm.F32:
		return "f32"
	}
	return "f64"
}

// load(id, bytes) → Promise<undefined>.
func (w *wsRuntime) load(args []js.Value) any {
	in, err := w.lookup(args)
	if err != nil {
		return jsPromise.Call("reject", w.jsErr(err))
	}
	bin, err := bytesArg("load: the module", arg(args, 1))
	if err != nil {
		return jsPromise.Call("reject", w.jsErr(wsErrorf(modsandbox.CodeInvalidModule, "%v", err)))
	}
	return w.promise(func() (any, error) { return nil, in.Load(context.Background(), bin) })
}

// payloadFromJS converts execute's payload: undefined or null, a number,
// a BigInt or an array of them go in as arguments; a Uint8Array or
// ArrayBuffer as raw bytes; anything else as JSON (JSON.stringify).
func payloadFromJS(v js.Value) (any, error) {
	switch jsKind(v) {
	case "undefined", "null":
		return nil, nil
	case "number":
		return jsNumber(v), nil
	case "bigint":
		return int64(hostwasm.BigToU64(v)), nil
	case "object":
		switch {
		case v.InstanceOf(jsUint8Array), v.InstanceOf(jsArrayBuffer):
			return bytesArg("payload", v)
		case jsArray.Call("isArray", v).Bool():
			n := v.Length()
			nums := make([]any, n)
			for k := range n {
				e := v.Index(k)
				switch jsKind(e) {
				case "number":
					// e has crossed into Go already, which loses -0:
					// ask the array itself.
					if jsIsNegZeroAt.Invoke(v, k).Bool() {
						nums[k] = math.Copysign(0, -1)
					} else {
						nums[k] = jsNumber(e)
					}
				case "bigint":
					nums[k] = int64(hostwasm.BigToU64(e))
				default:
					return jsonPayload(v)
				}
			}
			return nums, nil
		}
	}
	return jsonPayload(v)
}

func jsonPayload(v js.Value) (any, error) {
	s, err := safejs.Safe(jsGlobal.Get("JSON")).Call("stringify", safejs.Safe(v))
	if err != nil {
		return nil, wsErrorf(modsandbox.CodeInvalidArgument, "the payload cannot be JSON-encoded: %v", jsErrorOf(err))
	}
	if t := s.Type(); t != safejs.TypeString {
		return nil, wsErrorf(modsandbox.CodeInvalidArgument, "the payload cannot be JSON-encoded")
	}
	str, _ := s.String()
	return json.RawMessage(str), nil
}

// setResult sets o[key] to an execution's value.
func setResult(o js.Value, key any, v any) {
	switch x := v.(type) {
	case nil:
		set(o, key, js.Undefined())
	case int32:
		set(o, key, float64(x))
	case int64:
		set(o, key, i64ToBig(x))
	case float32:
		setNumber(o, key, float64(x))
	case float64:
		setNumber(o, key, x)
	case []any:
		arr := jsArray.New(len(x))
		for k, e := range x {
			setResult(arr, k, e)
		}
		set(o, key, arr)
	case json.RawMessage:
		set(o, key, jsGlobal.Get("JSON").Call("parse", string(x)))
	case []byte:
		set(o, key, bytesToJS(x))
	default:
		set(o, key, js.Undefined())
	}
}

// set is o[key] = v for a string key or an int index.
func set(o js.Value, key any, v any) {
	if k, ok := key.(int); ok {
		o.SetIndex(k, v)
		return
	}
	o.Set(key.(string), v)
}

// Zeros keep their sign across the boundary: syscall/js turns -0 into 0
// both ways (a js.Value cannot hold -0), and a float's sign is part of
// the deterministic result.
var (
	jsSetNegZero  = jsGlobal.Get("Function").New("o", "k", "o[k] = -0")
	jsIsNegZeroAt = jsGlobal.Get("Function").New("a", "i", "return Object.is(a[i], -0)")
)

// setNumber is o[key] = f, -0 included.
func setNumber(o js.Value, key any, f float64) {
	if f == 0 && math.Signbit(f) {
		jsSetNegZero.Invoke(o, key)
		return
	}
	set(o, key, f)
}

// execute(id, action, payload) → Promise of {ok, value, metrics, gasUsed,
// durationMs, hostCalls, logs} or {ok: false, error, ...}. It never
// rejects for a failure of the guest.
func (w *wsRuntime) execute(args []js.Value) any {
	in, err := w.lookup(args)
	if err != nil {
		r := modsandbox.Result{Error: asModError(err)}
		return jsPromise.Call("resolve", execResultObject(&r, nil))
	}
	action := arg(args, 1)
	payload, perr := payloadFromJS(arg(args, 2))
	if action.Type() != js.TypeString && perr == nil {
		perr = wsErrorf(modsandbox.CodeInvalidArgument, "execute: the action must be the name of an exported function")
	}
	if perr != nil {
		r := modsandbox.Result{Error: asModError(perr), Metrics: in.Metrics()}
		return jsPromise.Call("resolve", execResultObject(&r, nil))
	}
	name := action.String()
	cfg := in.Config()
	w.mu.Lock()
	sync := w.sync[in.ID()]
	w.mu.Unlock()
	if sync {
		// No host function waits, so the guest runs to its end here.
		r := in.Execute(context.Background(), name, payload)
		return jsPromise.Call("resolve", execResultObject(&r, &cfg))
	}
	return w.promise(func() (any, error) {
		r := in.Execute(context.Background(), name, payload)
		return execResultObject(&r, &cfg), nil
	})
}

func asModError(err error) *modsandbox.Error {
	var e *modsandbox.Error
	if errors.As(err, &e) {
		return e
	}
	return &modsandbox.Error{Code: modsandbox.CodeInvalidArgument, Message: err.Error(), Err: err}
}

// execResultObject converts an execution's Result; cfg gives the types of
// the host-call log's values (nil: none).
func execResultObject(r *modsandbox.Result, cfg *modsandbox.Config) js.Value {
	hostCalls := js.Null()
	if len(r.HostCalls) > 0 {
		hostCalls = js.ValueOf(hostCallsToJS(r.HostCalls, cfg))
	}
	logs := js.Null()
	if len(r.Logs) > 0 {
		logs = js.ValueOf(stringsToJS(r.Logs))
	}
	o := makers().result.Invoke(r.OK, float64(r.GasUsed), r.DurationMs(), metricsObject(r.Metrics), hostCalls, logs)
	if r.OK {
		setResult(o, "value", r.Value)
	} else if r.Error != nil {
		o.Set("error", errorObject(r.Error))
	}
	return o
}

// jsMakers build the objects returned most often in one call each, not
// one call per property.
type jsMakers struct{ result, metrics js.Value }

var (
	makersOnce sync.Once
	makersVal  jsMakers
)

func makers() *jsMakers {
	makersOnce.Do(func() {
		m := jsGlobal.Get("Function").New(`return {
  result: (ok, gasUsed, durationMs, metrics, hostCalls, logs) => ok
    ? { ok, value: undefined, gasUsed, durationMs, metrics, hostCalls: hostCalls ?? [], logs: logs ?? [] }
    : { ok, error: undefined, gasUsed, durationMs, metrics, hostCalls: hostCalls ?? [], logs: logs ?? [] },
  metrics: (executions, gasUsed, lastGasUsed, hostCalls, failedGrows, memoryBytes, peakMemoryBytes, totalDurationMs) =>
    ({ executions, gasUsed, lastGasUsed, hostCalls, failedGrows, memoryBytes, peakMemoryBytes, totalDurationMs }),
};`).Invoke()
		makersVal = jsMakers{result: m.Get("result"), metrics: m.Get("metrics")}
	})
	return &makersVal
}

func metricsObject(m modsandbox.Metrics) js.Value {
	return makers().metrics.Invoke(float64(m.Executions), float64(m.GasUsed), float64(m.LastGasUsed),
		float64(m.HostCalls), float64(m.FailedGrows), float64(m.MemoryBytes), float64(m.PeakMemoryBytes),
		float64(m.TotalDuration)/float64(time.Millisecond))
}

// hostCallsToJS converts a host-call log, giving each input and output
// its JavaScript form (an i64 as a BigInt).
func hostCallsToJS(calls []modsandbox.HostCall, cfg *modsandbox.Config) []any {
	out := make([]any, len(calls))
	if cfg == nil {
		cfg = &modsandbox.Config{}
	}
	for k, c := range calls {
		params, results, _ := cfg.Signature(c.Name)
		o := object(
			"seq", c.Seq,
			"name", c.Name,
			"inputs", valuesToJS(params, c.Inputs),
			"outputs", valuesToJS(results, c.Outputs),
			"gasAtCall", float64(c.GasAtCall),
			"capability", c.Capability,
			"granted", c.Granted,
			"detail", c.Detail,
		)
		if c.Error != "" {
			o.Set("error", c.Error)
		}
		out[k] = o
	}
	return out
}

func valuesToJS(types []wasm.ValueType, raw []uint64) js.Value {
	out := jsArray.New(len(raw))
	for k, x := range raw {
		t := wasm.I64
		if k < len(types) {
			t = types[k]
		}
		setValue(out, k, t, x)
	}
	return out
}

// setValue sets o[key] to raw bits of type t as JavaScript sees them.
func setValue(o js.Value, key any, t wasm.ValueType, x uint64) {
	switch t {
	case wasm.I32:
		set(o, key, int32(uint32(x)))
	case wasm.I64:
		set(o, key, i64ToBig(int64(x)))
	case wasm.F32:
		setNumber(o, key, float64(math.Float32frombits(uint32(x))))
	default:
		setNumber(o, key, math.Float64frombits(x))
	}
}

// destroy(id) is idempotent.
func (w *wsRuntime) destroy(args []js.Value) any {
	v := arg(args, 0)
	if v.Type() != js.TypeString {
		return w.jsErr(wsErrorf(modsandbox.CodeInvalidArgument, "destroy: the instance must be one made by create()"))
	}
	w.mu.Lock()
	in := w.instances[v.String()]
	delete(w.instances, v.String())
	delete(w.sync, v.String())
	w.mu.Unlock()
	if in != nil {
		in.Destroy()
	}
	return nil
}

// snapshot(id) → Uint8Array.
func (w *wsRuntime) snapshot(args []js.Value) any {
	in, err := w.lookup(args)
	if err != nil {
		return w.jsErr(err)
	}
	b, err := in.Snapshot()
	if err != nil {
		return w.jsErr(err)
	}
	return bytesToJS(b)
}

// restore(id, bytes) → Promise<undefined>.
func (w *wsRuntime) restore(args []js.Value) any {
	in, err := w.lookup(args)
	if err != nil {
		return jsPromise.Call("reject", w.jsErr(err))
	}
	snap, err := bytesArg("restore: the snapshot", arg(args, 1))
	if err != nil {
		return jsPromise.Call("reject", w.jsErr(&modsandbox.Error{Code: modsandbox.CodeSnapshotError, Check: "length", Message: err.Error()}))
	}
	return w.promise(func() (any, error) { return nil, in.Restore(context.Background(), snap) })
}

func (w *wsRuntime) suspend(args []js.Value) any {
	in, err := w.lookup(args)
	if err == nil {
		err = in.Suspend()
	}
	if err != nil {
		return w.jsErr(err)
	}
	return nil
}

func (w *wsRuntime) resume(args []js.Value) any {
	in, err := w.lookup(args)
	if err != nil {
		return jsPromise.Call("reject", w.jsErr(err))
	}
	return w.promise(func() (any, error) { return nil, in.Resume(context.Background()) })
}

// status(id) → the status; "destroyed" for an instance no longer known.
func (w *wsRuntime) status(args []js.Value) any {
	in, err := w.lookup(args)
	if err != nil {
		return string(modsandbox.StatusDestroyed)
	}
	return string(in.Status())
}

func (w *wsRuntime) metrics(args []js.Value) any {
	in, err := w.lookup(args)
	if err != nil {
		return w.jsErr(err)
	}
	return metricsObject(in.Metrics())
}

func (w *wsRuntime) hostCallLog(args []js.Value) any {
	in, err := w.lookup(args)
	if err != nil {
		return w.jsErr(err)
	}
	cfg := in.Config()
	return hostCallsToJS(in.HostCallLog(), &cfg)
}

// instancesArg reads an array of instance ids; unknown ones (destroyed)
// are left out.
func (w *wsRuntime) instancesArg(v js.Value) ([]*modsandbox.Instance, error) {
	if !jsArray.Call("isArray", v).Bool() {
		return nil, wsErrorf(modsandbox.CodeInvalidArgument, "the instances must be an array")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*modsandbox.Instance
	for k := range v.Length() {
		if in := w.instances[jsString(v.Index(k))]; in != nil {
			out = append(out, in)
		}
	}
	return out, nil
}

// memoryPressure(ids, availableBytes) → level.
func (w *wsRuntime) memoryPressure(args []js.Value) any {
	ins, err := w.instancesArg(arg(args, 0))
	if err != nil {
		return w.jsErr(err)
	}
	avail := arg(args, 1)
	if avail.Type() != js.TypeNumber || avail.Float() < 0 {
		return w.jsErr(wsErrorf(modsandbox.CodeInvalidArgument, "getMemoryPressure: availableBytes must be a non-negative number"))
	}
	return string(modsandbox.GetMemoryPressure(ins, uint64(avail.Float())))
}

// advise(level, ids, foregroundId) → {level, action, targets}.
func (w *wsRuntime) advise(args []js.Value) any {
	ins, err := w.instancesArg(arg(args, 1))
	if err != nil {
		return w.jsErr(err)
	}
	level := modsandbox.PressureLevel(jsString(arg(args, 0)))
	switch level {
	case modsandbox.PressureNormal, modsandbox.PressureWarning, modsandbox.PressurePressure,
		modsandbox.PressureCritical, modsandbox.PressureOOM:
	default:
		return w.jsErr(wsErrorf(modsandbox.CodeInvalidArgument, "advise: unknown level %q (NORMAL, WARNING, PRESSURE, CRITICAL or OOM)", level))
	}
	fg := ""
	if f := arg(args, 2); f.Type() == js.TypeString {
		fg = f.String()
	}
	adv := modsandbox.Advise(level, ins, fg)
	return object("level", string(adv.Level), "action", string(adv.Action), "targets", stringsToJS(adv.Targets))
}

// presets() → {minimal, standard, generous}: each {maxGas,
// maxMemoryBytes, maxExecutionMs}.
func (w *wsRuntime) presets(args []js.Value) any {
	out := jsObject.New()
	for _, name := range []string{modsandbox.PresetMinimal, modsandbox.PresetStandard, modsandbox.PresetGenerous} {
		c, _ := modsandbox.Preset(name)
		out.Set(name, object(
			"maxGas", float64(c.MaxGas),
			"maxMemoryBytes", float64(c.MaxMemoryBytes),
			"maxExecutionMs", float64(c.MaxExecutionMs),
		))
	}
	return out
}

// validateDeterminism(bytes, action, payload, config) → Promise of
// {deterministic, differences, runs, stateHashes}.
func (w *wsRuntime) validateDeterminism(args []js.Value) any {
	reject := func(err error) any { return jsPromise.Call("reject", w.jsErr(err)) }
	bin, err := bytesArg("validateDeterminism: the module", arg(args, 0))
	if err != nil {
		return reject(wsErrorf(modsandbox.CodeInvalidModule, "%v", err))
	}
	action := arg(args, 1)
	if action.Type() != js.TypeString {
		return reject(wsErrorf(modsandbox.CodeInvalidArgument, "validateDeterminism: the action must be a string"))
	}
	payload, err := payloadFromJS(arg(args, 2))
	if err != nil {
		return reject(err)
	}
	cfg, err := parseWSConfig(arg(args, 3))
	if err != nil {
		return reject(err)
	}
	name := action.String()
	return w.promise(func() (any, error) {
		rep, err := w.rt.ValidateDeterminism(context.Background(), bin, name, payload, cfg)
		if err != nil {
			return nil, err
		}
		diffs := stringsToJS(rep.Differences)
		runs := make([]any, 2)
		hashes := make([]any, 2)
		for k := range rep.Runs {
			runs[k] = execResultObject(&rep.Runs[k], &cfg)
			hashes[k] = hex.EncodeToString(rep.StateHashes[k][:])
		}
		return object("deterministic", rep.Deterministic, "differences", diffs, "runs", runs, "stateHashes", hashes), nil
	})
}
