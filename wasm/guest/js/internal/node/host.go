package node

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
)

//go:embed inspect.js
var inspectJS string

//go:embed prelude.js
var preludeSrc string

//go:embed fetch.js
var fetchJS string

// preludeJS runs once per runtime: the formatter, then the rest.
var preludeJS = inspectJS + "\n" + preludeSrc + "\n" + fetchJS + "\n;__wasmsand"

// The built-in scripts are compiled once, when the package initialises: in
// the pre-initialised module (see wasm/preinit) that is when the module is
// built, and each process runs the compiled programs in a runtime of its
// own. Parsing and compiling their 90 KB was most of a process's start.
var (
	preludeProgram = goja.MustCompile("wasmsand:prelude", preludeJS, false)
	childProgram   = goja.MustCompile("wasmsand:child_process", childAsyncJS, false)
	fsProgram      = goja.MustCompile("wasmsand:fs", fsAsyncJS, false)
)

// setupHost makes the __wasmsand object the prelude reads its Go helpers from.
func (rt *runtime) setupHost() {
	vm := rt.vm
	h := vm.NewObject()
	h.Set("promiseState", func(call goja.FunctionCall) goja.Value {
		p, ok := call.Argument(0).Export().(*goja.Promise)
		if !ok {
			return vm.ToValue([]any{"pending", goja.Undefined()})
		}
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return vm.NewArray("fulfilled", p.Result())
		case goja.PromiseStateRejected:
			return vm.NewArray("rejected", p.Result())
		}
		return vm.NewArray("pending", goja.Undefined())
	})
	// encode returns a Uint8Array over fresh bytes.
	u8, _ := goja.AssertConstructor(vm.Get("Uint8Array"))
	h.Set("encode", func(s, enc string) goja.Value {
		b, err := encodeString(s, enc)
		if err != nil {
			rt.throw("TypeError", err.Error())
		}
		o, err := u8(nil, vm.ToValue(vm.NewArrayBuffer(b)))
		if err != nil {
			panic(err)
		}
		return o
	})
	h.Set("decode", func(call goja.FunctionCall) goja.Value {
		b := rt.bytesOf(call.Argument(0))
		return vm.ToValue(decodeBytes(b, call.Argument(1).String()))
	})
	h.Set("readStdin", func(goja.FunctionCall) goja.Value {
		b := rt.readStdin()
		o, err := u8(nil, vm.ToValue(vm.NewArrayBuffer(b)))
		if err != nil {
			panic(err)
		}
		return o
	})
	rt.setupFetch(h)
	vm.Set("__wasmsand", h)
}

// readStdin reads all of standard input, once.
func (rt *runtime) readStdin() []byte {
	if rt.stdinUsed || rt.env.Stdin == nil {
		return nil
	}
	rt.stdinUsed = true
	rt.flush()
	b, _ := io.ReadAll(rt.env.Stdin)
	return b
}

// bytesOf copies the bytes of a typed array, DataView or ArrayBuffer.
func (rt *runtime) bytesOf(v goja.Value) []byte {
	switch x := v.Export().(type) {
	case goja.ArrayBuffer:
		return append([]byte(nil), x.Bytes()...)
	case []byte:
		return append([]byte(nil), x...)
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return []byte(v.String())
	}
	buf, ok := o.Get("buffer").Export().(goja.ArrayBuffer)
	if !ok {
		return []byte(v.String())
	}
	off := int(o.Get("byteOffset").ToInteger())
	n := int(o.Get("byteLength").ToInteger())
	all := buf.Bytes()
	if off < 0 || off+n > len(all) {
		return nil
	}
	return append([]byte(nil), all[off:off+n]...)
}

func encodeString(s, enc string) ([]byte, error) {
	switch enc {
	case "utf8":
		return []byte(toUTF8(s)), nil
	case "hex":
		n := len(s) / 2 * 2
		out := make([]byte, 0, n/2)
		for i := 0; i+1 < len(s); i += 2 {
			b, err := hex.DecodeString(s[i : i+2])
			if err != nil {
				break
			}
			out = append(out, b...)
		}
		return out, nil
	case "base64", "base64url":
		t := strings.NewReplacer("-", "+", "_", "/", "\n", "", "\r", "", " ", "", "=", "").Replace(s)
		b, err := base64.RawStdEncoding.DecodeString(t)
		if err != nil {
			// Decode as much as is valid, as Node does.
			for len(t) > 0 && err != nil {
				t = t[:len(t)-1]
				b, err = base64.RawStdEncoding.DecodeString(t)
			}
		}
		return b, nil
	case "latin1", "ascii":
		out := make([]byte, 0, len(s))
		for _, u := range utf16.Encode([]rune(s)) {
			out = append(out, byte(u))
		}
		return out, nil
	case "utf16le":
		var out []byte
		for _, u := range utf16.Encode([]rune(s)) {
			out = append(out, byte(u), byte(u>>8))
		}
		return out, nil
	}
	return nil, fmt.Errorf("Unknown encoding: %s", enc)
}

