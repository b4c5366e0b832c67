//go:build js && wasm

package jsbridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/platform/hostwasm"
	"github.com/wasmsand/wasmsand/sandbox"
)

// Register builds the JS API and hands it to the loader by calling
// host.ready(api). host.SandboxError must be the loader's error class,
// constructed as new SandboxError(code, message).
//
// api has create(options) → Promise<id>, info() → {engine, jspi, mode,
// version, goVersion} (mode is "jspi", or "sequential" when guests run one
// at a time to their end because the host lacks JSPI), and one function per Sandbox method taking the id
// first: run(id, cmd, opts) → Promise, readFile, readTextFile, writeFile,
// readDir, mkdir, stat, rm, setEnv, getEnv, destroy. Synchronous ones
// return a SandboxError instance instead of throwing (a Go callback cannot
// throw); the loader throws it.
func Register(host js.Value, version string) {
	a := &api{
		errClass:  host.Get("SandboxError"),
		version:   version,
		sandboxes: map[int]*jsSandbox{},
	}
	obj := jsObject.New()
	for name, fn := range map[string]func(args []js.Value) any{
		"create":       a.create,
		"info":         a.info,
		"run":          a.run,
		"runCode":      a.runCode,
		"snapshot":     a.snapshot,
		"restore":      a.restore,
		"fork":         a.fork,
		"save":         a.save,
		"load":         a.load,
		"list":         a.list,
		"delete":       a.deleteSaved,
		"readFile":     a.readFile,
		"readTextFile": a.readTextFile,
		"writeFile":    a.writeFile,
		"readDir":      a.readDir,
		"mkdir":        a.mkdir,
		"stat":         a.stat,
		"rm":           a.rm,
		"setEnv":       a.setEnv,
		"getEnv":       a.getEnv,
		"allowNetwork": a.allowNetwork,
		"complete":     a.complete,
		"destroy":      a.destroy,
		"mount":        a.mount,
		"unmount":      a.unmount,
		// agent tools (agenttools.go)
		"toolDefinitions": a.toolDefinitions,
		"handleToolCall":  a.handleToolCall,
	} {
		obj.Set(name, js.FuncOf(a.guard(name, fn)))
	}
	defaultStore = host.Get("defaultStore")
	registerWasmSandbox(obj, a.errClass)
	host.Call("ready", obj)
}

// api is the state behind the functions handed to JavaScript.
type api struct {
	errClass js.Value
	version  string

	mu        sync.Mutex
	sandboxes map[int]*jsSandbox
	nextID    int
}

// jsSandbox is one sandbox and the runs in flight on it.
type jsSandbox struct {
	sb    *sandbox.Sandbox
	opts  sandbox.Options
	tools *agent.Toolset // made on first use, under mu

	mu      sync.Mutex
	runs    map[*context.CancelCauseFunc]struct{}
	running int // Run calls started and not finished
}

// jsErr makes a SandboxError for err.
func (a *api) jsErr(err error) js.Value {
	e := a.errClass.New(errCode(err), err.Error())
	var se *sandbox.SnapshotError
	if errors.As(err, &se) {
		e.Set("check", se.Check)
	}
	return e
}

// guard turns a panic in fn (a bad argument type, a bug) into a returned
// SandboxError: a panic in a js.FuncOf callback would kill the core.
func (a *api) guard(name string, fn func(args []js.Value) any) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				var err error
				if e, ok := r.(*js.ValueError); ok {
					err = argErrorf("%s: wrong argument type: %v", name, e)
				} else {
					err = fmt.Errorf("%s: internal error: %v\n%s", name, r, debug.Stack())
				}
				if name == "create" || name == "run" || isAsync[name] {
					out = jsPromise.Call("reject", a.jsErr(err))
				} else {
					out = a.jsErr(err)
				}
			}
		}()
		return fn(args)
	}
}

func arg(args []js.Value, k int) js.Value {
	if k < len(args) {
		return args[k]
	}
	return js.Undefined()
}

// lookup finds the sandbox args[0] names.
func (a *api) lookup(args []js.Value) (*jsSandbox, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sandboxes[arg(args, 0).Int()]
	if s == nil {
		return nil, sandbox.ErrClosed
	}
	return s, nil
}

