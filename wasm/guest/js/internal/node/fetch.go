package node

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/netx"
)

// setupFetch adds host.httpRequest, the one request fetch.js makes per
// hop: httpRequest(method, url, [[name, value]...], body, timeoutMs)
// returns {status, statusText, headers, body} with the whole response
// body as a Uint8Array, or {error, kind} when the request failed — a
// denial by the sandbox's network policy among them. Redirects are not
// followed here: fetch.js follows them, one request (and one policy
// check) per hop.
func (rt *runtime) setupFetch(h *goja.Object) {
	vm := rt.vm
	u8, _ := goja.AssertConstructor(vm.Get("Uint8Array"))
	h.Set("httpRequest", func(call goja.FunctionCall) goja.Value {
		req := &netx.Request{Method: call.Argument(0).String(), URL: call.Argument(1).String()}
		if o, ok := call.Argument(2).(*goja.Object); ok {
			var pairs [][]string
			if err := vm.ExportTo(o, &pairs); err != nil {
				rt.throw("TypeError", "fetch: bad headers: "+err.Error())
			}
			for _, p := range pairs {
				if len(p) == 2 {
					req.Header = append(req.Header, netx.Field{Name: p[0], Value: p[1]})
				}
			}
		}
		if b := call.Argument(3); !goja.IsUndefined(b) && !goja.IsNull(b) {
			body := rt.bytesOf(b)
			req.Body = bytes.NewReader(body)
			req.ContentLength = int64(len(body))
		}
		if ms := call.Argument(4).ToInteger(); ms > 0 {
			req.Timeout = time.Duration(ms) * time.Millisecond
		}
		rt.flush()
		fail := func(err error) goja.Value {
			kind := "failed"
			var ne *netx.Error
			if errors.As(err, &ne) {
				kind = kindName(ne.Kind)
			}
			o := vm.NewObject()
			o.Set("error", err.Error())
			o.Set("kind", kind)
			return o
		}
		resp, err := netx.Do(req)
		if err != nil {
			return fail(err)
		}
		defer resp.Body.Close()
		var body []byte
		if req.Method != "HEAD" {
			body, err = io.ReadAll(resp.Body)
			if err != nil {
				return fail(err)
			}
		}
		headers := make([]any, 0, len(resp.Header))
		for _, f := range resp.Header {
			headers = append(headers, vm.NewArray(f.Name, f.Value))
		}
		_, text, _ := strings.Cut(resp.Status, " ")
		buf, err := u8(nil, vm.ToValue(vm.NewArrayBuffer(body)))
		if err != nil {
			panic(err)
		}
		o := vm.NewObject()
		o.Set("status", resp.StatusCode)
		o.Set("statusText", text)
		o.Set("headers", vm.NewArray(headers...))
		o.Set("body", buf)
		return o
	})
}

// kindName names a failure for fetch.js, which turns it into an error code.
func kindName(k netx.Kind) string {
	switch k {
	case netx.Denied:
		return "denied"
	case netx.Budget:
		return "budget"
	case netx.Timeout:
		return "timeout"
	case netx.Resolve:
		return "resolve"
	case netx.Connect:
		return "connect"
	case netx.BadURL:
		return "badurl"
	case netx.Partial:
		return "partial"
	}
	return "failed"
}