// toUTF8 replaces lone surrogates (which Go strings from goja carry as
// WTF-8) with U+FFFD, as Node's UTF-8 encoder does.
func toUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func decodeBytes(b []byte, enc string) string {
	switch enc {
	case "hex":
		return hex.EncodeToString(b)
	case "base64":
		return base64.StdEncoding.EncodeToString(b)
	case "base64url":
		return base64.RawURLEncoding.EncodeToString(b)
	case "latin1":
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return string(r)
	case "ascii":
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c & 0x7f)
		}
		return string(r)
	case "utf16le":
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return string(utf16.Decode(u))
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// inspectOpts are the options of Go-side calls of util.inspect.
type inspectOpts struct{ depth int }

// inspect formats v as util.inspect does.
func (rt *runtime) inspect(v goja.Value, o inspectOpts) string {
	f, ok := goja.AssertFunction(rt.prelude("inspect"))
	if !ok {
		return v.String()
	}
	opts := rt.vm.NewObject()
	opts.Set("depth", o.depth)
	r, err := f(goja.Undefined(), v, opts)
	if err != nil {
		return v.String()
	}
	return r.String()
}

// formatArgs formats console arguments as util.format does.
func (rt *runtime) formatArgs(args []goja.Value) string {
	f, ok := goja.AssertFunction(rt.prelude("format"))
	if !ok {
		var parts []string
		for _, a := range args {
			parts = append(parts, a.String())
		}
		return strings.Join(parts, " ")
	}
	r, err := f(goja.Undefined(), args...)
	if err != nil {
		panic(err)
	}
	return r.String()
}

// formatKey shows an object key as util.inspect does.
func formatKey(k string) string {
	ok := k != ""
	for i, c := range k {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			ok = false
		}
	}
	if ok {
		return k
	}
	return "'" + strings.ReplaceAll(k, "'", "\\'") + "'"
}

