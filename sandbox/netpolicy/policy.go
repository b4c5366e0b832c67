package netpolicy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Defaults for Policy fields left zero.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxRequests      = 1000
	DefaultMaxResponseBytes = 1 << 30
	DefaultMaxRequestBytes  = 64 << 20
)

// Policy is what a sandbox may reach. The zero value denies everything.
type Policy struct {
	// Rules allow requests; a request no rule matches is denied. The
	// first matching rule supplies the injected headers.
	Rules []Rule
	// Headers add headers to allowed requests under their prefixes,
	// after the matching rule's own.
	Headers []HeaderRule
	// MaxRequests caps the requests of one run (every redirect hop is a
	// request); 0 means DefaultMaxRequests, negative means none.
	MaxRequests int
	// MaxResponseBytes caps the response body bytes of one run; 0 means
	// DefaultMaxResponseBytes, negative means no cap.
	MaxResponseBytes int64
	// MaxRequestBytes caps the request body bytes of one run; 0 means
	// DefaultMaxRequestBytes, negative means no cap.
	MaxRequestBytes int64
	// Timeout bounds each request, from sending it to the last byte of
	// its response; 0 means DefaultTimeout.
	Timeout time.Duration
	// Transport carries the requests the policy allowed; without one
	// they fail with ErrConnect. A sandbox's platform sets it when it is
	// nil: net/http natively (package platform/native/nethttp), the
	// host's fetch() under js (platform/hostwasm/fetch). The
	// private-address check is the transport's duty (see AllowsPrivate).
	Transport Transport
}

// The errors requests fail with; match them with errors.Is.
var (
	// ErrDenied: no rule allows the request, or it would reach a
	// private address no rule names.
	ErrDenied = errors.New("network access is not allowed")
	// ErrBudget: the run's request or byte budget is spent.
	ErrBudget = errors.New("network budget exhausted")
	// ErrTimeout: the request took longer than Policy.Timeout.
	ErrTimeout = errors.New("request timed out")
	// ErrResolve: the host name did not resolve.
	ErrResolve = errors.New("could not resolve host")
	// ErrConnect: the connection was refused or failed.
	ErrConnect = errors.New("could not connect")
	// ErrBadURL: the URL is not an absolute http or https URL.
	ErrBadURL = errors.New("bad URL")
)

// Error is a refused or failed request.
type Error struct {
	Kind   error  // one of the Err values above, or nil for a transport error
	URL    string // the request's URL
	Detail string // what happened, for messages
	Err    error  // the underlying error, if any
}

func (e *Error) Error() string {
	if e.Kind == nil && strings.HasPrefix(e.Detail, "wasmsand: ") {
		return e.Detail
	}
	var b strings.Builder
	if e.Kind == ErrDenied {
		fmt.Fprintf(&b, "wasmsand: network access to %s is not allowed", e.URL)
		if e.Detail != "" {
			b.WriteString(" (" + e.Detail + ")")
		}
		return b.String()
	}
	if e.Kind != nil {
		b.WriteString(e.Kind.Error())
	} else {
		b.WriteString("request failed")
	}
	if e.Detail != "" {
		b.WriteString(": " + e.Detail)
	}
	return b.String()
}

func (e *Error) Unwrap() []error { return []error{e.Kind, e.Err} }

// withDefaults fills zero fields.
func (p Policy) withDefaults() Policy {
	if p.Timeout <= 0 {
		p.Timeout = DefaultTimeout
	}
	if p.MaxRequests == 0 {
		p.MaxRequests = DefaultMaxRequests
	}
	if p.MaxResponseBytes == 0 {
		p.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if p.MaxRequestBytes == 0 {
		p.MaxRequestBytes = DefaultMaxRequestBytes
	}
	return p
}

// Check returns the first rule that allows method on u, or an *Error of
// kind ErrDenied or ErrBadURL.
func (p *Policy) Check(method string, u *url.URL) (*Rule, error) {
	if u == nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		s := ""
		if u != nil {
			s = u.String()
		}
		return nil, &Error{Kind: ErrBadURL, URL: s, Detail: "only absolute http and https URLs are supported"}
	}
	for i := range p.Rules {
		if p.Rules[i].Match(method, u) {
			return &p.Rules[i], nil
		}
	}
	detail := ""
	for i := range p.Rules {
		if p.Rules[i].Match("", u) {
			detail = "method " + method + " is not allowed"
			break
		}
	}
	return nil, &Error{Kind: ErrDenied, URL: redact(u), Detail: detail}
}

