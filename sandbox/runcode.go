package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

// Limits of RunCode.
const (
	MaxCodeLength      = 12000 // characters of code
	MinCodeTimeout     = 250 * time.Millisecond
	MaxCodeTimeout     = 5 * time.Second
	DefaultCodeTimeout = 3 * time.Second
	MaxCodeOutputLines = 100 // per stream
)

// Stable codes of CodeError.
const (
	CodeValidation = "VALIDATION_ERROR"
	CodeTimeout    = "TIMEOUT"
	CodeRuntime    = "RUNTIME_ERROR"
)

// CodeRequest is one snippet for RunCode.
type CodeRequest struct {
	// Language is "javascript" (the default when empty; "js" works too).
	// python and bash are not runCode languages yet.
	Language string
	// Code is the snippet, at most MaxCodeLength characters. It runs as
	// the body of an async function: `await` works at the top level, and
	// the value of a final expression statement (or of `return`) is the
	// result.
	Code string
	// Timeout bounds the snippet, bridge calls included; it is clamped to
	// MinCodeTimeout..MaxCodeTimeout, and zero means DefaultCodeTimeout.
	Timeout time.Duration
	// Context, if set, is marshalled to JSON: the code sees it as the
	// global `context`, and each key that is an identifier and no existing
	// global as a global of its own.
	Context any
	// Bridges are the host functions the code may call as
	// `await api.NAME(args)`.
	Bridges map[string]Bridge
}

// Bridge is a host function the code calls as `api.NAME(args)`. Arguments
// and results cross as JSON; an error rejects the code's promise with its
// message. The context ends when the code's time is up.
type Bridge struct {
	Description string
	// Params optionally describes the arguments (a JSON Schema), for
	// BridgeMetadata.
	Params json.RawMessage
	Func   func(ctx context.Context, args json.RawMessage) (any, error)
}

// BridgeInfo describes one bridge for an LLM prompt.
type BridgeInfo struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Params      json.RawMessage `json:"params,omitempty"`
	Call        string          `json:"call"`
}

