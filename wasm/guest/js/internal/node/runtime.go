package node

import (
	"bufio"
	"container/heap"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// runtime is one script's JavaScript world.
type runtime struct {
	vm     *goja.Runtime
	env    *tool.Env
	out    *bufio.Writer
	stderr io.Writer
	argv   []string

	// capture, when set (runCode), receives console output instead.
	capture *capture

	process *goja.Object
	modules map[string]*goja.Object // resolved file → module object
	builtin map[string]goja.Value   // loaded built-in modules

	timers    timerHeap
	timerSeq  int64
	timerByID map[int64]*timer
	immediate []*timer
	unhandled []*goja.Promise // rejections with no handler yet

	stdinUsed bool
	code      int
	codeSet   bool
	exiting   bool
	tmpSeq    int
}

func newRuntime(env *tool.Env, out *bufio.Writer, c *capture) *runtime {
	vm := goja.New()
	// Math.random from the process's random source, not the runtime's
	// (seeded once for every process of a pre-initialised module).
	vm.SetRandSource(rand.New(rand.NewPCG(tool.Seed(), tool.Seed())).Float64)
	vm.SetFieldNameMapper(goja.TagFieldNameMapper("json", true))
	rt := &runtime{
		vm: vm, env: env, out: out, stderr: env.Stderr, capture: c,
		modules: map[string]*goja.Object{}, builtin: map[string]goja.Value{},
		timerByID: map[int64]*timer{},
	}
	vm.SetPromiseRejectionTracker(func(p *goja.Promise, op goja.PromiseRejectionOperation) {
		switch op {
		case goja.PromiseRejectionReject:
			rt.unhandled = append(rt.unhandled, p)
		case goja.PromiseRejectionHandle:
			for i, q := range rt.unhandled {
				if q == p {
					rt.unhandled = append(rt.unhandled[:i], rt.unhandled[i+1:]...)
					break
				}
			}
		}
	})
	return rt
}

// throw raises a JavaScript error of the given constructor.
func (rt *runtime) throw(ctor, msg string) {
	c, _ := goja.AssertConstructor(rt.vm.Get(ctor))
	o, err := c(nil, rt.vm.ToValue(msg))
	if err != nil {
		panic(rt.vm.NewTypeError(msg))
	}
	panic(o)
}

// throwCode raises an Error with a Node-style code property.
func (rt *runtime) throwCode(ctor, code, msg string) {
	c, _ := goja.AssertConstructor(rt.vm.Get(ctor))
	o, _ := c(nil, rt.vm.ToValue(msg))
	o.Set("code", code)
	panic(o)
}

func (rt *runtime) flush() {
	if rt.out != nil {
		rt.out.Flush()
	}
}

// writeOut and writeErr are the ends of console and process.stdout.
func (rt *runtime) writeOut(s string) {
	if rt.capture != nil {
		rt.capture.write(1, s)
		return
	}
	rt.out.WriteString(s)
}

func (rt *runtime) writeErr(s string) {
	if rt.capture != nil {
		rt.capture.write(2, s)
		return
	}
	rt.flush()
	io.WriteString(rt.stderr, s)
}

func (rt *runtime) exitCode() int {
	if rt.codeSet {
		return rt.code
	}
	v := rt.process.Get("exitCode")
	if v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
		return int(v.ToInteger())
	}
	return 0
}

func (rt *runtime) exitCodeSet(c int) { rt.code, rt.codeSet = c, true }