// redact drops the user information of u.
func redact(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// Session makes the requests of one run under a policy and its budget.
// It is safe for concurrent use.
type Session struct {
	p Policy

	mu        sync.Mutex
	requests  int
	respBytes int64
	reqBytes  int64
	reqOver   bool // a request body was cut at the budget
}

// NewSession starts a run's budget under p.
func NewSession(p Policy) *Session {
	return &Session{p: p.withDefaults()}
}

// Used reports the requests and bytes spent so far.
func (s *Session) Used() (requests int, requestBytes, responseBytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests, s.reqBytes, s.respBytes
}

// Request is one HTTP request a guest makes.
type Request struct {
	Method string
	URL    string
	Header textproto.MIMEHeader
	// Body, if not nil, is read to its end and sent; its bytes count
	// against the request byte budget.
	Body io.Reader
	// ContentLength is the body's length if known, else -1 (chunked).
	ContentLength int64
	// Timeout, if positive and shorter than the policy's, bounds this
	// request instead.
	Timeout time.Duration
}

// Response is a response whose body is still to be read.
type Response struct {
	Proto      string // "HTTP/1.1"; may be empty where the host does not say
	StatusCode int
	Status     string // "200 OK"
	Header     textproto.MIMEHeader
	// ContentLength is the body's length, or -1 if unknown.
	ContentLength int64
	// Body reads the body, counting it against the response budget. It
	// fails with an *Error of kind ErrBudget past the budget and
	// ErrTimeout past the request's deadline. The caller must close it.
	Body io.ReadCloser
}

// Transport carries requests the policy allowed. Its RoundTrip sends req
// (the method canonical, the URL absolute, the headers final) and returns
// the response head without following redirects; a request's context
// ends when its timeout does. AllowsPrivate(ctx) tells whether the
// request may reach loopback, private and link-local addresses.
type Transport interface {
	RoundTrip(ctx context.Context, req *Request) (*Response, error)
}

// AllowsPrivate reports whether the request whose context is ctx was
// allowed by a rule that names an address (or localhost), which lets it
// reach loopback, private and link-local addresses.
func AllowsPrivate(ctx context.Context) bool {
	r, _ := ctx.Value(ruleKey{}).(*Rule)
	return r != nil && r.namesAddress()
}

// Do checks req against the policy and the budget, adds the matching
// rule's headers and sends it. Redirects are not followed.
func (s *Session) Do(ctx context.Context, req *Request) (*Response, error) {
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, &Error{Kind: ErrBadURL, URL: req.URL, Detail: err.Error(), Err: err}
	}
	method := strings.ToUpper(req.Method)
	if method == "" {
		method = "GET"
	}
	if !validToken(method) {
		return nil, &Error{Kind: ErrBadURL, URL: req.URL, Detail: fmt.Sprintf("bad method %q", method)}
	}
	rule, err := s.p.Check(method, u)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.p.MaxRequests > 0 && s.requests >= s.p.MaxRequests {
		s.mu.Unlock()
		return nil, &Error{Kind: ErrBudget, URL: redact(u), Detail: fmt.Sprintf("%d requests allowed per run", s.p.MaxRequests)}
	}
	if req.Body != nil && req.ContentLength > 0 && s.p.MaxRequestBytes > 0 && s.reqBytes+req.ContentLength > s.p.MaxRequestBytes {
		// A body of known length that cannot fit is refused before a
		// byte is sent.
		s.mu.Unlock()
		return nil, &Error{Kind: ErrBudget, URL: redact(u), Detail: fmt.Sprintf("request bodies may total %d bytes per run", s.p.MaxRequestBytes)}
	}
	s.requests++
	s.mu.Unlock()

	timeout := s.p.Timeout
	if req.Timeout > 0 && req.Timeout < timeout {
		timeout = req.Timeout
	}
	rctx, cancel := context.WithTimeoutCause(ctx, timeout, &timeoutError{timeout})
	rctx = context.WithValue(rctx, ruleKey{}, rule)
	out := &Request{Method: method, URL: u.String(), Header: textproto.MIMEHeader{}, ContentLength: req.ContentLength, Timeout: timeout}
	if req.Body != nil {
		out.Body = &countingReader{r: req.Body, s: s, url: redact(u)}
	} else {
		out.ContentLength = 0
	}
	for k, vs := range req.Header {
		k = textproto.CanonicalMIMEHeaderKey(k)
		if k == "Host" || strings.HasPrefix(strings.ToLower(k), "js.fetch:") {
			// The host is the URL's: a rule is not bypassed by Host; and
			// the fetch() transport's pseudo-headers are not the guest's.
			continue
		}
		for _, v := range vs {
			if strings.ContainsAny(k+v, "\r\n\x00") || !validToken(k) {
				cancel()
				return nil, &Error{Kind: ErrBadURL, URL: redact(u), Detail: fmt.Sprintf("bad header %q", k)}
			}
			out.Header.Add(k, v)
		}
	}
	inject := func(h textproto.MIMEHeader) {
		for k, vs := range h {
			k = textproto.CanonicalMIMEHeaderKey(k)
			out.Header.Del(k)
			for _, v := range vs {
				out.Header.Add(k, v)
			}
		}
	}
	inject(rule.Header)
	for i := range s.p.Headers {
		if s.p.Headers[i].Prefix.Match("", u) {
			inject(s.p.Headers[i].Header)
		}
	}
	t := s.p.Transport
	if t == nil {
		cancel()
		return nil, &Error{Kind: ErrConnect, URL: redact(u), Detail: "no transport to send it with: set Policy.Transport (a sandbox's platform sets it)"}
	}
	resp, err := t.RoundTrip(rctx, out)
	if err != nil {
		cancel()
		return nil, s.classify(rctx, redact(u), err)
	}
	resp.Body = &countingBody{rc: resp.Body, s: s, ctx: rctx, cancel: cancel, url: redact(u)}
	return resp, nil
}

