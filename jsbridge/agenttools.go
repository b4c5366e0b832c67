//go:build js && wasm

package jsbridge

import (
	"context"
	"encoding/json"
	"syscall/js"

	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/sandbox"
)

// toolset returns the agent tools of s, made on first use.
func (s *jsSandbox) toolset() (*agent.Toolset, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tools == nil {
		ts, err := agent.New(s.sb, agent.Options{
			Sandbox: s.opts,
			// snapshot keeps its snapshots in the sandbox's store (the
			// one sb.save uses), or returns them as base64 without one.
			Store: s.opts.Store,
			// restore swaps the sandbox under the tools; the JS object
			// follows it.
			Replaced: func(sb *sandbox.Sandbox) {
				s.mu.Lock()
				s.sb = sb
				s.mu.Unlock()
			},
		})
		if err != nil {
			return nil, err
		}
		s.tools = ts
	}
	return s.tools, nil
}

// toolDefinitions(id) → JSON text of [{name, description, inputSchema}],
// behind the loader's tool shapes (tools.mjs).
func (a *api) toolDefinitions(args []js.Value) any {
	s, err := a.lookup(args)
	if err != nil {
		return a.jsErr(err)
	}
	ts, err := s.toolset()
	if err != nil {
		return a.jsErr(err)
	}
	type def struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	var out []def
	for _, t := range ts.Tools() {
		out = append(out, def{t.Name, t.Description, t.InputSchema})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return a.jsErr(err)
	}
	return string(b)
}

// handleToolCall(id, name, argsJSON) → Promise<{text, isError}>: text is
// the JSON of the result, or of {error: {code, message}}.
func (a *api) handleToolCall(args []js.Value) any {
	s, err := a.lookup(args)
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	name, argsJSON := arg(args, 1), arg(args, 2)
	if name.Type() != js.TypeString || argsJSON.Type() != js.TypeString {
		return jsPromise.Call("reject", a.jsErr(argErrorf("handleToolCall: the name and the arguments' JSON must be strings")))
	}
	ts, err := s.toolset()
	if err != nil {
		return jsPromise.Call("reject", a.jsErr(err))
	}
	n, raw := name.String(), json.RawMessage(argsJSON.String())
	ctx, cancel := context.WithCancelCause(context.Background())
	s.mu.Lock()
	s.runs[&cancel] = struct{}{}
	s.running++
	s.mu.Unlock()
	return a.goPromise(func() (any, error) {
		defer func() {
			s.mu.Lock()
			delete(s.runs, &cancel)
			s.running--
			s.mu.Unlock()
			cancel(nil)
		}()
		text, isErr := ts.CallJSON(ctx, n, raw)
		return map[string]any{"text": string(text), "isError": isErr}, nil
	})
}
