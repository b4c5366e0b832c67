package node

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dop251/goja"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
)

// child_process runs commands through the sandbox's process table (the
// "wasmsand" host module's proc_spawn): the sandbox's shell, tools and
// scripts, with the same limits. Output is collected in temporary files
// under /tmp, which never block the single-threaded guest.

type spawnResult struct {
	status         int
	stdout, stderr []byte
	err            error // the command could not start
}

type stdioMode int

const (
	stdioPipe stdioMode = iota
	stdioInherit
	stdioIgnore
)

func parseStdio(v goja.Value, defaults [3]stdioMode) [3]stdioMode {
	out := defaults
	mode := func(x goja.Value) (stdioMode, bool) {
		if x == nil || goja.IsUndefined(x) || goja.IsNull(x) {
			return 0, false
		}
		switch x.String() {
		case "pipe", "overlapped":
			return stdioPipe, true
		case "inherit":
			return stdioInherit, true
		case "ignore":
			return stdioIgnore, true
		}
		return 0, false
	}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return out
	}
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Array" {
		for i := 0; i < 3; i++ {
			if m, ok := mode(o.Get(fmt.Sprint(i))); ok {
				out[i] = m
			} else if x := o.Get(fmt.Sprint(i)); x != nil && !goja.IsUndefined(x) {
				if n, ok := x.Export().(int64); ok && n == int64(i) {
					out[i] = stdioInherit
				}
			}
		}
		return out
	}
	if m, ok := mode(v); ok {
		return [3]stdioMode{m, m, m}
	}
	return out
}

// run starts argv and waits for it.
func (rt *runtime) run(argv []string, opts goja.Value, input []byte, stdio [3]stdioMode) spawnResult {
	env := os.Environ()
	if o, ok := opts.(*goja.Object); ok {
		if e, ok := o.Get("env").(*goja.Object); ok {
			env = nil
			for _, k := range e.Keys() {
				v := e.Get(k)
				if goja.IsUndefined(v) {
					continue
				}
				env = append(env, k+"="+v.String())
			}
			sort.Strings(env)
		}
	}
	dir := optString(opts, "cwd")
	tmp := os.TempDir()
	rt.tmpSeq++
	base := filepath.Join(tmp, fmt.Sprintf(".node-%d-%d", os.Getpid(), rt.tmpSeq))
	var cleanup []string
	defer func() {
		for _, f := range cleanup {
			os.Remove(f)
		}
	}()
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return spawnResult{err: err}
	}
	defer null.Close()
	var stdin *os.File
	switch {
	case input != nil:
		name := base + ".in"
		if err := os.WriteFile(name, input, 0o600); err != nil {
			return spawnResult{err: err}
		}
		cleanup = append(cleanup, name)
		if stdin, err = os.Open(name); err != nil {
			return spawnResult{err: err}
		}
		defer stdin.Close()
	case stdio[0] == stdioInherit && rt.capture == nil:
		stdin = os.Stdin
	default:
		stdin = null
	}
	outFile := func(m stdioMode, suffix string, std *os.File) (*os.File, error) {
		if m == stdioIgnore {
			return null, nil
		}
		if m == stdioInherit && rt.capture == nil {
			rt.flush()
			return std, nil
		}
		name := base + suffix
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, err
		}
		cleanup = append(cleanup, name)
		return f, nil
	}
	stdout, err := outFile(stdio[1], ".out", os.Stdout)
	if err != nil {
		return spawnResult{err: err}
	}
	stderr, err := outFile(stdio[2], ".err", os.Stderr)
	if err != nil {
		return spawnResult{err: err}
	}
	read := func(f *os.File, m stdioMode, fd int) []byte {
		if f == null || f == os.Stdout || f == os.Stderr {
			return nil
		}
		defer f.Close()
		b, _ := os.ReadFile(f.Name())
		if m == stdioInherit { // under runCode: into the capture
			if fd == 1 {
				rt.writeOut(string(b))
			} else {
				rt.writeErr(string(b))
			}
			return nil
		}
		return b
	}
	status, err := proc.Run(argv, env, dir, stdin, stdout, stderr)
	res := spawnResult{status: status, err: err}
	res.stdout = read(stdout, stdio[1], 1)
	res.stderr = read(stderr, stdio[2], 2)
	return res
}

// spawnError words a failure to start argv[0].
func (rt *runtime) spawnError(call string, argv []string, err error) *goja.Object {
	code, num := "ENOENT", -2
	if errors.Is(err, proc.ErrPermission) {
		code, num = "EACCES", -13
	}
	e := rt.newError("Error", fmt.Sprintf("%s %s %s", call, argv[0], code))
	e.Set("errno", num)
	e.Set("code", code)
	e.Set("syscall", call+" "+argv[0])
	e.Set("path", argv[0])
	e.Set("spawnargs", argv[1:])
	return e
}