// goPromise runs fn on a goroutine and returns a Promise of its result.
func (a *api) goPromise(fn func() (any, error)) js.Value {
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
		var ab abortedError
		switch {
		case errors.As(err, &ab):
			d.reject.Invoke(ab.v)
		case err != nil:
			d.reject.Invoke(a.jsErr(err))
		default:
			d.resolve.Invoke(v)
		}
	}()
	return d.promise
}

func (a *api) info(args []js.Value) any {
	mode := "jspi"
	if !hostwasm.HasJSPI() {
		mode = "sequential"
	}
	return map[string]any{
		"engine":    "js",
		"jspi":      hostwasm.HasJSPI(),
		"mode":      mode,
		"version":   a.version,
		"goVersion": runtime.Version(),
	}
}

// create(options) → Promise<id>.
func (a *api) create(args []js.Value) any {
	opts, err := parseOptions(arg(args, 0))
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	return a.goPromise(func() (any, error) {
		sb, err := sandbox.New(context.Background(), opts)
		if err != nil {
			return nil, err
		}
		return a.add(sb, opts), nil
	})
}

// parseOptions reads Sandbox.create's options object.
func parseOptions(o js.Value) (sandbox.Options, error) {
	opts := sandbox.Options{Platform: hostwasm.Platform}
	if o.IsUndefined() || o.IsNull() {
		o = jsObject.New()
	}
	if o.Type() != js.TypeObject {
		return opts, argErrorf("Sandbox.create: options must be an object")
	}
	var err error
	num := func(name string) float64 {
		v := o.Get(name)
		if v.IsUndefined() || v.IsNull() || err != nil {
			return 0
		}
		if v.Type() != js.TypeNumber || v.Float() < 0 {
			err = argErrorf("Sandbox.create: options.%s must be a non-negative number", name)
			return 0
		}
		return v.Float()
	}
	opts.Timeout = time.Duration(num("timeoutMs") * float64(time.Millisecond))
	opts.MemoryLimit = int64(num("memoryLimitBytes"))
	opts.FSLimit = int64(num("fsLimitBytes"))
	opts.MaxProcesses = int(num("maxProcesses"))
	opts.Fuel = int64(num("fuel"))
	opts.OutputLimit = int64(num("outputLimitBytes"))
	opts.Seed = int64(num("seed"))
	if c := o.Get("clock"); !c.IsUndefined() && !c.IsNull() {
		ms := num("clock")
		t := time.UnixMilli(int64(ms)).UTC()
		opts.Clock = func() time.Time { return t }
	}
	if err != nil {
		return opts, err
	}
	if opts.Env, err = parseEnv("Sandbox.create: options.env", o.Get("env")); err != nil {
		return opts, err
	}
	if c := o.Get("cwd"); !c.IsUndefined() {
		if c.Type() != js.TypeString {
			return opts, argErrorf("Sandbox.create: options.cwd must be a string")
		}
		opts.Cwd = c.String()
	}
	if opts.Network, err = parseNetwork(o.Get("network")); err != nil {
		return opts, err
	}
	if err := parseStoreOptions(o, &opts); err != nil {
		return opts, err
	}
	if t := o.Get("tools"); !t.IsUndefined() && !t.IsNull() {
		if t.Type() != js.TypeObject {
			return opts, argErrorf("Sandbox.create: options.tools must map file names to Uint8Array (or to functions that load one)")
		}
		tfs, bad := hostwasm.ToolsFS(t)
		if bad != "" {
			return opts, argErrorf("Sandbox.create: options.tools[%q] must be a Uint8Array, ArrayBuffer or a function returning a Promise of one, under a plain file name", bad)
		}
		opts.Tools = tfs
	}
	if opts.Mounts, err = parseMounts(o.Get("mounts")); err != nil {
		return opts, err
	}
	if s := o.Get("moduleStore"); !s.IsUndefined() && !s.IsNull() {
		if s.Type() != js.TypeObject || s.Get("load").Type() != js.TypeFunction || s.Get("store").Type() != js.TypeFunction {
			return opts, argErrorf("Sandbox.create: options.moduleStore must be an object with load(raw, variant) and store(raw, variant, bytes)")
		}
		opts.ModuleStore = hostwasm.ModuleStore(s)
	}
	return opts, nil
}