func (rt *runtime) setupConsole() {
	vm := rt.vm
	c := vm.NewObject()
	groupIndent := ""
	out := func(toErr bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			s := rt.formatArgs(call.Arguments)
			if groupIndent != "" {
				s = groupIndent + strings.ReplaceAll(s, "\n", "\n"+groupIndent)
			}
			if toErr {
				rt.writeErr(s + "\n")
			} else {
				rt.writeOut(s + "\n")
			}
			return goja.Undefined()
		}
	}
	c.Set("log", out(false))
	c.Set("info", out(false))
	c.Set("debug", out(false))
	c.Set("error", out(true))
	c.Set("warn", out(true))
	c.Set("trace", func(call goja.FunctionCall) goja.Value {
		s := "Trace"
		if len(call.Arguments) > 0 {
			s += ": " + rt.formatArgs(call.Arguments)
		}
		var frames []string
		for _, f := range vm.CaptureCallStack(10, nil) {
			var b bytes.Buffer
			f.Write(&b)
			frames = append(frames, "    at "+b.String())
		}
		if len(frames) > 0 {
			s += "\n" + strings.Join(frames, "\n")
		}
		rt.writeErr(s + "\n")
		return goja.Undefined()
	})
	c.Set("dir", func(call goja.FunctionCall) goja.Value {
		rt.writeOut(rt.inspect(call.Argument(0), inspectOpts{depth: 2}) + "\n")
		return goja.Undefined()
	})
	c.Set("assert", func(call goja.FunctionCall) goja.Value {
		if call.Argument(0).ToBoolean() {
			return goja.Undefined()
		}
		s := "Assertion failed"
		if len(call.Arguments) > 1 {
			s += ": " + rt.formatArgs(call.Arguments[1:])
		}
		rt.writeErr(s + "\n")
		return goja.Undefined()
	})
	group := func(call goja.FunctionCall) goja.Value {
		if len(call.Arguments) > 0 {
			out(false)(call)
		}
		groupIndent += "  "
		return goja.Undefined()
	}
	c.Set("group", group)
	c.Set("groupCollapsed", group)
	c.Set("groupEnd", func(goja.FunctionCall) goja.Value {
		if len(groupIndent) >= 2 {
			groupIndent = groupIndent[2:]
		}
		return goja.Undefined()
	})
	counts := map[string]int{}
	c.Set("count", func(call goja.FunctionCall) goja.Value {
		label := "default"
		if a := call.Argument(0); !goja.IsUndefined(a) {
			label = a.String()
		}
		counts[label]++
		rt.writeOut(fmt.Sprintf("%s%s: %d\n", groupIndent, label, counts[label]))
		return goja.Undefined()
	})
	c.Set("countReset", func(call goja.FunctionCall) goja.Value {
		label := "default"
		if a := call.Argument(0); !goja.IsUndefined(a) {
			label = a.String()
		}
		delete(counts, label)
		return goja.Undefined()
	})
	timersStart := map[string]time.Time{}
	c.Set("time", func(call goja.FunctionCall) goja.Value {
		label := "default"
		if a := call.Argument(0); !goja.IsUndefined(a) {
			label = a.String()
		}
		timersStart[label] = time.Now()
		return goja.Undefined()
	})
	timeEnd := func(end bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			label := "default"
			if a := call.Argument(0); !goja.IsUndefined(a) {
				label = a.String()
			}
			t, ok := timersStart[label]
			if !ok {
				rt.writeErr(fmt.Sprintf("(node) Warning: No such label '%s' for console.time%s()\n", label, map[bool]string{true: "End", false: "Log"}[end]))
				return goja.Undefined()
			}
			if end {
				delete(timersStart, label)
			}
			ms := float64(time.Since(t).Microseconds()) / 1000
			rt.writeOut(fmt.Sprintf("%s%s: %.3fms\n", groupIndent, label, ms))
			return goja.Undefined()
		}
	}
	c.Set("timeEnd", timeEnd(true))
	c.Set("timeLog", timeEnd(false))
	c.Set("table", func(call goja.FunctionCall) goja.Value {
		s, ok := rt.table(call.Argument(0), call.Argument(1))
		if !ok {
			return out(false)(call)
		}
		rt.writeOut(s)
		return goja.Undefined()
	})
	vm.Set("console", c)
}

// table renders console.table's box as Node 20+ does (left-aligned).
func (rt *runtime) table(data, columns goja.Value) (string, bool) {
	vm := rt.vm
	obj, ok := data.(*goja.Object)
	if !ok {
		return "", false
	}
	cell := func(v goja.Value) string {
		return rt.inspect(v, inspectOpts{depth: 1})
	}
	var rowKeys []string
	var rows []goja.Value
	isMap := obj.ClassName() == "Map"
	if isMap {
		ent, _ := goja.AssertFunction(vm.Get("Array").ToObject(vm).Get("from"))
		arr, _ := ent(goja.Undefined(), obj)
		a := arr.ToObject(vm)
		n := int(a.Get("length").ToInteger())
		for i := 0; i < n; i++ {
			pair := a.Get(fmt.Sprint(i)).ToObject(vm)
			rowKeys = append(rowKeys, cell(pair.Get("0")))
			rows = append(rows, pair.Get("1"))
		}
	} else {
		for _, k := range obj.Keys() {
			rowKeys = append(rowKeys, k)
			rows = append(rows, obj.Get(k))
		}
	}
	var cols []string
	colSeen := map[string]bool{}
	hasValues := false
	for _, r := range rows {
		if ro, ok := r.(*goja.Object); ok && ro.ClassName() != "Function" {
			for _, k := range ro.Keys() {
				if !colSeen[k] {
					colSeen[k] = true
					cols = append(cols, k)
				}
			}
		} else {
			hasValues = true
		}
	}
	if co, ok := columns.(*goja.Object); ok {
		var sel []string
		n := int(co.Get("length").ToInteger())
		for i := 0; i < n; i++ {
			sel = append(sel, co.Get(fmt.Sprint(i)).String())
		}
		cols = sel
	}
	idxHeader := "(index)"
	if isMap {
		idxHeader = "(iteration index)"
	}
	header := []string{idxHeader}
	if isMap {
		header = append(header, "Key")
	}
	header = append(header, cols...)
	if hasValues {
		header = append(header, "Values")
	}
	var body [][]string
	for i, r := range rows {
		var line []string
		if isMap {
			line = append(line, fmt.Sprint(i), rowKeys[i])
		} else {
			line = append(line, rowKeys[i])
		}
		ro, isObj := r.(*goja.Object)
		if isObj && ro.ClassName() == "Function" {
			isObj = false
		}
		for _, c := range cols {
			if isObj {
				if v := ro.Get(c); v != nil && (ro.Get(c) != goja.Undefined() || hasOwn(vm, ro, c)) {
					line = append(line, cell(v))
					continue
				}
			}
			line = append(line, "")
		}
		if hasValues {
			if isObj {
				line = append(line, "")
			} else {
				line = append(line, cell(r))
			}
		}
		body = append(body, line)
	}
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = strWidth(h) + 2
	}
	for _, l := range body {
		for i, c := range l {
			widths[i] = max(widths[i], strWidth(c)+2)
		}
	}
	var b strings.Builder
	line := func(l, m, r string) {
		b.WriteString(l)
		for i, w := range widths {
			if i > 0 {
				b.WriteString(m)
			}
			b.WriteString(strings.Repeat("─", w))
		}
		b.WriteString(r + "\n")
	}
	rowOut := func(cells []string) {
		b.WriteString("│")
		for i, w := range widths {
			if i > 0 {
				b.WriteString("│")
			}
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			b.WriteString(" " + c + strings.Repeat(" ", w-1-strWidth(c)))
		}
		b.WriteString("│\n")
	}
	line("┌", "┬", "┐")
	rowOut(header)
	line("├", "┼", "┤")
	for _, l := range body {
		rowOut(l)
	}
	line("└", "┴", "┘")
	return b.String(), true
}

