//go:build js

// Package fetch is the network of the js/wasm core: a netpolicy.Transport
// over the host's fetch(), which package platform/hostwasm gives every
// sandbox. Native sandboxes use net/http (package platform/native/nethttp).
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"syscall/js"

	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
)

// Transport is the host's fetch() (Node's or the browser's), called
// directly: net/http would add megabytes to the core for the same call. fetch() never follows a redirect here (redirect: "manual"), sends
// no cookies or credentials (credentials: "omit") and resolves names
// itself, so the private-address check is the host's (in a browser, its
// Private Network Access rules and CORS apply on top of the policy).
var Transport netpolicy.Transport = fetchTransport{}

type fetchTransport struct{}

// jsCallError is a JavaScript exception caught while calling into the host.
type jsCallError struct{ msg string }

func (e *jsCallError) Error() string { return e.msg }

// jsMessage describes a thrown JavaScript value, with its cause's code
// (Node's fetch says "fetch failed" and puts ECONNREFUSED in cause.code).
func jsMessage(v js.Value) (msg, code string) {
	if v.Type() != js.TypeObject {
		return js.Global().Call("String", v).String(), ""
	}
	msg = js.Global().Call("String", v).String()
	if c := v.Get("cause"); c.Type() == js.TypeObject {
		if cc := c.Get("code"); cc.Type() == js.TypeString {
			code = cc.String()
		}
	}
	return msg, code
}

// await waits for p to settle or ctx to end (then it calls abort).
func await(ctx context.Context, p js.Value, abort func()) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var then, catch js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg, code := jsMessage(args[0])
		var err error = &jsCallError{msg}
		switch code {
		case "ENOTFOUND", "EAI_AGAIN", "EAI_NONAME":
			err = &netpolicy.Error{Kind: netpolicy.ErrResolve, Detail: msg}
		case "ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH":
			err = &netpolicy.Error{Kind: netpolicy.ErrConnect, Detail: msg}
		}
		ch <- result{err: err}
		return nil
	})
	release := func() { then.Release(); catch.Release() }
	p.Call("then", then, catch)
	select {
	case r := <-ch:
		release()
		return r.v, r.err
	case <-ctx.Done():
		abort()
		// The promise settles after the abort; keep the callbacks alive
		// until it does.
		go func() { <-ch; release() }()
		return js.Value{}, ctx.Err()
	}
}