// parseEnv reads {KEY: value} or ["KEY=value"] as KEY=value pairs.
func parseEnv(what string, v js.Value) ([]string, error) {
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if v.Type() != js.TypeObject {
		return nil, argErrorf("%s must be an object of strings", what)
	}
	if jsArray.Call("isArray", v).Bool() {
		out := make([]string, v.Length())
		for k := range out {
			e := v.Index(k)
			if e.Type() != js.TypeString || !strings.Contains(e.String(), "=") {
				return nil, argErrorf("%s[%d] must be a KEY=value string", what, k)
			}
			out[k] = e.String()
		}
		return out, nil
	}
	keys := jsObject.Call("keys", v)
	out := make([]string, keys.Length())
	for k := range out {
		key := keys.Index(k).String()
		val := v.Get(key)
		if val.Type() != js.TypeString && val.Type() != js.TypeNumber {
			return nil, argErrorf("%s.%s must be a string", what, key)
		}
		out[k] = key + "=" + jsString(val)
	}
	return out, nil
}

// bytesArg reads a string, Uint8Array or ArrayBuffer.
func bytesArg(what string, v js.Value) ([]byte, error) {
	switch {
	case v.Type() == js.TypeString:
		return []byte(v.String()), nil
	case v.InstanceOf(jsUint8Array):
	case v.InstanceOf(jsArrayBuffer):
		v = jsUint8Array.New(v)
	default:
		return nil, argErrorf("%s must be a string, Uint8Array or ArrayBuffer", what)
	}
	b := make([]byte, v.Length())
	js.CopyBytesToGo(b, v)
	return b, nil
}

// run(id, cmd, {stdin, env, cwd, onStdout, onStderr, signal}) → Promise of
// the result. An aborted run rejects with code ABORTED; the partial result
// is the error's result property.
func (a *api) run(args []js.Value) any {
	s, err := a.lookup(args)
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	cmd := arg(args, 1)
	if cmd.Type() != js.TypeString {
		return jsPromise.Call("reject", a.jsErr(argErrorf("run: the command must be a string")))
	}
	o := arg(args, 2)
	var ropts []sandbox.RunOption
	var outW, errW *jsWriter
	signal := js.Undefined()
	if !o.IsUndefined() && !o.IsNull() {
		if o.Type() != js.TypeObject {
			return jsPromise.Call("reject", a.jsErr(argErrorf("run: options must be an object")))
		}
		if v := o.Get("stdin"); !v.IsUndefined() && !v.IsNull() {
			b, err := bytesArg("run: options.stdin", v)
			if err != nil {
				return jsPromise.Call("reject", a.jsErr(err))
			}
			ropts = append(ropts, sandbox.WithStdin(bytes.NewReader(b)))
		}
		env, err := parseEnv("run: options.env", o.Get("env"))
		if err != nil {
			return jsPromise.Call("reject", a.jsErr(err))
		}
		if len(env) > 0 {
			ropts = append(ropts, sandbox.WithEnv(env...))
		}
		if v := o.Get("cwd"); !v.IsUndefined() {
			if v.Type() != js.TypeString {
				return jsPromise.Call("reject", a.jsErr(argErrorf("run: options.cwd must be a string")))
			}
			ropts = append(ropts, sandbox.WithCwd(v.String()))
		}
		for _, w := range []struct {
			name string
			dst  **jsWriter
			opt  func(w *jsWriter) sandbox.RunOption
		}{
			{"onStdout", &outW, func(w *jsWriter) sandbox.RunOption { return sandbox.WithStdout(w) }},
			{"onStderr", &errW, func(w *jsWriter) sandbox.RunOption { return sandbox.WithStderr(w) }},
		} {
			v := o.Get(w.name)
			if v.IsUndefined() || v.IsNull() {
				continue
			}
			if v.Type() != js.TypeFunction {
				return jsPromise.Call("reject", a.jsErr(argErrorf("run: options.%s must be a function", w.name)))
			}
			*w.dst = &jsWriter{fn: v}
			ropts = append(ropts, w.opt(*w.dst))
		}
		signal = o.Get("signal")
		if !signal.IsUndefined() && !signal.IsNull() && signal.Get("aborted").Truthy() {
			return jsPromise.Call("reject", a.jsErr(errAborted))
		}
	}

	ctx, cancel := context.WithCancelCause(context.Background())
	s.mu.Lock()
	s.runs[&cancel] = struct{}{}
	s.running++
	s.mu.Unlock()
	var onAbort js.Func
	if signal.Type() == js.TypeObject {
		onAbort = js.FuncOf(func(js.Value, []js.Value) any {
			cancel(errAborted)
			return nil
		})
		signal.Call("addEventListener", "abort", onAbort)
	}
	return a.goPromise(func() (any, error) {
		defer func() {
			s.mu.Lock()
			delete(s.runs, &cancel)
			s.running--
			s.mu.Unlock()
			if signal.Type() == js.TypeObject {
				signal.Call("removeEventListener", "abort", onAbort)
				onAbort.Release()
			}
			cancel(nil)
		}()
		res, err := s.sb.Run(ctx, cmd.String(), ropts...)
		if err != nil && res != nil {
			// The command ran but saving it (persist) failed: the
			// error carries the result, as ABORTED does.
			outW.flush()
			errW.flush()
			e := a.jsErr(err)
			e.Set("result", resultObject(res))
			return nil, abortedError{e}
		}
		if err != nil {
			return nil, err
		}
		outW.flush()
		errW.flush()
		r := resultObject(res)
		if errors.Is(context.Cause(ctx), errAborted) {
			e := a.jsErr(errAborted)
			e.Set("result", r)
			return nil, abortedError{e}
		}
		return r, nil
	})
}