// setup installs the globals.
func (rt *runtime) setup() {
	vm := rt.vm
	g := vm.GlobalObject()
	g.Set("global", g)
	rt.setupHost()
	rt.setupConsole()
	rt.setupProcess()
	rt.setupTimers()
	g.Set("require", rt.makeRequire(mustGetwd()))
	if _, err := vm.RunProgram(preludeProgram); err != nil {
		panic(fmt.Sprintf("node: prelude: %v", err))
	}
	prelude := vm.Get("__wasmsand").ToObject(vm)
	g.Delete("__wasmsand")
	rt.builtin["__prelude"] = prelude
	g.Set("Buffer", prelude.Get("Buffer"))
	g.Set("TextEncoder", prelude.Get("TextEncoder"))
	g.Set("TextDecoder", prelude.Get("TextDecoder"))
	g.Set("structuredClone", prelude.Get("structuredClone"))
	g.Set("atob", prelude.Get("atob"))
	g.Set("btoa", prelude.Get("btoa"))
	g.Set("URL", prelude.Get("URL"))
	g.Set("URLSearchParams", prelude.Get("URLSearchParams"))
	for _, name := range []string{"fetch", "Headers", "Request", "Response", "AbortController", "AbortSignal"} {
		g.Set(name, prelude.Get(name))
	}
	cr := rt.cryptoModule()
	rt.builtin["crypto"] = cr
	rt.process.Set("stdin", prelude.Get("stdin"))
	// process is an EventEmitter (on('exit'), on('uncaughtException')).
	if f, ok := goja.AssertFunction(prelude.Get("makeEmitter")); ok {
		f(goja.Undefined(), rt.process)
	}
}

func mustGetwd() string {
	d, err := os.Getwd()
	if err != nil {
		return "/"
	}
	return d
}

func (rt *runtime) prelude(name string) goja.Value {
	return rt.builtin["__prelude"].(*goja.Object).Get(name)
}

// newError makes an Error of the given constructor.
func (rt *runtime) newError(ctor, msg string) *goja.Object {
	c, _ := goja.AssertConstructor(rt.vm.Get(ctor))
	o, err := c(nil, rt.vm.ToValue(msg))
	if err != nil {
		return rt.vm.NewGoError(fmt.Errorf("%s", msg))
	}
	return o
}

// isError reports whether o is an Error (by its prototype chain).
func (rt *runtime) isError(o *goja.Object) bool {
	ctor := rt.vm.Get("Error").ToObject(rt.vm)
	return rt.vm.InstanceOf(o, ctor)
}

// emitExit emits process 'exit' once.
func (rt *runtime) emitExit() {
	if rt.exiting {
		return
	}
	rt.exiting = true
	if emit, ok := goja.AssertFunction(rt.process.Get("emit")); ok {
		emit(rt.process, rt.vm.ToValue("exit"), rt.vm.ToValue(rt.exitCode()))
	}
}

// emitUncaught hands an uncaught exception to process.on('uncaughtException')
// listeners; it reports whether there were any.
func (rt *runtime) emitUncaught(v goja.Value) bool {
	lc, ok := goja.AssertFunction(rt.process.Get("listenerCount"))
	if !ok {
		return false
	}
	n, err := lc(rt.process, rt.vm.ToValue("uncaughtException"))
	if err != nil || n.ToInteger() == 0 {
		return false
	}
	emit, _ := goja.AssertFunction(rt.process.Get("emit"))
	if _, err := emit(rt.process, rt.vm.ToValue("uncaughtException"), v); err != nil {
		return false
	}
	return true
}

// Timers run on the sandbox clock: time.Now and time.Sleep of the guest.

type timer struct {
	id       int64
	when     time.Time
	seq      int64
	fn       goja.Callable
	args     []goja.Value
	interval time.Duration
	repeat   bool
	index    int
	obj      *goja.Object
	cleared  bool
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].when.Equal(h[j].when) {
		return h[i].when.Before(h[j].when)
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i]; h[i].index = i; h[j].index = j }
func (h *timerHeap) Push(x any)   { t := x.(*timer); t.index = len(*h); *h = append(*h, t) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	t.index = -1
	return t
}
func (h timerHeap) peek() *timer { return h[0] }
func (h timerHeap) empty() bool  { return len(h) == 0 }
func (rt *runtime) pendingTimers() bool {
	return !rt.timers.empty() || len(rt.immediate) > 0
}

