//go:build js && wasm

package jsbridge

import (
	"context"
	"encoding/json"
	"errors"
	"syscall/js"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
)

// runCode(id, request) → Promise<result>, behind Sandbox.runCode. The
// loader prepares the request: {language, code, timeoutMs, contextJSON,
// bridges: {name: {description, call(argsJSON) → Promise<resultJSON>}}},
// and turns the result {ok, stdout, stderr, resultJSON, warnings,
// durationMs, error?} into its typed form. A request that fails validation
// rejects with a SandboxError of code VALIDATION_ERROR.
func (a *api) runCode(args []js.Value) any {
	s, err := a.lookup(args)
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	req, err := parseCodeRequest(arg(args, 1))
	if err != nil {
		return jsPromise.Call("reject", a.codeErr(err))
	}
	return a.goPromise(func() (any, error) {
		res, err := s.sb.RunCode(context.Background(), req)
		var ce *sandbox.CodeError
		if errors.As(err, &ce) {
			return nil, abortedError{a.codeErr(err)} // rejects with this value as is
		}
		if err != nil {
			return nil, err
		}
		out := map[string]any{
			"ok":         res.OK,
			"stdout":     res.Stdout,
			"stderr":     res.Stderr,
			"resultJSON": string(res.Result),
			"warnings":   stringsToJS(res.Warnings),
			"durationMs": float64(res.Duration) / float64(time.Millisecond),
		}
		if e := res.Error; e != nil {
			out["error"] = map[string]any{"name": e.Name, "code": e.Code, "message": e.Message, "stack": e.Stack}
		}
		return out, nil
	})
}

// codeErr makes a SandboxError for err, with a CodeError's own code.
func (a *api) codeErr(err error) js.Value {
	var ce *sandbox.CodeError
	if errors.As(err, &ce) {
		return a.errClass.New(ce.Code, ce.Message)
	}
	return a.jsErr(err)
}

func parseCodeRequest(o js.Value) (sandbox.CodeRequest, error) {
	var req sandbox.CodeRequest
	if o.Type() != js.TypeObject {
		return req, &sandbox.CodeError{Name: "ValidationError", Code: sandbox.CodeValidation, Message: "runCode: the request must be an object"}
	}
	if v := o.Get("language"); v.Type() == js.TypeString {
		req.Language = v.String()
	}
	if v := o.Get("code"); v.Type() == js.TypeString {
		req.Code = v.String()
	}
	if v := o.Get("timeoutMs"); v.Type() == js.TypeNumber {
		req.Timeout = time.Duration(v.Float() * float64(time.Millisecond))
		if req.Timeout <= 0 {
			req.Timeout = time.Nanosecond // clamped up, with a warning
		}
	}
	if v := o.Get("contextJSON"); v.Type() == js.TypeString {
		req.Context = json.RawMessage(v.String())
	}
	if b := o.Get("bridges"); b.Type() == js.TypeObject {
		req.Bridges = map[string]sandbox.Bridge{}
		keys := jsObject.Call("keys", b)
		for k := range keys.Length() {
			name := keys.Index(k).String()
			spec := b.Get(name)
			call := spec.Get("call")
			br := sandbox.Bridge{}
			if d := spec.Get("description"); d.Type() == js.TypeString {
				br.Description = d.String()
			}
			if call.Type() == js.TypeFunction {
				br.Func = jsBridge(call)
			}
			req.Bridges[name] = br
		}
	}
	return req, nil
}

// jsBridge calls a JavaScript bridge from the sandbox's goroutine and waits
// for its promise.
func jsBridge(call js.Value) func(context.Context, json.RawMessage) (any, error) {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		if len(args) == 0 {
			args = json.RawMessage("null")
		}
		p, err := invokeSafely(call, string(args))
		if err != nil {
			return nil, err
		}
		v, err := await(jsPromise.Call("resolve", p))
		if err != nil {
			var je *jsError
			if errors.As(err, &je) {
				if m := je.Thrown(); m.Type() == js.TypeObject && m.Get("message").Type() == js.TypeString {
					return nil, errors.New(m.Get("message").String())
				}
			}
			return nil, err
		}
		if v.Type() != js.TypeString {
			return nil, nil
		}
		return json.RawMessage(v.String()), nil
	}
}

func invokeSafely(fn js.Value, arg string) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("the bridge threw")
			if e, ok := r.(js.Error); ok {
				err = errors.New(e.Value.Get("message").String())
			}
		}
	}()
	return fn.Invoke(arg), nil
}