func (rt *runtime) inputOf(opts goja.Value) []byte {
	o, ok := opts.(*goja.Object)
	if !ok {
		return nil
	}
	in := o.Get("input")
	if in == nil || goja.IsUndefined(in) || goja.IsNull(in) {
		return nil
	}
	b := rt.dataArg(in, "utf8")
	if b == nil {
		b = []byte{}
	}
	return b
}

// output turns captured bytes into a string or a Buffer, by encoding.
func (rt *runtime) output(b []byte, enc string) goja.Value {
	if enc == "" || enc == "buffer" {
		return rt.newBuffer(b)
	}
	return rt.vm.ToValue(decodeBytes(b, enc))
}

func (rt *runtime) shellArgv(cmd string, opts goja.Value) []string {
	sh := "/bin/sh"
	if s := optString(opts, "shell"); s != "" && s != "true" && s != "false" {
		sh = s
	}
	return []string{sh, "-c", cmd}
}

func (rt *runtime) argList(v goja.Value) []string {
	o, ok := v.(*goja.Object)
	if !ok || o.ClassName() != "Array" {
		return nil
	}
	n := int(o.Get("length").ToInteger())
	out := make([]string, n)
	for i := range n {
		out[i] = o.Get(fmt.Sprint(i)).String()
	}
	return out
}

func (rt *runtime) childProcessModule() goja.Value {
	vm := rt.vm
	cp := vm.NewObject()
	// execSync(command[, options])
	cp.Set("execSync", func(call goja.FunctionCall) goja.Value {
		cmd := call.Argument(0).String()
		opts := call.Argument(1)
		argv := rt.shellArgv(cmd, opts)
		stdio := parseStdio(optValue(opts, "stdio"), [3]stdioMode{stdioPipe, stdioPipe, stdioInherit})
		res := rt.run(argv, opts, rt.inputOf(opts), stdio)
		enc := encodingOf(opts)
		if res.err != nil {
			panic(rt.spawnError("spawnSync", argv, res.err))
		}
		if res.status != 0 {
			msg := "Command failed: " + cmd
			if len(res.stderr) > 0 {
				msg += "\n" + string(res.stderr)
			}
			e := rt.newError("Error", msg)
			e.Set("status", res.status)
			e.Set("signal", goja.Null())
			e.Set("stdout", rt.output(res.stdout, enc))
			e.Set("stderr", rt.output(res.stderr, enc))
			e.Set("output", []any{goja.Null(), e.Get("stdout"), e.Get("stderr")})
			e.Set("pid", 0)
			panic(e)
		}
		if stdio[1] != stdioPipe {
			return goja.Null()
		}
		return rt.output(res.stdout, enc)
	})
	spawnSync := func(file string, args []string, opts goja.Value) *goja.Object {
		argv := append([]string{file}, args...)
		if sh := optValue(opts, "shell"); sh != nil && sh.ToBoolean() {
			argv = rt.shellArgv(strings.Join(argv, " "), opts)
		}
		stdio := parseStdio(optValue(opts, "stdio"), [3]stdioMode{stdioPipe, stdioPipe, stdioPipe})
		res := rt.run(argv, opts, rt.inputOf(opts), stdio)
		enc := encodingOf(opts)
		r := vm.NewObject()
		r.Set("pid", 0)
		if res.err != nil {
			r.Set("error", rt.spawnError("spawnSync", argv, res.err))
			r.Set("status", goja.Null())
			r.Set("signal", goja.Null())
			r.Set("output", goja.Null())
			r.Set("stdout", goja.Null())
			r.Set("stderr", goja.Null())
			return r
		}
		out, errOut := goja.Value(goja.Null()), goja.Value(goja.Null())
		if stdio[1] == stdioPipe {
			out = rt.output(res.stdout, enc)
		}
		if stdio[2] == stdioPipe {
			errOut = rt.output(res.stderr, enc)
		}
		r.Set("output", []any{goja.Null(), out, errOut})
		r.Set("stdout", out)
		r.Set("stderr", errOut)
		if res.status > 128 && res.status < 160 {
			r.Set("status", goja.Null())
			r.Set("signal", signalName(res.status-128))
		} else {
			r.Set("status", res.status)
			r.Set("signal", goja.Null())
		}
		return r
	}
	cp.Set("spawnSync", func(call goja.FunctionCall) goja.Value {
		args := rt.argList(call.Argument(1))
		opts := call.Argument(2)
		if args == nil {
			opts = call.Argument(1)
		}
		return spawnSync(call.Argument(0).String(), args, opts)
	})
	cp.Set("execFileSync", func(call goja.FunctionCall) goja.Value {
		file := call.Argument(0).String()
		args := rt.argList(call.Argument(1))
		opts := call.Argument(2)
		if args == nil {
			opts = call.Argument(1)
		}
		r := spawnSync(file, args, opts)
		if e := r.Get("error"); e != nil && !goja.IsUndefined(e) {
			panic(e)
		}
		if st := r.Get("status"); goja.IsNull(st) || st.ToInteger() != 0 {
			e := rt.newError("Error", "Command failed: "+strings.Join(append([]string{file}, args...), " "))
			for _, k := range []string{"status", "signal", "stdout", "stderr", "output"} {
				e.Set(k, r.Get(k))
			}
			panic(e)
		}
		return r.Get("stdout")
	})
	if _, err := vm.RunProgram(childProgram); err != nil {
		panic(err)
	}
	f, _ := goja.AssertFunction(vm.Get("__wasmsandChild"))
	vm.GlobalObject().Delete("__wasmsandChild")
	if _, err := f(goja.Undefined(), cp, rt.builtin["__prelude"]); err != nil {
		panic(err)
	}
	return cp
}