// BridgeMetadata lists bridges, sorted by name, with how the code calls
// them.
func BridgeMetadata(bridges map[string]Bridge) []BridgeInfo {
	out := make([]BridgeInfo, 0, len(bridges))
	for name, b := range bridges {
		out = append(out, BridgeInfo{Name: name, Description: b.Description, Params: b.Params, Call: "await api." + name + "(args)"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// CodeResult is what RunCode returns.
type CodeResult struct {
	OK     bool
	Stdout string // console.log/info/debug, at most MaxCodeOutputLines lines
	Stderr string // console.error/warn
	// Result is the code's value as JSON (null when it has none): cycles
	// marked "[Circular]", depth at most 10, functions and symbols
	// described, BigInt as a string, Map as an object (or [key, value]
	// pairs), Set as an array, Date as an ISO string, Error as {name,
	// message, stack}, long strings and arrays cut.
	Result   json.RawMessage
	Warnings []string
	Duration time.Duration
	Error    *CodeError
}

// CodeError is a typed runCode failure: ValidationError (code
// VALIDATION_ERROR, returned as RunCode's error), TimeoutError (TIMEOUT)
// or RuntimeError (RUNTIME_ERROR, with the JavaScript stack).
type CodeError struct {
	Name    string `json:"name"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
}

func (e *CodeError) Error() string { return e.Name + ": " + e.Message }

func validationError(format string, a ...any) *CodeError {
	return &CodeError{Name: "ValidationError", Code: CodeValidation, Message: fmt.Sprintf(format, a...)}
}

// ValidateCode checks a request as RunCode does and returns the timeout to
// use and the warnings about it.
func ValidateCode(req CodeRequest) (time.Duration, []string, error) {
	switch strings.ToLower(req.Language) {
	case "", "javascript", "js":
	case "python", "python3", "bash", "sh":
		return 0, nil, validationError("language %q is not a runCode language yet: runCode runs javascript (run %s through Run instead)", req.Language, req.Language)
	default:
		return 0, nil, validationError("language %q is not supported: runCode runs javascript", req.Language)
	}
	if strings.TrimSpace(req.Code) == "" {
		return 0, nil, validationError("code is required")
	}
	if n := utf8.RuneCountInString(req.Code); n > MaxCodeLength {
		return 0, nil, validationError("code is %d characters long; the most is %d", n, MaxCodeLength)
	}
	for name, b := range req.Bridges {
		if !isIdentifier(name) {
			return 0, nil, validationError("bridge name %q is not a JavaScript identifier", name)
		}
		if name == "fetch" {
			return 0, nil, validationError("bridge name \"fetch\" is reserved (api.fetch goes through the network allowlist)")
		}
		if b.Func == nil {
			return 0, nil, validationError("bridge %q has no function", name)
		}
	}
	var warnings []string
	t := req.Timeout
	switch {
	case t == 0:
		t = DefaultCodeTimeout
	case t < MinCodeTimeout:
		warnings = append(warnings, fmt.Sprintf("timeout %v raised to the minimum of %v", t, MinCodeTimeout))
		t = MinCodeTimeout
	case t > MaxCodeTimeout:
		warnings = append(warnings, fmt.Sprintf("timeout %v lowered to the maximum of %v", t, MaxCodeTimeout))
		t = MaxCodeTimeout
	}
	return t, warnings, nil
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// codeSeq numbers RunCode calls, for their scratch files.
var codeSeq struct {
	sync.Mutex
	n int
}

// RunCode runs a JavaScript snippet in a fresh guest (the `node` tool)
// over the sandbox's files, with its console captured and its value
// sanitized to JSON. A request that fails validation returns a
// *CodeError named ValidationError and no result; a timeout or an
// exception gives a result with OK false and Error set.
func (s *Sandbox) RunCode(ctx context.Context, req CodeRequest) (*CodeResult, error) {
	start := time.Now()
	timeout, warnings, err := ValidateCode(req)
	if err != nil {
		return nil, err
	}
	if s.closed.Load() {
		return nil, ErrClosed
	}
	file, ok := s.tools.commands["node"]
	if !ok {
		return nil, validationError("javascript needs the node tool (js.wasm), which this sandbox's tools do not have")
	}
	var ctxJSON json.RawMessage
	if req.Context != nil {
		b, err := json.Marshal(req.Context)
		if err != nil {
			return nil, validationError("context is not JSON: %v", err)
		}
		ctxJSON = b
	}
	// Compile the engine first, outside the code's time: a cold compile of
	// goja takes longer than any snippet may run.
	load := func() ([]byte, error) {
		b, _, err := s.tools.moduleBytes("node")
		return b, err
	}
	key, err := s.tools.key(file, s.memPages)
	if err != nil {
		return nil, fmt.Errorf("sandbox: loading node: %w", err)
	}
	if _, err := s.eng.cache.get(ctx, s.eng.eng, key, load, s.instrumentFor()); err != nil {
		return nil, fmt.Errorf("sandbox: loading node: %w", err)
	}

	names := make([]string, 0, len(req.Bridges))
	for n := range req.Bridges {
		names = append(names, n)
	}
	sort.Strings(names)
	reqJSON, err := json.Marshal(map[string]any{"code": req.Code, "context": ctxJSON, "bridges": names, "maxLines": MaxCodeOutputLines})
	if err != nil {
		return nil, err
	}
	codeSeq.Lock()
	codeSeq.n++
	dir := fmt.Sprintf("/tmp/.runcode-%d-%d", time.Now().UnixNano()%1e9, codeSeq.n)
	codeSeq.Unlock()
	if err := s.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sandbox: runCode scratch directory: %w", err)
	}
	defer s.Rm(dir, true)
	if err := s.WriteFile(dir+"/request.json", reqJSON, 0o600); err != nil {
		return nil, fmt.Errorf("sandbox: writing the runCode request: %w", err)
	}

	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	sess := &bridgeSession{bridges: req.Bridges}
	cctx = context.WithValue(cctx, bridgeKey{}, sess)
	run, err := s.Run(cctx, "/usr/bin/node "+runCodeFlag+" "+dir+"/request.json "+dir+"/result.json")
	if err != nil {
		return nil, err
	}
	res := &CodeResult{Warnings: warnings}
	defer func() { res.Duration = time.Since(start) }()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	timedOut := errors.Is(cctx.Err(), context.DeadlineExceeded) || run.ExitCode == 124
	raw, rerr := s.ReadFile(dir + "/result.json")
	var out struct {
		Stdout    string          `json:"stdout"`
		Stderr    string          `json:"stderr"`
		Result    json.RawMessage `json:"result"`
		HasResult bool            `json:"hasResult"`
		Warnings  []string        `json:"warnings"`
		Error     *CodeError      `json:"error"`
	}
	if rerr == nil {
		rerr = json.Unmarshal(raw, &out)
	}
	switch {
	case timedOut:
		res.Error = &CodeError{Name: "TimeoutError", Code: CodeTimeout, Message: fmt.Sprintf("the code ran longer than its timeout of %v", timeout)}
		res.Stdout, res.Stderr = capLines(string(run.Stdout)), capLines(string(run.Stderr))
	case rerr != nil:
		msg := strings.TrimSpace(string(run.Stderr))
		if msg == "" {
			msg = fmt.Sprintf("node ended with status %d and no result", run.ExitCode)
		}
		if run.ExitCode == 137 {
			msg = "fuel exhausted: " + msg
		}
		res.Error = &CodeError{Name: "RuntimeError", Code: CodeRuntime, Message: lastLines(msg, 20)}
		res.Stdout = capLines(string(run.Stdout))
	default:
		res.Stdout, res.Stderr = out.Stdout, out.Stderr
		res.Warnings = append(res.Warnings, out.Warnings...)
		if out.Error != nil {
			res.Error = out.Error
			res.Error.Code = CodeRuntime
			if res.Error.Name == "SyntaxError" || res.Error.Name == "" {
				res.Error.Name = "RuntimeError"
				res.Error.Message = "SyntaxError: " + out.Error.Message
			} else {
				res.Error.Message = out.Error.Name + ": " + out.Error.Message
				res.Error.Name = "RuntimeError"
			}
		} else if out.HasResult {
			res.Result = out.Result
		}
	}
	if res.Result == nil {
		res.Result = json.RawMessage("null")
	}
	if res.Warnings == nil {
		res.Warnings = []string{}
	}
	res.OK = res.Error == nil
	return res, nil
}

// runCodeFlag is node's runCode mode (see wasm/guest/js/internal/node).
const runCodeFlag = "--wasmsand-runcode"

// capLines keeps the first MaxCodeOutputLines lines of s.
func capLines(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
			if n == MaxCodeOutputLines {
				return s[:i+1]
			}
		}
	}
	return s
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// API bridges reach the host through two functions of the "wasmsand" host
// module, both returning a WASI errno:
//
//	bridge_call(req, req_len, resp_len_out: i32) -> errno
//	        runs the bridge named in the JSON request {"name", "args"}; the
//	        answer, {"ok": true, "result"} or {"ok": false, "error"}, waits
//	        on the host; its length is stored at resp_len_out
//	bridge_result(buf, buf_len: i32) -> errno
//	        copies the last answer into buf
//
// Outside RunCode both answer ENOTSUP.
type bridgeKey struct{}

type bridgeSession struct {
	bridges map[string]Bridge
	mu      sync.Mutex
	last    []byte
}

func init() {
	spawnFuncs["bridge_call"] = true
	spawnFuncs["bridge_result"] = true
}

func bridgeHostFuncs() []wasm.HostFunc {
	i32 := wasm.I32
	return []wasm.HostFunc{
		{Name: "bridge_call", Params: []wasm.ValueType{i32, i32, i32}, Results: []wasm.ValueType{i32}, Fn: bridgeCall},
		{Name: "bridge_result", Params: []wasm.ValueType{i32, i32}, Results: []wasm.ValueType{i32}, Fn: bridgeResult, NonBlocking: true},
	}
}

func bridgeCall(ctx context.Context, mem wasm.Memory, stack []uint64) {
	sess, _ := ctx.Value(bridgeKey{}).(*bridgeSession)
	if sess == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	b, ok := mem.Read(uint32(stack[0]), uint32(stack[1]))
	if !ok {
		errnoResult(stack, efault)
		return
	}
	var req struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	}
	var answer []byte
	if err := json.Unmarshal(b, &req); err != nil {
		answer = bridgeAnswer(nil, fmt.Errorf("bad bridge request: %v", err))
	} else if br, ok := sess.bridges[req.Name]; !ok {
		answer = bridgeAnswer(nil, fmt.Errorf("no bridge named %q", req.Name))
	} else {
		type result struct {
			v   any
			err error
		}
		done := make(chan result, 1)
		go func() {
			defer func() {
				if r := recover(); r != nil {
					done <- result{nil, fmt.Errorf("bridge %s panicked: %v", req.Name, r)}
				}
			}()
			v, err := br.Func(ctx, req.Args)
			done <- result{v, err}
		}()
		select {
		case r := <-done:
			answer = bridgeAnswer(r.v, r.err)
		case <-ctx.Done():
			panic(context.Cause(ctx))
		}
	}
	sess.mu.Lock()
	sess.last = answer
	sess.mu.Unlock()
	if !mem.WriteUint32Le(uint32(stack[2]), uint32(len(answer))) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}

func bridgeAnswer(v any, err error) []byte {
	if err != nil {
		b, _ := json.Marshal(map[string]any{"ok": false, "error": err.Error()})
		return b
	}
	res, merr := json.Marshal(v)
	if merr != nil {
		b, _ := json.Marshal(map[string]any{"ok": false, "error": "the bridge's result is not JSON: " + merr.Error()})
		return b
	}
	b, _ := json.Marshal(map[string]any{"ok": true, "result": json.RawMessage(res)})
	return b
}

func bridgeResult(ctx context.Context, mem wasm.Memory, stack []uint64) {
	sess, _ := ctx.Value(bridgeKey{}).(*bridgeSession)
	if sess == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	sess.mu.Lock()
	b := sess.last
	sess.mu.Unlock()
	if uint32(len(b)) > uint32(stack[1]) {
		errnoResult(stack, vfs.EINVAL)
		return
	}
	if !mem.Write(uint32(stack[0]), b) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}