// abortedError carries a ready SandboxError through goPromise.
type abortedError struct{ v js.Value }

func (e abortedError) Error() string { return errAborted.Error() }
func (e abortedError) Unwrap() error { return errAborted }

func resultObject(res *sandbox.RunResult) js.Value {
	m := res.Metrics
	return js.ValueOf(map[string]any{
		"exitCode":        res.ExitCode,
		"stdout":          string(res.Stdout),
		"stderr":          string(res.Stderr),
		"stdoutTruncated": res.StdoutTruncated,
		"stderrTruncated": res.StderrTruncated,
		"executionTimeMs": float64(res.ExecutionTime) / float64(time.Millisecond),
		"metrics": map[string]any{
			"fuelUsed":        float64(m.FuelUsed),
			"peakMemoryBytes": float64(m.PeakMemoryBytes),
			"processes":       m.Processes,
			"timedOut":        m.TimedOut,
		},
	})
}

// jsWriter streams output to a JavaScript callback as strings, holding
// back an incomplete UTF-8 sequence at the end of a write until the next.
type jsWriter struct {
	fn    js.Value
	carry []byte
}

func (w *jsWriter) Write(p []byte) (int, error) {
	b := p
	if len(w.carry) > 0 {
		b = append(w.carry, p...)
	}
	cut := len(b) - incompleteTail(b)
	if cut > 0 {
		w.call(string(b[:cut]))
	}
	w.carry = append(w.carry[:0:0], b[cut:]...)
	return len(p), nil
}

// flush delivers what is held back; w may be nil.
func (w *jsWriter) flush() {
	if w != nil && len(w.carry) > 0 {
		w.call(string(w.carry))
		w.carry = nil
	}
}

// call queues the callback: it runs from a microtask, never inside a
// guest's host call (see hostcall.go), and what it throws is ignored, as
// a failing listener must not break the command.
func (w *jsWriter) call(s string) {
	hostwasm.Deliver(w.fn, s)
}

// sync runs fn on a sandbox for a synchronous method.
func (a *api) sync(args []js.Value, fn func(s *jsSandbox) (any, error)) any {
	s, err := a.lookup(args)
	if err == nil {
		var v any
		if v, err = fn(s); err == nil {
			return v
		}
	}
	return a.jsErr(err)
}

func pathArg(args []js.Value, k int) (string, error) {
	v := arg(args, k)
	if v.Type() != js.TypeString {
		return "", argErrorf("the path must be a string")
	}
	return v.String(), nil
}

func (a *api) readFile(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		p, err := pathArg(args, 1)
		if err != nil {
			return nil, err
		}
		b, err := s.sb.ReadFile(p)
		if err != nil {
			return nil, err
		}
		return bytesToJS(b), nil
	})
}

