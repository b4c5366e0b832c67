package node

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// runCodeFlag makes node answer one runCode request:
//
//	node --wasmsand-runcode REQUEST.json RESULT.json
//
// REQUEST is {"code", "context", "bridges": [names], "maxLines"}; RESULT
// is {"stdout", "stderr", "result", "hasResult", "warnings", "error"}. The
// sandbox (sandbox.RunCode) writes the one and reads the other.
const runCodeFlag = "--wasmsand-runcode"

type runCodeRequest struct {
	Code     string          `json:"code"`
	Context  json.RawMessage `json:"context,omitempty"`
	Bridges  []string        `json:"bridges,omitempty"`
	MaxLines int             `json:"maxLines,omitempty"`
}

type runCodeError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
}

type runCodeResult struct {
	Stdout    string          `json:"stdout"`
	Stderr    string          `json:"stderr"`
	Result    json.RawMessage `json:"result,omitempty"`
	HasResult bool            `json:"hasResult"`
	Warnings  []string        `json:"warnings"`
	Error     *runCodeError   `json:"error,omitempty"`
	ExitCode  *int            `json:"exitCode,omitempty"`
}

// capture keeps console output of a runCode, at most maxLines lines per
// stream.
type capture struct {
	maxLines  int
	buf       [3]strings.Builder
	lines     [3]int
	truncated [3]bool
}

func (c *capture) write(fd int, s string) {
	if c.truncated[fd] {
		return
	}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if c.lines[fd] >= c.maxLines {
			c.truncated[fd] = true
			return
		}
		if i < 0 {
			c.buf[fd].WriteString(s)
			return
		}
		c.buf[fd].WriteString(s[:i+1])
		c.lines[fd]++
		s = s[i+1:]
	}
}

func runCodeMain(env *tool.Env, args []string) int {
	if len(args) != 2 {
		fmt.Fprintf(env.Stderr, "node: %s needs REQUEST.json RESULT.json\n", runCodeFlag)
		return 2
	}
	reqBytes, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintf(env.Stderr, "node: %v\n", err)
		return 2
	}
	var req runCodeRequest
	if err := json.Unmarshal(reqBytes, &req); err != nil {
		fmt.Fprintf(env.Stderr, "node: bad runCode request: %v\n", err)
		return 2
	}
	if req.MaxLines <= 0 {
		req.MaxLines = 100
	}
	c := &capture{maxLines: req.MaxLines}
	out := bufio.NewWriter(env.Stdout)
	rt := newRuntime(env, out, c)
	res := rt.runCode(req)
	for fd, name := range map[int]string{1: "stdout", 2: "stderr"} {
		if c.truncated[fd] {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s was cut at %d lines", name, req.MaxLines))
		}
	}
	res.Stdout, res.Stderr = c.buf[1].String(), c.buf[2].String()
	if res.Warnings == nil {
		res.Warnings = []string{}
	}
	b, err := json.Marshal(res)
	if err != nil {
		fmt.Fprintf(env.Stderr, "node: encoding the runCode result: %v\n", err)
		return 2
	}
	if err := os.WriteFile(args[1], b, 0o600); err != nil {
		fmt.Fprintf(env.Stderr, "node: writing the runCode result: %v\n", err)
		return 2
	}
	return 0
}

// runCode runs one snippet as the body of an async function whose last
// expression statement is returned, awaits its value and sanitizes it.
func (rt *runtime) runCode(req runCodeRequest) (res runCodeResult) {
	rt.argv = []string{execPath}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(exitPanic)
			if !ok {
				panic(r)
			}
			code := e.code
			res.ExitCode = &code
			if code != 0 {
				res.Error = &runCodeError{Name: "Error", Message: fmt.Sprintf("process.exit(%d) was called", code)}
			}
		}
	}()
	rt.setup()
	vm := rt.vm
	if len(req.Context) > 0 && string(req.Context) != "null" {
		parse, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
		ctxVal, err := parse(goja.Undefined(), vm.ToValue(string(req.Context)))
		if err != nil {
			return runCodeResult{Error: &runCodeError{Name: "ValidationError", Message: "context is not JSON: " + err.Error()}}
		}
		vm.Set("context", ctxVal)
		if o, ok := ctxVal.(*goja.Object); ok {
			for _, k := range o.Keys() {
				if isIdent(k) && vm.Get(k) == nil {
					vm.Set(k, o.Get(k))
				}
			}
		}
	}
	vm.Set("api", rt.apiObject(req.Bridges))

	body := withReturn(req.Code)
	src := "(async function () {\n" + body + "\n})"
	prg, err := goja.Compile("code.js", src, false)
	if err != nil {
		e := rt.syntaxError(err, req.Code)
		return runCodeResult{Error: &runCodeError{Name: "SyntaxError", Message: strings.TrimPrefix(e.Error(), "SyntaxError: ")}}
	}
	fnv, err := vm.RunProgram(prg)
	if err != nil {
		return runCodeResult{Error: rt.codeError(err)}
	}
	fn, _ := goja.AssertFunction(fnv)
	pv, err := fn(goja.Undefined())
	if err != nil {
		return runCodeResult{Error: rt.codeError(err)}
	}
	p, _ := pv.Export().(*goja.Promise)
	// Run timers until the value settles.
	for p != nil && p.State() == goja.PromiseStatePending {
		if !rt.pendingTimers() {
			return runCodeResult{Error: &runCodeError{Name: "Error", Message: "the code's promise never settled (it awaits something that nothing will resolve)"}}
		}
		if _, err := rt.step(false); err != nil {
			return runCodeResult{Error: rt.codeError(err)}
		}
	}
	var warnings []string
	if n := len(rt.timerByID); n > 0 {
		warnings = append(warnings, fmt.Sprintf("%d timer(s) still pending when the code finished were cancelled", n))
	}
	if p.State() == goja.PromiseStateRejected {
		return runCodeResult{Error: rt.thrownToError(p.Result()), Warnings: warnings}
	}
	// Errors nobody handled besides the main promise are reported too.
	rt.unhandled = nil
	san, _ := goja.AssertFunction(rt.prelude("sanitize"))
	out, err := san(goja.Undefined(), p.Result())
	if err != nil {
		return runCodeResult{Error: rt.codeError(err), Warnings: warnings}
	}
	o := out.ToObject(vm)
	res = runCodeResult{Warnings: warnings}
	if w, ok := o.Get("warnings").Export().([]any); ok {
		for _, x := range w {
			res.Warnings = append(res.Warnings, fmt.Sprint(x))
		}
	}
	if j := o.Get("json"); j != nil && !goja.IsUndefined(j) {
		res.Result = json.RawMessage(j.String())
		res.HasResult = true
	}
	return res
}

