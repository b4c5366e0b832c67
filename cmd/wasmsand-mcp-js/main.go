//go:build js && wasm

// Command wasmsand-mcp-js is the MCP server of the npm package ("npx
// wasmsand mcp"): the server of package agent/mcpserver, built with
// GOOS=js GOARCH=wasm and run by Node over its standard input and output:
//
//	GOOS=js GOARCH=wasm go build -o wasmsand-mcp.wasm ./cmd/wasmsand-mcp-js
//
// It is a core of its own, apart from wasmsand.wasm, because the MCP SDK
// nearly doubles the core's size, which every browser would download.
//
// The loader (mcp.mjs) puts at globalThis.wasmsandHost a SandboxError class
// and an object mcp = {options, write(bytes), ready(input), done(error)}:
// options are Sandbox.create's; write sends bytes to stdout; ready gets
// {push(bytes), end()} to feed stdin with; done is called once the session
// is over, with an error message or "".
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall/js"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wasmsand/wasmsand/agent/mcpserver"
	"github.com/wasmsand/wasmsand/agent/session"
	"github.com/wasmsand/wasmsand/jsbridge"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "devel"

func main() {
	host := js.Global().Get("wasmsandHost")
	if host.Type() != js.TypeObject || host.Get("mcp").Type() != js.TypeObject {
		fmt.Fprintln(os.Stderr, "wasmsand-mcp-js: globalThis.wasmsandHost.mcp is missing; start it with the wasmsand loader (npx wasmsand mcp)")
		os.Exit(2)
	}
	h := host.Get("mcp")
	done := func(err error) {
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		h.Call("done", msg)
	}
	opts, err := jsbridge.SandboxOptions(h.Get("options"))
	if err != nil {
		done(err)
		select {}
	}
	in := newInput()
	push := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeObject {
			b := make([]byte, args[0].Get("length").Int())
			js.CopyBytesToGo(b, args[0])
			in.push(b)
		}
		return nil
	})
	end := js.FuncOf(func(js.Value, []js.Value) any { in.close(); return nil })
	input := js.Global().Get("Object").New()
	input.Set("push", push)
	input.Set("end", end)

	go func() {
		ctx := context.Background()
		srv, err := mcpserver.New(ctx, mcpserver.Options{
			Sessions: session.Config{Sandbox: opts, MaxSessions: 1},
			Version:  version,
		})
		if err != nil {
			done(err)
			return
		}
		err = srv.Run(ctx, &mcp.IOTransport{Reader: in, Writer: output{h}})
		srv.Close(ctx)
		done(err)
	}()
	h.Call("ready", input)
	select {}
}

// input is standard input as Node hands it over: push never blocks (it
// runs in a JavaScript callback); Read waits for bytes in a goroutine.
type input struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool
}

func newInput() *input {
	in := &input{}
	in.cond = sync.NewCond(&in.mu)
	return in
}

func (in *input) push(b []byte) {
	in.mu.Lock()
	in.buf = append(in.buf, b...)
	in.mu.Unlock()
	in.cond.Broadcast()
}

func (in *input) close() {
	in.mu.Lock()
	in.closed = true
	in.mu.Unlock()
	in.cond.Broadcast()
}

func (in *input) Read(p []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for len(in.buf) == 0 && !in.closed {
		in.cond.Wait()
	}
	if len(in.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, in.buf)
	in.buf = in.buf[n:]
	return n, nil
}

func (in *input) Close() error {
	in.close()
	return nil
}

// output writes to Node's standard output through the loader.
type output struct{ h js.Value }

func (o output) Write(p []byte) (int, error) {
	a := js.Global().Get("Uint8Array").New(len(p))
	js.CopyBytesToJS(a, p)
	if r := o.h.Call("write", a); r.Type() == js.TypeString {
		return 0, errors.New(r.String())
	}
	return len(p), nil
}

func (output) Close() error { return nil }