func (rt *runtime) setupTimers() {
	vm := rt.vm
	g := vm.GlobalObject()
	add := func(repeat bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			fn, ok := goja.AssertFunction(call.Argument(0))
			if !ok {
				rt.throwCode("TypeError", "ERR_INVALID_ARG_TYPE", fmt.Sprintf(`The "callback" argument must be of type function. Received %s`, rt.inspect(call.Argument(0), inspectOpts{depth: 0})))
			}
			ms := call.Argument(1).ToFloat()
			if !(ms >= 1) || ms > 2147483647 {
				ms = 1
			}
			var args []goja.Value
			if len(call.Arguments) > 2 {
				args = append(args, call.Arguments[2:]...)
			}
			rt.timerSeq++
			d := time.Duration(ms * float64(time.Millisecond))
			t := &timer{id: rt.timerSeq, seq: rt.timerSeq, when: time.Now().Add(d), fn: fn, args: args, interval: d, repeat: repeat}
			t.obj = rt.timerObject(t, "Timeout")
			heap.Push(&rt.timers, t)
			rt.timerByID[t.id] = t
			return t.obj
		}
	}
	clear := func(call goja.FunctionCall) goja.Value {
		v := call.Argument(0)
		var id int64
		if o, ok := v.(*goja.Object); ok {
			id = o.Get("_id").ToInteger()
		} else if !goja.IsUndefined(v) && !goja.IsNull(v) {
			id = v.ToInteger()
		}
		if t := rt.timerByID[id]; t != nil {
			t.cleared = true
			delete(rt.timerByID, id)
			if t.index >= 0 && t.index < len(rt.timers) && rt.timers[t.index] == t {
				heap.Remove(&rt.timers, t.index)
			}
		}
		return goja.Undefined()
	}
	g.Set("setTimeout", add(false))
	g.Set("setInterval", add(true))
	g.Set("clearTimeout", clear)
	g.Set("clearInterval", clear)
	g.Set("setImmediate", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			rt.throwCode("TypeError", "ERR_INVALID_ARG_TYPE", `The "callback" argument must be of type function`)
		}
		rt.timerSeq++
		t := &timer{id: rt.timerSeq, fn: fn, args: append([]goja.Value(nil), call.Arguments[min(1, len(call.Arguments)):]...), index: -1}
		t.obj = rt.timerObject(t, "Immediate")
		rt.immediate = append(rt.immediate, t)
		rt.timerByID[t.id] = t
		return t.obj
	})
	g.Set("clearImmediate", clear)
	g.Set("queueMicrotask", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			rt.throwCode("TypeError", "ERR_INVALID_ARG_TYPE", `The "callback" argument must be of type function`)
		}
		rt.microtask(fn, nil)
		return goja.Undefined()
	})
}

// microtask queues fn on the promise job queue.
func (rt *runtime) microtask(fn goja.Callable, args []goja.Value) {
	p, resolve, _ := rt.vm.NewPromise()
	resolve(goja.Undefined())
	then, _ := goja.AssertFunction(rt.vm.ToValue(p).ToObject(rt.vm).Get("then"))
	then(rt.vm.ToValue(p), rt.vm.ToValue(func(goja.FunctionCall) goja.Value {
		if _, err := fn(goja.Undefined(), args...); err != nil {
			panic(err)
		}
		return goja.Undefined()
	}))
}