func isIdent(k string) bool {
	if k == "" {
		return false
	}
	for i, c := range k {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// withReturn makes the last statement of code, if it is an expression
// statement, a return statement, so its value is the result.
func withReturn(code string) string {
	const head = "(async function () {\n"
	prog, err := parser.ParseFile(nil, "code.js", head+code+"\n})", 0)
	if err != nil || len(prog.Body) != 1 {
		return code
	}
	es, ok := prog.Body[0].(*ast.ExpressionStatement)
	if !ok {
		return code
	}
	var fn *ast.FunctionLiteral
	switch e := es.Expression.(type) {
	case *ast.FunctionLiteral:
		fn = e
	default:
		return code
	}
	if fn.Body == nil || len(fn.Body.List) == 0 {
		return code
	}
	list := fn.Body.List
	last, ok := list[len(list)-1].(*ast.ExpressionStatement)
	if !ok {
		return code
	}
	prevEnd := 0
	if len(list) > 1 {
		prevEnd = int(list[len(list)-2].Idx1()) - 1 - len(head)
	}
	start := int(last.Idx0()) - 1 - len(head)
	if start < 0 || start > len(code) || prevEnd < 0 || prevEnd > start {
		return code
	}
	// Parentheses around the expression are not part of it in the AST.
	for start > prevEnd && strings.ContainsRune("( \t\r\n", rune(code[start-1])) {
		start--
	}
	for start < len(code) && strings.ContainsRune(" \t\r\n", rune(code[start])) {
		start++
	}
	expr := strings.TrimRight(code[start:], " \t\r\n;")
	return code[:start] + "return (" + expr + "\n);"
}

// codeError turns a Go-side error of running the code into a RuntimeError.
func (rt *runtime) codeError(err error) *runCodeError {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return rt.thrownToError(ex.Value())
	}
	var th *thrown
	if errors.As(err, &th) {
		return rt.thrownToError(th.v)
	}
	var se *scriptError
	if errors.As(err, &se) {
		return &runCodeError{Name: "Error", Message: se.msg}
	}
	return &runCodeError{Name: "Error", Message: err.Error()}
}

func (rt *runtime) thrownToError(v goja.Value) *runCodeError {
	if o, ok := v.(*goja.Object); ok && rt.isError(o) {
		e := &runCodeError{Name: o.Get("name").String(), Message: o.Get("message").String()}
		if s := o.Get("stack"); s != nil && !goja.IsUndefined(s) {
			e.Stack = strings.ReplaceAll(s.String(), "\tat ", "    at ")
		}
		return e
	}
	return &runCodeError{Name: "Error", Message: "Uncaught " + rt.inspect(v, inspectOpts{depth: 2})}
}

// apiObject is the code's `api`: one async function per bridge, and fetch.
func (rt *runtime) apiObject(names []string) *goja.Object {
	vm := rt.vm
	api := vm.NewObject()
	for _, name := range names {
		name := name
		api.Set(name, func(call goja.FunctionCall) goja.Value {
			p, resolve, reject := vm.NewPromise()
			args := call.Argument(0)
			argJSON := "null"
			if !goja.IsUndefined(args) {
				b, err := json.Marshal(args.Export())
				if err != nil {
					reject(rt.newError("TypeError", fmt.Sprintf("api.%s: arguments are not JSON: %v", name, err)))
					return vm.ToValue(p)
				}
				argJSON = string(b)
			}
			req, _ := json.Marshal(map[string]any{"name": name, "args": json.RawMessage(argJSON)})
			rt.flush()
			resp, err := callBridge(req)
			if err != nil {
				reject(rt.newError("Error", fmt.Sprintf("api.%s: %v", name, err)))
				return vm.ToValue(p)
			}
			var r struct {
				OK     bool            `json:"ok"`
				Result json.RawMessage `json:"result"`
				Error  string          `json:"error"`
			}
			if err := json.Unmarshal(resp, &r); err != nil {
				reject(rt.newError("Error", fmt.Sprintf("api.%s: bad answer from the host: %v", name, err)))
				return vm.ToValue(p)
			}
			if !r.OK {
				e := rt.newError("Error", r.Error)
				e.Set("bridge", name)
				reject(e)
				return vm.ToValue(p)
			}
			if len(r.Result) == 0 {
				resolve(goja.Undefined())
				return vm.ToValue(p)
			}
			parse, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
			v, err := parse(goja.Undefined(), vm.ToValue(string(r.Result)))
			if err != nil {
				reject(err)
			} else {
				resolve(v)
			}
			return vm.ToValue(p)
		})
	}
	if !contains(names, "fetch") {
		api.Set("fetch", vm.Get("fetch"))
	}
	return api
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