func hasOwn(vm *goja.Runtime, o *goja.Object, k string) bool {
	f, _ := goja.AssertFunction(vm.Get("Object").ToObject(vm).Get("prototype").ToObject(vm).Get("hasOwnProperty"))
	r, err := f(o, vm.ToValue(k))
	return err == nil && r.ToBoolean()
}

func strWidth(s string) int { return utf8.RuneCountInString(s) }

func (rt *runtime) setupProcess() {
	vm := rt.vm
	p := vm.NewObject()
	rt.process = p
	argv := make([]any, len(rt.argv))
	for i, a := range rt.argv {
		argv[i] = a
	}
	p.Set("argv", argv)
	p.Set("argv0", "node")
	p.Set("execArgv", []any{})
	p.Set("execPath", execPath)
	p.Set("version", Version)
	p.Set("versions", map[string]any{"node": strings.TrimPrefix(Version, "v"), "goja": "wasmsand", "v8": "0.0.0-goja"})
	p.Set("platform", "linux")
	p.Set("arch", "wasm32")
	p.Set("pid", 1)
	p.Set("ppid", 0)
	p.Set("title", "node")
	p.Set("release", map[string]any{"name": "node"})
	p.Set("exitCode", goja.Undefined())
	p.Set("config", map[string]any{})
	p.Set("features", map[string]any{})
	envObj := vm.NewObject()
	envs := os.Environ()
	sort.Strings(envs)
	for _, kv := range envs {
		if k, v, ok := strings.Cut(kv, "="); ok {
			envObj.Set(k, v)
		}
	}
	p.Set("env", envObj)
	p.Set("cwd", func(goja.FunctionCall) goja.Value { return vm.ToValue(mustGetwd()) })
	p.Set("chdir", func(dir string) {
		if err := os.Chdir(dir); err != nil {
			rt.throwFS(err, "chdir", dir, "")
		}
	})
	p.Set("exit", func(call goja.FunctionCall) goja.Value {
		code := rt.exitCode()
		if a := call.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
			code = int(a.ToInteger())
			p.Set("exitCode", code)
		}
		rt.exitCodeSet(code)
		rt.emitExit()
		rt.flush()
		panic(exitPanic{code})
	})
	p.Set("abort", func(goja.FunctionCall) goja.Value {
		rt.flush()
		panic(exitPanic{134})
	})
	p.Set("kill", func(goja.FunctionCall) goja.Value {
		rt.throwCode("Error", "ERR_WASMSAND_UNSUPPORTED", "process.kill is not available in the sandbox")
		return nil
	})
	start := time.Now()
	p.Set("uptime", func(goja.FunctionCall) goja.Value { return vm.ToValue(time.Since(start).Seconds()) })
	hr := func(goja.FunctionCall) goja.Value {
		ns := time.Since(start).Nanoseconds() + 1e9
		return vm.NewArray(ns/1e9, ns%1e9)
	}
	hrObj := vm.ToValue(hr).ToObject(vm)
	hrObj.Set("bigint", func(goja.FunctionCall) goja.Value {
		r, _ := vm.RunString(fmt.Sprintf("%dn", time.Since(start).Nanoseconds()+1e9))
		return r
	})
	p.Set("hrtime", hrObj)
	p.Set("memoryUsage", func(goja.FunctionCall) goja.Value {
		return vm.ToValue(map[string]any{"rss": 0, "heapTotal": 0, "heapUsed": 0, "external": 0, "arrayBuffers": 0})
	})
	p.Set("cpuUsage", func(goja.FunctionCall) goja.Value {
		return vm.ToValue(map[string]any{"user": time.Since(start).Microseconds(), "system": 0})
	})
	p.Set("nextTick", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			rt.throwCode("TypeError", "ERR_INVALID_ARG_TYPE", `The "callback" argument must be of type function`)
		}
		var args []goja.Value
		if len(call.Arguments) > 1 {
			args = call.Arguments[1:]
		}
		rt.microtask(fn, args)
		return goja.Undefined()
	})
	p.Set("emitWarning", func(call goja.FunctionCall) goja.Value {
		msg := call.Argument(0).String()
		typ := "Warning"
		if t := call.Argument(1); !goja.IsUndefined(t) {
			if o, ok := t.(*goja.Object); ok {
				if ty := o.Get("type"); ty != nil && !goja.IsUndefined(ty) {
					typ = ty.String()
				}
			} else {
				typ = t.String()
			}
		}
		rt.writeErr(fmt.Sprintf("(node:1) %s: %s\n", typ, msg))
		return goja.Undefined()
	})
	p.Set("umask", func(goja.FunctionCall) goja.Value { return vm.ToValue(0o22) })
	p.Set("getuid", func(goja.FunctionCall) goja.Value { return vm.ToValue(1000) })
	p.Set("getgid", func(goja.FunctionCall) goja.Value { return vm.ToValue(1000) })
	p.Set("geteuid", func(goja.FunctionCall) goja.Value { return vm.ToValue(1000) })
	p.Set("stdout", rt.stream(1))
	p.Set("stderr", rt.stream(2))
	vm.Set("process", p)
}