type ruleKey struct{}

// classify turns a transport error into an *Error.
func (s *Session) classify(ctx context.Context, u string, err error) error {
	var te *timeoutError
	if errors.As(context.Cause(ctx), &te) {
		return &Error{Kind: ErrTimeout, URL: u, Detail: fmt.Sprintf("after %d milliseconds", te.d.Milliseconds()), Err: err}
	}
	var pe *Error
	if errors.As(err, &pe) {
		pe.URL = u
		return pe
	}
	s.mu.Lock()
	over := s.reqOver
	s.mu.Unlock()
	if over {
		// The transport may report the connection it dropped rather than
		// the body reader's error that made it drop it.
		return &Error{Kind: ErrBudget, URL: u, Detail: fmt.Sprintf("request bodies may total %d bytes per run", s.p.MaxRequestBytes), Err: err}
	}
	return &Error{URL: u, Detail: err.Error(), Err: err}
}

// countingReader counts request body bytes against the budget.
type countingReader struct {
	r   io.Reader
	s   *Session
	url string
}

// Bytes past the budget never reach the transport: the read that crosses
// it hands on only what fits, with the budget error, so the server never
// sees a whole body and cannot answer it.
func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.s.mu.Lock()
	limit := c.s.p.MaxRequestBytes
	over := limit > 0 && c.s.reqBytes+int64(n) > limit
	if over {
		n = int(max(limit-c.s.reqBytes, 0))
		c.s.reqOver = true
	}
	c.s.reqBytes += int64(n)
	c.s.mu.Unlock()
	if over {
		return n, &Error{Kind: ErrBudget, URL: c.url, Detail: fmt.Sprintf("request bodies may total %d bytes per run", limit)}
	}
	return n, err
}

// countingBody counts response body bytes against the budget.
type countingBody struct {
	rc     io.ReadCloser
	s      *Session
	ctx    context.Context
	cancel context.CancelFunc
	url    string
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.rc.Read(p)
	c.s.mu.Lock()
	c.s.respBytes += int64(n)
	over := c.s.p.MaxResponseBytes > 0 && c.s.respBytes > c.s.p.MaxResponseBytes
	c.s.mu.Unlock()
	if over {
		return 0, &Error{Kind: ErrBudget, URL: c.url, Detail: fmt.Sprintf("responses may total %d bytes per run", c.s.p.MaxResponseBytes)}
	}
	if err != nil && err != io.EOF {
		return n, c.s.classify(c.ctx, c.url, err)
	}
	return n, err
}

func (c *countingBody) Close() error {
	err := c.rc.Close()
	c.cancel()
	return err
}

// Check reports whether the policy allows method on rawURL, without
// sending anything or spending budget: nil, or an *Error of kind
// ErrDenied or ErrBadURL.
func (s *Session) Check(method, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return &Error{Kind: ErrBadURL, URL: rawURL, Detail: err.Error(), Err: err}
	}
	_, err = s.p.Check(strings.ToUpper(method), u)
	return err
}

// timeoutError is the cause of a request's context when it times out.
type timeoutError struct{ d time.Duration }

func (e *timeoutError) Error() string { return fmt.Sprintf("request timed out after %v", e.d) }
