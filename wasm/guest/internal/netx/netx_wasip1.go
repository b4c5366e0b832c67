//go:build wasip1

package netx

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

//go:wasmimport wasmsand http_open
func httpOpen(head unsafe.Pointer, headLen uint32, bodyLen int64, handle unsafe.Pointer) uint32

//go:wasmimport wasmsand http_write
func httpWrite(h uint32, buf unsafe.Pointer, n uint32) uint32

//go:wasmimport wasmsand http_wait
func httpWait(h uint32, headLen unsafe.Pointer) uint32

//go:wasmimport wasmsand http_head
func httpHead(h uint32, buf unsafe.Pointer, n uint32) uint32

//go:wasmimport wasmsand http_read
func httpRead(h uint32, buf unsafe.Pointer, n uint32, nread unsafe.Pointer) uint32

//go:wasmimport wasmsand http_close
func httpClose(h uint32) uint32

//go:wasmimport wasmsand http_error
func httpError(buf unsafe.Pointer, n uint32, full unsafe.Pointer) uint32

// WASI errnos of the http_* functions.
const (
	eAcces       = 2
	eConnRefused = 14
	eConnReset   = 15
	eDQuot       = 19
	eHostUnreach = 23
	eInval       = 28
	eProto       = 65
	eNotSup      = 58
	eTimedOut    = 73
)

// chunk is how much one host call moves.
const chunk = 64 << 10

// fail turns an errno into an *Error with the host's message.
func fail(errno uint32) error {
	buf := make([]byte, 1024)
	var full uint32
	msg := ""
	if httpError(unsafe.Pointer(&buf[0]), uint32(len(buf)), unsafe.Pointer(&full)) == 0 {
		msg = string(buf[:min(full, uint32(len(buf)))])
	}
	if msg == "" {
		msg = syscall.Errno(errno).Error()
	}
	k := Failed
	switch errno {
	case eAcces:
		k = Denied
	case eDQuot:
		k = Budget
	case eTimedOut:
		k = Timeout
	case eHostUnreach:
		k = Resolve
	case eConnRefused:
		k = Connect
	case eInval:
		k = BadURL
	case eProto:
		k = Partial
	case eNotSup:
		k, msg = Denied, "wasmsand: this sandbox has no network"
	}
	return &Error{Kind: k, Msg: msg}
}

// Do sends req and returns the response head; the body is read from
// Response.Body, which the caller must close.
func Do(req *Request) (*Response, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", req.Method, req.URL)
	for _, f := range req.Header {
		if strings.ContainsAny(f.Name+f.Value, "\r\n") {
			return nil, &Error{Kind: BadURL, Msg: "header contains a line break"}
		}
		fmt.Fprintf(&b, "%s: %s\n", f.Name, f.Value)
	}
	if req.Timeout > 0 {
		fmt.Fprintf(&b, ":timeout-ms: %d\n", max(req.Timeout.Milliseconds(), 1))
	}
	head := []byte(b.String())
	bodyLen := int64(0)
	if req.Body != nil {
		bodyLen = req.ContentLength
		if bodyLen == 0 {
			bodyLen = -1
		}
	}
	var h uint32
	if e := httpOpen(unsafe.Pointer(&head[0]), uint32(len(head)), bodyLen, unsafe.Pointer(&h)); e != 0 {
		return nil, fail(e)
	}
	if req.Body != nil {
		buf := make([]byte, chunk)
		for {
			n, err := req.Body.Read(buf)
			if n > 0 {
				if e := httpWrite(h, unsafe.Pointer(&buf[0]), uint32(n)); e != 0 {
					err := fail(e)
					httpClose(h)
					return nil, err
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				httpClose(h)
				return nil, &Error{Kind: Failed, Msg: err.Error()}
			}
		}
	}
	var n uint32
	if e := httpWait(h, unsafe.Pointer(&n)); e != 0 {
		err := fail(e)
		httpClose(h)
		return nil, err
	}
	hb := make([]byte, n+1)
	if e := httpHead(h, unsafe.Pointer(&hb[0]), n); e != 0 {
		err := fail(e)
		httpClose(h)
		return nil, err
	}
	r, err := parseHead(string(hb[:n]))
	if err != nil {
		httpClose(h)
		return nil, err
	}
	r.Body = &body{h: h}
	return r, nil
}

type body struct {
	h      uint32
	eof    bool
	closed bool
}

func (b *body) Read(p []byte) (int, error) {
	if b.eof || b.closed {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	var n uint32
	if e := httpRead(b.h, unsafe.Pointer(&p[0]), uint32(len(p)), unsafe.Pointer(&n)); e != 0 {
		return 0, fail(e)
	}
	if n == 0 {
		b.eof = true
		return 0, io.EOF
	}
	return int(n), nil
}

func (b *body) Close() error {
	if !b.closed {
		b.closed = true
		httpClose(b.h)
	}
	return nil
}

// parseHead parses "HTTP/1.1 200 OK\nName: value\n...".
func parseHead(b string) (*Response, error) {
	lines := strings.Split(strings.TrimRight(b, "\n"), "\n")
	proto, rest, _ := strings.Cut(lines[0], " ")
	code, _, _ := strings.Cut(rest, " ")
	n, err := strconv.Atoi(code)
	if err != nil {
		return nil, &Error{Kind: Failed, Msg: fmt.Sprintf("bad response head %q", lines[0])}
	}
	r := &Response{Proto: proto, StatusCode: n, Status: rest}
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, ":")
		r.Header = append(r.Header, Field{k, strings.TrimSpace(v)})
	}
	return r, nil
}
