// Package netx lets guest tools make HTTP requests — what curl and wget
// need. Under wasip1 it calls the sandbox's "wasmsand" host module
// (http_open, http_write, http_wait, http_head, http_read, http_close,
// http_error), where the sandbox's network policy decides; natively it uses
// net/http, so the tools are tested on the build machine with the same
// code. Redirects are never followed here: the caller follows them, one
// request per hop.
package netx

import (
	"io"
	"strings"
	"time"
)

// Field is one header line.
type Field struct{ Name, Value string }

// Request is an HTTP request.
type Request struct {
	Method string
	URL    string
	Header []Field
	// Body, if not nil, is sent; ContentLength is its length, or -1 if
	// unknown (then it is sent chunked).
	Body          io.Reader
	ContentLength int64
	// Timeout, if positive, bounds the whole request.
	Timeout time.Duration
}

// Response is an HTTP response whose body is still to be read.
type Response struct {
	Proto      string // "HTTP/1.1"
	StatusCode int
	Status     string // "200 OK"
	Header     []Field
	Body       io.ReadCloser
}

// Get returns the first value of the header name (case-insensitive).
func (r *Response) Get(name string) string {
	for _, f := range r.Header {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Kind classifies a failed request.
type Kind int

// The kinds of Error.
const (
	Failed  Kind = iota // the transfer broke
	Denied              // the sandbox's policy refused it
	Budget              // the sandbox's network budget is spent
	Timeout             // it took longer than its timeout
	Resolve             // the host name did not resolve
	Connect             // the connection failed
	BadURL              // the request was malformed
	Partial             // the body ended before its Content-Length
)

// Error is a failed request.
type Error struct {
	Kind Kind
	Msg  string // the message, e.g. "wasmsand: network access to http://x/ is not allowed"
}

func (e *Error) Error() string { return e.Msg }
