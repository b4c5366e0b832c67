package netpolicy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
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
	// MaxResponseBytes caps the response body bytes of one run.
	MaxResponseBytes int64
	// MaxRequestBytes caps the request body bytes of one run.
	MaxRequestBytes int64
	// Timeout bounds each request, from sending it to the last byte of
	// its response.
	Timeout time.Duration
	// Transport, if set, carries the requests instead of net/http's
	// (tests; hosts with a transport of their own). The private-address
	// check is the transport's duty then.
	Transport http.RoundTripper
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
}

// NewSession starts a run's budget under p.
func NewSession(p Policy) *Session {
	return &Session{p: p.withDefaults()}
}

// Shared transports, one for rules that may reach private addresses and
// one for the rest, so a connection dialed to a private address is never
// reused by a request whose rule does not allow that.
var (
	transportOnce                 sync.Once
	publicTransport, privateTrans *http.Transport
)

func newTransport() *http.Transport {
	t := &http.Transport{
		Proxy:               nil, // the host's proxy settings are not the guest's
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        16,
		IdleConnTimeout:     30 * time.Second,
		TLSHandshakeTimeout: 30 * time.Second,
		DisableCompression:  true, // the guest asks for compression itself
	}
	if runtime.GOOS != "js" {
		// Under js, net/http's transport is the host's fetch(), which
		// resolves names itself; natively we dial what we checked.
		t.DialContext = (&guardDialer{}).DialContext
	}
	return t
}

// client returns the client for requests under rule.
func (s *Session) clientFor(rule *Rule) *http.Client {
	rt := s.p.Transport
	if rt == nil {
		transportOnce.Do(func() { publicTransport, privateTrans = newTransport(), newTransport() })
		rt = publicTransport
		if rule.namesAddress() {
			rt = privateTrans
		}
	}
	return &http.Client{
		Transport: rt,
		// Redirects are the guest's to follow: each hop is a request of
		// its own, checked again.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
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
	Header http.Header
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
	*http.Response
	// Body reads the body, counting it against the response budget. It
	// fails with an *Error of kind ErrBudget past the budget and
	// ErrTimeout past the request's deadline.
	Body io.ReadCloser
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
		method = http.MethodGet
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
	s.requests++
	s.mu.Unlock()

	timeout := s.p.Timeout
	if req.Timeout > 0 && req.Timeout < timeout {
		timeout = req.Timeout
	}
	rctx, cancel := context.WithTimeoutCause(ctx, timeout, &timeoutError{timeout})
	rctx = context.WithValue(rctx, ruleKey{}, rule)
	var body io.Reader
	if req.Body != nil {
		body = &countingReader{r: req.Body, s: s, url: redact(u)}
	}
	hr, err := http.NewRequestWithContext(rctx, method, u.String(), body)
	if err != nil {
		cancel()
		return nil, &Error{Kind: ErrBadURL, URL: req.URL, Detail: err.Error(), Err: err}
	}
	if req.Body != nil {
		hr.ContentLength = req.ContentLength
		if req.ContentLength == 0 {
			hr.Body = http.NoBody
		}
	}
	for k, vs := range req.Header {
		if strings.EqualFold(k, "Host") && len(vs) > 0 {
			continue // the host is the URL's: a rule is not bypassed by Host
		}
		for _, v := range vs {
			hr.Header.Add(k, v)
		}
	}
	inject := func(h http.Header) {
		for k, vs := range h {
			hr.Header.Del(k)
			for _, v := range vs {
				hr.Header.Add(k, v)
			}
		}
	}
	inject(rule.Header)
	for i := range s.p.Headers {
		if s.p.Headers[i].Prefix.Match("", u) {
			inject(s.p.Headers[i].Header)
		}
	}
	if _, ok := hr.Header["User-Agent"]; !ok {
		hr.Header.Set("User-Agent", "") // net/http sends none then
	}
	if runtime.GOOS == "js" {
		// net/http's fetch() transport reads these pseudo-headers: never
		// let fetch follow a redirect unchecked, never send the page's
		// cookies or credentials.
		for k := range hr.Header {
			if strings.HasPrefix(strings.ToLower(k), "js.fetch:") {
				delete(hr.Header, k)
			}
		}
		hr.Header.Set("js.fetch:redirect", "manual")
		hr.Header.Set("js.fetch:credentials", "omit")
	}
	resp, err := s.clientFor(rule).Do(hr)
	if err != nil {
		cancel()
		return nil, s.classify(rctx, redact(u), err)
	}
	if resp.StatusCode == 0 {
		// A browser's fetch() answers a redirect it must not follow with
		// an opaque response that hides where it leads.
		resp.Body.Close()
		cancel()
		return nil, &Error{URL: redact(u), Detail: "wasmsand: " + redact(u) + " redirects, and the browser hides where to"}
	}
	return &Response{Response: resp, Body: &countingBody{rc: resp.Body, s: s, ctx: rctx, cancel: cancel, url: redact(u)}}, nil
}

type ruleKey struct{}

// classify turns a transport error into an *Error.
func (s *Session) classify(ctx context.Context, u string, err error) error {
	var pe *Error
	if errors.As(err, &pe) {
		pe.URL = u
		return pe
	}
	var te *timeoutError
	if errors.As(context.Cause(ctx), &te) {
		return &Error{Kind: ErrTimeout, URL: u, Detail: fmt.Sprintf("after %d milliseconds", te.d.Milliseconds()), Err: err}
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return &Error{Kind: ErrResolve, URL: u, Detail: dnsErr.Name, Err: err}
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return &Error{Kind: ErrConnect, URL: u, Detail: opErr.Err.Error(), Err: err}
	}
	if runtime.GOOS == "js" && strings.Contains(err.Error(), "fetch") {
		// fetch() says only "TypeError: Failed to fetch": a refused
		// connection, a failed lookup and CORS look alike.
		return &Error{Kind: ErrConnect, URL: u, Detail: err.Error(), Err: err}
	}
	return &Error{URL: u, Detail: err.Error(), Err: err}
}

// countingReader counts request body bytes against the budget.
type countingReader struct {
	r   io.Reader
	s   *Session
	url string
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.s.mu.Lock()
	c.s.reqBytes += int64(n)
	over := c.s.p.MaxRequestBytes > 0 && c.s.reqBytes > c.s.p.MaxRequestBytes
	c.s.mu.Unlock()
	if over {
		return n, &Error{Kind: ErrBudget, URL: c.url, Detail: fmt.Sprintf("request bodies may total %d bytes per run", c.s.p.MaxRequestBytes)}
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