// stream is process.stdout or process.stderr.
func (rt *runtime) stream(fd int) *goja.Object {
	vm := rt.vm
	s := vm.NewObject()
	s.Set("fd", fd)
	s.Set("isTTY", false)
	s.Set("writable", true)
	s.Set("columns", 80)
	s.Set("rows", 24)
	s.Set("write", func(call goja.FunctionCall) goja.Value {
		v := call.Argument(0)
		var str string
		if o, ok := v.(*goja.Object); ok && o.Get("byteLength") != nil && !goja.IsUndefined(o.Get("byteLength")) {
			str = string(rt.bytesOf(o))
		} else {
			str = v.String()
		}
		if fd == 1 {
			rt.writeOut(str)
		} else {
			rt.writeErr(str)
		}
		for _, a := range call.Arguments[1:] {
			if cb, ok := goja.AssertFunction(a); ok {
				rt.microtask(cb, nil)
			}
		}
		return vm.ToValue(true)
	})
	s.Set("end", func(call goja.FunctionCall) goja.Value {
		if v := call.Argument(0); !goja.IsUndefined(v) {
			if _, ok := goja.AssertFunction(v); !ok {
				if fd == 1 {
					rt.writeOut(v.String())
				} else {
					rt.writeErr(v.String())
				}
			}
		}
		return goja.Undefined()
	})
	noop := func(goja.FunctionCall) goja.Value { return s }
	for _, k := range []string{"on", "once", "off", "removeListener", "cork", "uncork", "setDefaultEncoding"} {
		s.Set(k, noop)
	}
	s.Set("getWindowSize", func(goja.FunctionCall) goja.Value { return vm.NewArray(80, 24) })
	s.Set("hasColors", func(goja.FunctionCall) goja.Value { return vm.ToValue(false) })
	s.Set("getColorDepth", func(goja.FunctionCall) goja.Value { return vm.ToValue(1) })
	return s
}