func (fetchTransport) RoundTrip(ctx context.Context, req *netpolicy.Request) (resp *netpolicy.Response, err error) {
	defer func() {
		if r := recover(); r != nil {
			// A JavaScript exception (a header fetch() refuses, ...).
			resp, err = nil, &netpolicy.Error{Kind: netpolicy.ErrBadURL, Detail: fmt.Sprint(r)}
		}
	}()
	g := js.Global()
	fetch := g.Get("fetch")
	if fetch.Type() != js.TypeFunction {
		return nil, &netpolicy.Error{Kind: netpolicy.ErrConnect, Detail: "this host has no fetch()"}
	}
	ac := g.Get("AbortController").New()
	abort := func() { ac.Call("abort") }
	opt := g.Get("Object").New()
	opt.Set("method", req.Method)
	opt.Set("redirect", "manual")
	opt.Set("credentials", "omit")
	opt.Set("cache", "no-store")
	opt.Set("signal", ac.Get("signal"))
	headers := g.Get("Headers").New()
	for k, vs := range req.Header {
		for _, v := range vs {
			headers.Call("append", k, v)
		}
	}
	opt.Set("headers", headers)
	if req.Body != nil {
		// fetch() streams request bodies only over HTTP/2 (duplex:
		// "half"); the body is bounded by the request budget.
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		if len(b) > 0 || (req.Method != "GET" && req.Method != "HEAD") {
			u8 := g.Get("Uint8Array").New(len(b))
			js.CopyBytesToJS(u8, b)
			opt.Set("body", u8)
		}
	}
	v, err := await(ctx, fetch.Invoke(req.URL, opt), abort)
	var je *jsCallError
	if errors.As(err, &je) {
		// fetch() rejects with a bare TypeError ("Failed to fetch") for
		// every network failure: a refused connection, a bad port, CORS.
		return nil, &netpolicy.Error{Kind: netpolicy.ErrConnect, Detail: je.msg}
	}
	if err != nil {
		return nil, err
	}
	if v.Get("type").String() == "opaqueredirect" {
		abort()
		// A browser answers a redirect it must not follow with an
		// opaque response that hides where it leads.
		return nil, &netpolicy.Error{Detail: "wasmsand: " + req.URL + " redirects, and the browser hides where to"}
	}
	code := v.Get("status").Int()
	status := strconv.Itoa(code)
	if t := v.Get("statusText").String(); t != "" {
		status += " " + t
	}
	out := &netpolicy.Response{Proto: "HTTP/1.1", StatusCode: code, Status: status, Header: textproto.MIMEHeader{}, ContentLength: -1}
	it := v.Get("headers").Call("entries")
	for {
		n := it.Call("next")
		if n.Get("done").Bool() {
			break
		}
		kv := n.Get("value")
		out.Header.Add(textproto.CanonicalMIMEHeaderKey(kv.Index(0).String()), kv.Index(1).String())
	}
	if n, err := strconv.ParseInt(out.Header.Get("Content-Length"), 10, 64); err == nil {
		out.ContentLength = n
	}
	body := &fetchBody{ctx: ctx, abort: abort}
	if b := v.Get("body"); b.Type() == js.TypeObject {
		body.reader = b.Call("getReader")
		body.start()
	}
	out.Body = body
	return out, nil
}

// fetchBody reads a response's ReadableStream, one read ahead: the next
// chunk arrives while the guest handles this one, so a read rarely waits
// for a trip through the event loop, and one Read takes every chunk that
// has already arrived.
type fetchBody struct {
	ctx     context.Context
	abort   func()
	reader  js.Value // undefined without a body
	pending chan chunkResult
	buf     []byte
	err     error
}

type chunkResult struct {
	b   []byte
	err error // io.EOF at the end
}

// start begins the next read.
func (b *fetchBody) start() {
	ch := make(chan chunkResult, 1)
	b.pending = ch
	reader := b.reader
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- chunkResult{err: &jsCallError{fmt.Sprint(r)}}
			}
		}()
		r, err := await(b.ctx, reader.Call("read"), b.abort)
		if err != nil {
			ch <- chunkResult{err: err}
			return
		}
		if r.Get("done").Bool() {
			ch <- chunkResult{err: io.EOF}
			return
		}
		v := r.Get("value")
		data := make([]byte, v.Get("byteLength").Int())
		js.CopyBytesToGo(data, v)
		ch <- chunkResult{b: data}
	}()
}

// take handles a finished read and starts the next.
func (b *fetchBody) take(r chunkResult) {
	b.pending = nil
	if r.err != nil {
		b.err = r.err
		return
	}
	b.buf = r.b
	b.start()
}

func (b *fetchBody) Read(p []byte) (int, error) {
	if b.reader.IsUndefined() {
		return 0, io.EOF
	}
	if len(b.buf) == 0 && b.err == nil {
		if b.pending == nil {
			b.start()
		}
		select {
		case r := <-b.pending:
			b.take(r)
		case <-b.ctx.Done():
			b.abort()
			b.err = b.ctx.Err()
		}
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	// Take what has arrived meanwhile, without waiting.
	for n < len(p) && len(b.buf) == 0 && b.err == nil && b.pending != nil {
		select {
		case r := <-b.pending:
			b.take(r)
			k := copy(p[n:], b.buf)
			b.buf = b.buf[k:]
			n += k
		default:
			return n, nil
		}
	}
	if n == 0 && b.err != nil {
		return 0, b.err
	}
	return n, nil
}

func (b *fetchBody) Close() error {
	if b.err == nil {
		b.err = errors.New("body closed")
	}
	b.abort()
	return nil
}