func optValue(v goja.Value, key string) goja.Value {
	if o, ok := v.(*goja.Object); ok {
		return o.Get(key)
	}
	return nil
}

func signalName(n int) string {
	switch n {
	case 9:
		return "SIGKILL"
	case 15:
		return "SIGTERM"
	case 2:
		return "SIGINT"
	case 13:
		return "SIGPIPE"
	case 6:
		return "SIGABRT"
	}
	return fmt.Sprintf("SIG%d", n)
}

// childAsyncJS adds exec and execFile (callback forms run the command to
// its end, then call back) and a spawn that says what is missing.
const childAsyncJS = `var __wasmsandChild = function (cp, host) {
  cp.exec = function (cmd, opts, cb) {
    if (typeof opts === 'function') { cb = opts; opts = {}; }
    opts = Object.assign({ encoding: 'utf8' }, opts, { stdio: 'pipe' });
    const r = cp.spawnSync('/bin/sh', ['-c', cmd], opts);
    let err = null;
    if (r.error) err = r.error;
    else if (r.status !== 0) { err = new Error('Command failed: ' + cmd + '\n' + r.stderr); err.code = r.status; err.killed = false; err.signal = r.signal; err.cmd = cmd; }
    const child = new (host.modules.events())();
    setImmediate(() => { if (cb) cb(err, r.stdout, r.stderr); child.emit('exit', r.status, r.signal); child.emit('close', r.status, r.signal); });
    return child;
  };
  cp.exec[host.util.promisify.custom] = (cmd, opts) => new Promise((resolve, reject) => cp.exec(cmd, opts, (err, stdout, stderr) => { if (err) { err.stdout = stdout; err.stderr = stderr; reject(err); } else resolve({ stdout, stderr }); }));
  cp.execFile = function (file, args, opts, cb) {
    if (typeof args === 'function') { cb = args; args = []; opts = {}; }
    else if (typeof opts === 'function') { cb = opts; opts = Array.isArray(args) ? {} : args; if (!Array.isArray(args)) args = []; }
    opts = Object.assign({ encoding: 'utf8' }, opts, { stdio: 'pipe' });
    const r = cp.spawnSync(file, args, opts);
    let err = null;
    if (r.error) err = r.error;
    else if (r.status !== 0) { err = new Error('Command failed: ' + [file].concat(args).join(' ') + '\n' + r.stderr); err.code = r.status; }
    const child = new (host.modules.events())();
    setImmediate(() => { if (cb) cb(err, r.stdout, r.stderr); child.emit('exit', r.status, r.signal); child.emit('close', r.status, r.signal); });
    return child;
  };
  cp.execFile[host.util.promisify.custom] = (file, args, opts) => new Promise((resolve, reject) => cp.execFile(file, args || [], opts || {}, (err, stdout, stderr) => { if (err) { err.stdout = stdout; err.stderr = stderr; reject(err); } else resolve({ stdout, stderr }); }));
  cp.spawn = function (file, args, opts) {
    if (!Array.isArray(args)) { opts = args; args = []; }
    const EE = host.modules.events();
    const child = new EE();
    const mk = () => { const s = new EE(); s.setEncoding = () => s; s.pipe = (d) => { s.on('data', (c) => d.write(c)); return d; }; return s; };
    child.stdout = mk(); child.stderr = mk();
    child.stdin = { write() { return true; }, end() {} };
    child.pid = 0;
    const input = [];
    child.stdin.write = (c) => { input.push(typeof c === 'string' ? c : host.Buffer.from(c).toString()); return true; };
    child.stdin.end = (c) => { if (c !== undefined) child.stdin.write(c); };
    setImmediate(() => {
      const o = Object.assign({}, opts, { stdio: 'pipe' });
      if (input.length) o.input = input.join('');
      const r = cp.spawnSync(file, args, o);
      if (r.error) { child.emit('error', r.error); return; }
      if (r.stdout.length) child.stdout.emit('data', r.stdout);
      child.stdout.emit('end');
      if (r.stderr.length) child.stderr.emit('data', r.stderr);
      child.stderr.emit('end');
      child.exitCode = r.status;
      child.emit('exit', r.status, r.signal);
      child.emit('close', r.status, r.signal);
    });
    return child;
  };
  cp.fork = function () { const e = new Error("child_process.fork is not available in wasmsand's node: run another script with execSync('node file.js')"); e.code = 'ERR_WASMSAND_UNSUPPORTED'; throw e; };
};`