func (rt *runtime) timerObject(t *timer, kind string) *goja.Object {
	o := rt.vm.NewObject()
	o.Set("_id", t.id)
	self := o
	o.Set("ref", func(goja.FunctionCall) goja.Value { return self })
	o.Set("unref", func(goja.FunctionCall) goja.Value { return self })
	o.Set("hasRef", func(goja.FunctionCall) goja.Value { return rt.vm.ToValue(true) })
	o.Set("refresh", func(goja.FunctionCall) goja.Value { return self })
	o.SetSymbol(goja.SymToPrimitive, func(goja.FunctionCall) goja.Value { return rt.vm.ToValue(t.id) })
	o.Set("__kind", kind)
	for _, k := range []string{"ref", "unref", "hasRef", "refresh", "_id", "__kind"} {
		o.DefineDataProperty(k, o.Get(k), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	}
	return o
}

// loop runs timers and immediates until none are left, reporting an
// unhandled rejection as an uncaught error.
func (rt *runtime) loop() error {
	for {
		if err := rt.checkRejections(); err != nil {
			return err
		}
		more, err := rt.step(true)
		if err != nil || !more {
			return err
		}
	}
}

// step runs the pending immediates, or else the next timer (sleeping until
// it is due). It reports false when nothing was left to run.
func (rt *runtime) step(checkRejections bool) (bool, error) {
	if len(rt.immediate) > 0 {
		batch := rt.immediate
		rt.immediate = nil
		for _, t := range batch {
			if t.cleared {
				continue
			}
			delete(rt.timerByID, t.id)
			if _, err := t.fn(goja.Undefined(), t.args...); err != nil {
				return true, err
			}
			if checkRejections {
				if err := rt.checkRejections(); err != nil {
					return true, err
				}
			}
		}
		return true, nil
	}
	if rt.timers.empty() {
		return false, nil
	}
	t := rt.timers.peek()
	if d := time.Until(t.when); d > 0 {
		rt.flush()
		time.Sleep(d)
	}
	heap.Pop(&rt.timers)
	if t.repeat {
		t.seq = rt.nextSeq()
		t.when = t.when.Add(t.interval)
		if now := time.Now(); t.when.Before(now) {
			t.when = now
		}
		heap.Push(&rt.timers, t)
	} else {
		delete(rt.timerByID, t.id)
	}
	_, err := t.fn(goja.Undefined(), t.args...)
	return true, err
}

func (rt *runtime) nextSeq() int64 { rt.timerSeq++; return rt.timerSeq }

// checkRejections turns a rejection nobody handled into an uncaught error.
func (rt *runtime) checkRejections() error {
	if len(rt.unhandled) == 0 {
		return nil
	}
	p := rt.unhandled[0]
	rt.unhandled = rt.unhandled[1:]
	v := p.Result()
	if lc, ok := goja.AssertFunction(rt.process.Get("listenerCount")); ok {
		if n, err := lc(rt.process, rt.vm.ToValue("unhandledRejection")); err == nil && n.ToInteger() > 0 {
			emit, _ := goja.AssertFunction(rt.process.Get("emit"))
			_, err := emit(rt.process, rt.vm.ToValue("unhandledRejection"), v, rt.vm.ToValue(p))
			return err
		}
	}
	if o, ok := v.(*goja.Object); ok && rt.isError(o) {
		return &thrown{v}
	}
	return &scriptError{fmt.Sprintf("node:internal/process/promises\n    triggerUncaughtException(err, true /* fromPromise */);\n    ^\n\n[UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason \"%s\".] {\n  code: 'ERR_UNHANDLED_REJECTION'\n}", rt.inspect(v, inspectOpts{depth: 2}))}
}

// thrown is a JavaScript value thrown (or rejected) and never caught.
type thrown struct{ v goja.Value }

func (t *thrown) Error() string { return t.v.String() }

// Modules.

// builtinNames are the modules require() knows, with or without "node:".
var builtinNames = map[string]bool{
	"fs": true, "fs/promises": true, "path": true, "child_process": true, "util": true, "events": true,
	"os": true, "assert": true, "assert/strict": true, "readline": true, "buffer": true, "process": true,
	"timers": true, "timers/promises": true, "string_decoder": true, "url": true, "crypto": true,
	"console": true, "stream": false, "http": false, "https": false, "net": false, "tls": false,
	"dgram": false, "dns": false, "http2": false, "worker_threads": false, "cluster": false,
	"vm": false, "v8": false, "zlib": false, "inspector": false, "module": false, "perf_hooks": false,
	"async_hooks": false, "repl": false, "tty": false, "sqlite": false, "test": false,
}

// unsupportedReason says why a known Node module is missing.
func unsupportedReason(name string) string {
	switch name {
	case "http", "https", "net", "tls", "dgram", "dns", "http2":
		return "use fetch(), which goes through the sandbox's network allowlist"
	case "worker_threads", "cluster":
		return "the sandbox runs one single-threaded guest per process; use child_process.execSync"
	case "vm":
		return "goja has no separate contexts; use eval or new Function"
	}
	return "wasmsand's node (goja) does not provide it"
}

func (rt *runtime) makeRequire(dir string) *goja.Object {
	req := rt.vm.ToValue(func(call goja.FunctionCall) goja.Value {
		name := call.Argument(0)
		if goja.IsUndefined(name) || name.ExportType() == nil || name.ExportType().Kind().String() != "string" {
			rt.throwCode("TypeError", "ERR_INVALID_ARG_TYPE", `The "id" argument must be of type string. Received `+rt.inspect(name, inspectOpts{depth: 0}))
		}
		return rt.require(dir, name.String())
	}).ToObject(rt.vm)
	req.Set("resolve", func(call goja.FunctionCall) goja.Value {
		n := call.Argument(0).String()
		if ok, known := builtinNames[strings.TrimPrefix(n, "node:")]; ok && known {
			return rt.vm.ToValue(n)
		}
		f, err := rt.resolve(dir, n)
		if err != nil {
			rt.throwCode("Error", "MODULE_NOT_FOUND", fmt.Sprintf("Cannot find module '%s'", n))
		}
		return rt.vm.ToValue(f)
	})
	req.Set("cache", rt.vm.NewObject())
	return req
}

func (rt *runtime) require(dir, name string) goja.Value {
	bare := strings.TrimPrefix(name, "node:")
	if supported, known := builtinNames[bare]; known {
		if !supported {
			rt.throwCode("Error", "ERR_WASMSAND_UNSUPPORTED", fmt.Sprintf("require('%s'): the %s module is not available in wasmsand's node: %s", name, bare, unsupportedReason(bare)))
		}
		if v, ok := rt.builtin[bare]; ok {
			return v
		}
		v := rt.loadBuiltin(bare)
		rt.builtin[bare] = v
		return v
	}
	if strings.HasPrefix(name, "node:") {
		rt.throwCode("Error", "ERR_UNKNOWN_BUILTIN_MODULE", "No such built-in module: "+name)
	}
	file, err := rt.resolve(dir, name)
	if err != nil {
		rt.throwCode("Error", "MODULE_NOT_FOUND", fmt.Sprintf("Cannot find module '%s'", name))
	}
	if m, ok := rt.modules[file]; ok {
		return m.Get("exports")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		rt.throwCode("Error", "MODULE_NOT_FOUND", fmt.Sprintf("Cannot find module '%s'", name))
	}
	if strings.HasSuffix(file, ".json") {
		var v any
		if err := json.Unmarshal(src, &v); err != nil {
			rt.throw("SyntaxError", file+": "+err.Error())
		}
		parse, _ := goja.AssertFunction(rt.vm.Get("JSON").ToObject(rt.vm).Get("parse"))
		val, err := parse(goja.Undefined(), rt.vm.ToValue(string(src)))
		if err != nil {
			panic(err)
		}
		m := rt.vm.NewObject()
		m.Set("exports", val)
		rt.modules[file] = m
		return val
	}
	v, err := rt.loadModuleSource(file, string(src), false)
	if err != nil {
		panic(err)
	}
	return v
}

// resolve finds the file a require of name from dir means.
func (rt *runtime) resolve(dir, name string) (string, error) {
	try := func(p string) (string, bool) {
		for _, c := range []string{p, p + ".js", p + ".cjs", p + ".json"} {
			if st, err := os.Stat(c); err == nil && !st.IsDir() {
				return c, true
			}
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			if b, err := os.ReadFile(filepath.Join(p, "package.json")); err == nil {
				var pkg struct {
					Main string `json:"main"`
				}
				if json.Unmarshal(b, &pkg) == nil && pkg.Main != "" {
					if f, ok := tryFile(filepath.Join(p, pkg.Main)); ok {
						return f, true
					}
				}
			}
			for _, c := range []string{"index.js", "index.cjs", "index.json"} {
				if f := filepath.Join(p, c); fileExists(f) {
					return f, true
				}
			}
		}
		return "", false
	}
	if strings.HasPrefix(name, "./") || strings.HasPrefix(name, "../") || strings.HasPrefix(name, "/") || name == "." || name == ".." {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if f, ok := try(p); ok {
			return f, nil
		}
		return "", os.ErrNotExist
	}
	for d := dir; ; d = filepath.Dir(d) {
		if filepath.Base(d) != "node_modules" {
			if f, ok := try(filepath.Join(d, "node_modules", name)); ok {
				return f, nil
			}
		}
		if d == "/" || d == "." {
			break
		}
	}
	return "", os.ErrNotExist
}

func tryFile(p string) (string, bool) {
	for _, c := range []string{p, p + ".js", p + ".json", filepath.Join(p, "index.js")} {
		if fileExists(c) {
			return c, true
		}
	}
	return "", false
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// loadModuleSource runs src as a CommonJS module and returns its exports.
func (rt *runtime) loadModuleSource(file, src string, main bool) (goja.Value, error) {
	src = stripShebang(src)
	wrapped := "(function (exports, require, module, __filename, __dirname) {" + src + "\n})"
	prg, err := goja.Compile(file, wrapped, false)
	if err != nil {
		return nil, rt.syntaxError(err, src)
	}
	fnv, err := rt.vm.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	fn, _ := goja.AssertFunction(fnv)
	module := rt.vm.NewObject()
	exports := rt.vm.NewObject()
	module.Set("exports", exports)
	module.Set("id", ".")
	module.Set("filename", file)
	module.Set("loaded", false)
	module.Set("children", rt.vm.NewArray())
	module.Set("paths", rt.vm.NewArray())
	req := rt.makeRequire(filepath.Dir(file))
	if main {
		req.Set("main", module)
		rt.vm.GlobalObject().Set("require", req)
	} else {
		module.Set("id", file)
	}
	rt.modules[file] = module
	if _, err := fn(exports, exports, req, module, rt.vm.ToValue(file), rt.vm.ToValue(filepath.Dir(file))); err != nil {
		delete(rt.modules, file)
		return nil, err
	}
	module.Set("loaded", true)
	return module.Get("exports"), nil
}

func (rt *runtime) loadBuiltin(name string) goja.Value {
	switch name {
	case "fs":
		return rt.fsModule()
	case "fs/promises":
		return rt.require("/", "fs").ToObject(rt.vm).Get("promises")
	case "path":
		return rt.pathModule()
	case "child_process":
		return rt.childProcessModule()
	case "process":
		return rt.process
	case "console":
		return rt.vm.Get("console")
	case "os":
		return rt.osModule()
	case "crypto":
		return rt.cryptoModule()
	}
	// The rest are written in JavaScript in the prelude.
	mods := rt.prelude("modules").ToObject(rt.vm)
	f, ok := goja.AssertFunction(mods.Get(name))
	if !ok {
		rt.throwCode("Error", "ERR_WASMSAND_UNSUPPORTED", fmt.Sprintf("require('%s'): not available in wasmsand's node", name))
	}
	v, err := f(goja.Undefined(), rt.vm.ToValue(rt.requireFunc()))
	if err != nil {
		panic(err)
	}
	return v
}

func (rt *runtime) requireFunc() func(string) goja.Value {
	return func(n string) goja.Value { return rt.require("/", n) }
}