func (a *api) readTextFile(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		p, err := pathArg(args, 1)
		if err != nil {
			return nil, err
		}
		b, err := s.sb.ReadFile(p)
		if err != nil {
			return nil, err
		}
		return string(b), nil
	})
}

func (a *api) writeFile(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		p, err := pathArg(args, 1)
		if err != nil {
			return nil, err
		}
		b, err := bytesArg("writeFile: data", arg(args, 2))
		if err != nil {
			return nil, err
		}
		perm := fs.FileMode(0o644)
		if o := arg(args, 3); o.Type() == js.TypeObject {
			if m := o.Get("mode"); !m.IsUndefined() {
				if m.Type() != js.TypeNumber || m.Int() < 0 || m.Int() > 0o7777 {
					return nil, argErrorf("writeFile: options.mode must be a permission number such as 0o755")
				}
				perm = fs.FileMode(m.Int())
			}
		}
		return nil, s.sb.WriteFile(p, b, perm)
	})
}

func (a *api) mkdir(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		p, err := pathArg(args, 1)
		if err != nil {
			return nil, err
		}
		return nil, s.sb.Mkdir(p, 0o755)
	})
}

func (a *api) rm(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		p, err := pathArg(args, 1)
		if err != nil {
			return nil, err
		}
		o := arg(args, 2)
		recursive := o.Type() == js.TypeObject && o.Get("recursive").Truthy()
		return nil, s.sb.Rm(p, recursive)
	})
}

// fileType names a file mode's type for stat and readDir.
func fileType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "file"
}

func (a *api) stat(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		p, err := pathArg(args, 1)
		if err != nil {
			return nil, err
		}
		st, err := s.sb.Stat(p)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"name":    st.Name(),
			"type":    fileType(st.Mode()),
			"size":    float64(st.Size()),
			"mode":    int(st.Mode().Perm()),
			"mtimeMs": float64(st.ModTime().UnixNano()) / 1e6,
			"isFile":  st.Mode().IsRegular(),
			"isDir":   st.IsDir(),
		}, nil
	})
}

func (a *api) readDir(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		p, err := pathArg(args, 1)
		if err != nil {
			return nil, err
		}
		ents, err := s.sb.ReadDir(p)
		if err != nil {
			return nil, err
		}
		out := make([]any, len(ents))
		for k, e := range ents {
			out[k] = map[string]any{"name": e.Name(), "type": fileType(e.Type())}
		}
		return out, nil
	})
}

// setEnv fails with EBUSY while a command runs: the shell is in use, and a
// JavaScript callback must not wait for it.
func (a *api) setEnv(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		k, v := arg(args, 1), arg(args, 2)
		if k.Type() != js.TypeString {
			return nil, argErrorf("setEnv: the name must be a string")
		}
		s.mu.Lock()
		busy := s.running > 0
		s.mu.Unlock()
		if busy {
			return nil, &busyError{}
		}
		return nil, s.sb.SetEnv(k.String(), jsString(v))
	})
}

func (a *api) getEnv(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		k := arg(args, 1)
		if k.Type() != js.TypeString {
			return nil, argErrorf("getEnv: the name must be a string")
		}
		return s.sb.GetEnv(k.String()), nil
	})
}

// complete lists the Tab completions of a command line (empty while a
// command runs).
func (a *api) complete(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		line := arg(args, 1)
		if line.Type() != js.TypeString {
			return nil, argErrorf("complete: the line must be a string")
		}
		out := []any{}
		for _, c := range s.sb.Complete(line.String()) {
			out = append(out, c)
		}
		return out, nil
	})
}

// destroy stops the sandbox's commands and releases it. It is idempotent.
func (a *api) destroy(args []js.Value) any {
	a.mu.Lock()
	id := arg(args, 0).Int()
	s := a.sandboxes[id]
	delete(a.sandboxes, id)
	a.mu.Unlock()
	if s == nil {
		return nil
	}
	s.mu.Lock()
	for c := range s.runs {
		(*c)(sandbox.ErrClosed)
	}
	s.mu.Unlock()
	// Close waits for a running command to stop: not in a callback.
	go s.sb.Close()
	return nil
}
