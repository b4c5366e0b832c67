package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

// Guests make HTTP requests (curl, wget) through these functions of the
// "wasmsand" host module, all returning a WASI errno. Each request goes
// through the sandbox's network policy (Options.Network): nothing is
// allowed unless a rule allows it, redirects are not followed (a guest
// that follows one makes a new request, checked again), and the headers a
// rule injects are added by the host and never shown to the guest.
//
//	http_open(head, head_len: i32, body_len: i64, handle_out: i32) -> errno
//	        starts a request. head is "METHOD URL\n" then "Name: value\n"
//	        lines; a line ":timeout-ms: N" (N decimal) asks for a timeout
//	        shorter than the policy's. body_len is the length of the body the guest will
//	        write, 0 for none, -1 if unknown (sent chunked). The policy is
//	        checked at once: EACCES if no rule allows it.
//	http_write(handle, buf, len: i32) -> errno
//	        sends the next chunk of the request body; blocks until the
//	        transport took it.
//	http_wait(handle, head_len_out: i32) -> errno
//	        ends the request body and waits for the response head, whose
//	        length it stores at head_len_out.
//	http_head(handle, buf, buf_len: i32) -> errno
//	        copies the response head: "HTTP/1.1 200 OK\n" then
//	        "Name: value\n" lines, names sorted. EINVAL if buf_len is short.
//	http_read(handle, buf, len, n_out: i32) -> errno
//	        reads the next chunk of the response body into buf and stores
//	        its length at n_out: 0 at the end.
//	http_close(handle: i32) -> errno
//	        ends the request and frees the handle.
//	http_error(buf, buf_len, len_out: i32) -> errno
//	        copies the message of this process's last failed http_* call
//	        (for example "wasmsand: network access to http://x/ is not
//	        allowed"), at most buf_len bytes, and stores its full length.
//
// Failures: EACCES the policy denies the request (or a private address
// no rule names); EDQUOT the run's budget of requests or bytes is spent;
// ETIMEDOUT the request outlived its timeout; EHOSTUNREACH the name did
// not resolve; ECONNREFUSED the connection failed; EPROTO the response
// body ended before its Content-Length; ECONNRESET the transfer broke
// otherwise; EINVAL a malformed request; EBADF an unknown handle; ENOTSUP the
// sandbox has no network. Bodies move in chunks as large as the guest's
// buffer, so a large download never sits in memory whole.
const (
	eConnRefused = vfs.Errno(14)
	eConnReset   = vfs.Errno(15)
	eDQuot       = vfs.Errno(19)
	eHostUnreach = vfs.Errno(23)
	eProto       = vfs.Errno(65)
	eTimedOut    = vfs.Errno(73)
)

func init() {
	for _, n := range []string{"http_open", "http_write", "http_wait", "http_head", "http_read", "http_close", "http_error"} {
		spawnFuncs[n] = true
	}
}

func netHostFuncs() []wasm.HostFunc {
	i32, i64 := wasm.I32, wasm.I64
	r := []wasm.ValueType{i32}
	return []wasm.HostFunc{
		{Name: "http_open", Params: []wasm.ValueType{i32, i32, i64, i32}, Results: r, Fn: httpOpen, NonBlocking: true},
		{Name: "http_write", Params: []wasm.ValueType{i32, i32, i32}, Results: r, Fn: httpWrite},
		{Name: "http_wait", Params: []wasm.ValueType{i32, i32}, Results: r, Fn: httpWait},
		{Name: "http_head", Params: []wasm.ValueType{i32, i32, i32}, Results: r, Fn: httpHead, NonBlocking: true},
		{Name: "http_read", Params: []wasm.ValueType{i32, i32, i32, i32}, Results: r, Fn: httpRead},
		{Name: "http_close", Params: []wasm.ValueType{i32}, Results: r, Fn: httpClose, NonBlocking: true},
		{Name: "http_error", Params: []wasm.ValueType{i32, i32, i32}, Results: r, Fn: httpError, NonBlocking: true},
	}
}

// netState is the sandbox's network policy, which AllowNetwork extends.
type netState struct {
	mu     sync.Mutex
	policy netpolicy.Policy
}

// AllowNetwork adds rules to the sandbox's network policy; they apply
// from the next Run on.
func (s *Sandbox) AllowNetwork(rules ...netpolicy.Rule) {
	s.net.mu.Lock()
	defer s.net.mu.Unlock()
	s.net.policy.Rules = append(append([]netpolicy.Rule(nil), s.net.policy.Rules...), rules...)
}

// runNet is a Run's network session, made on first use.
type runNet struct {
	once sync.Once
	sess *netpolicy.Session
}

func (r *runState) netSession() *netpolicy.Session {
	r.net.once.Do(func() {
		r.s.net.mu.Lock()
		p := r.s.net.policy
		r.s.net.mu.Unlock()
		r.net.sess = netpolicy.NewSession(p)
	})
	return r.net.sess
}

// guestNet is one process's open requests.
type guestNet struct {
	mu      sync.Mutex
	next    int32
	calls   map[int32]*netCall
	lastErr string
}

// netCall is one request in flight.
type netCall struct {
	body *io.PipeWriter // nil without a body
	done chan struct{}  // closed when resp or err is set
	resp *netpolicy.Response
	err  error
	head []byte
	sent bool // the body is ended
}

// closeAll ends every request a process left open.
func (n *guestNet) closeAll() {
	n.mu.Lock()
	calls := n.calls
	n.calls = nil
	n.mu.Unlock()
	for _, c := range calls {
		c.close()
	}
}

func (c *netCall) close() {
	if c.body != nil {
		c.body.CloseWithError(errors.New("request abandoned"))
	}
	go func() {
		<-c.done
		if c.resp != nil {
			c.resp.Body.Close()
		}
	}()
}

// netErrno maps a request error to an errno and remembers its message.
func (g *guestProc) netFail(err error) vfs.Errno {
	var e vfs.Errno
	switch {
	case errors.As(err, &e):
	case errors.Is(err, netpolicy.ErrDenied):
		e = vfs.EACCES
	case errors.Is(err, netpolicy.ErrBudget):
		e = eDQuot
	case errors.Is(err, netpolicy.ErrTimeout):
		e = eTimedOut
	case errors.Is(err, netpolicy.ErrResolve):
		e = eHostUnreach
	case errors.Is(err, netpolicy.ErrConnect):
		e = eConnRefused
	case errors.Is(err, io.ErrUnexpectedEOF):
		e = eProto
	case errors.Is(err, netpolicy.ErrBadURL):
		e = vfs.EINVAL
	default:
		e = eConnReset
	}
	g.net.mu.Lock()
	g.net.lastErr = err.Error()
	g.net.mu.Unlock()
	return e
}

func netGuest(ctx context.Context) *guestProc {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	return g
}

func (g *guestProc) call(h int32) *netCall {
	g.net.mu.Lock()
	defer g.net.mu.Unlock()
	return g.net.calls[h]
}

// parseHead reads "METHOD URL\nName: value\n...".
func parseHead(b []byte) (method, url string, h textproto.MIMEHeader, timeout time.Duration, err error) {
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(nil, len(b)+1)
	if !sc.Scan() {
		return "", "", nil, 0, errors.New("empty request")
	}
	method, url, ok := strings.Cut(sc.Text(), " ")
	if !ok || method == "" || url == "" || strings.IndexFunc(url, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return "", "", nil, 0, fmt.Errorf("bad request line %q", sc.Text())
	}
	h = textproto.MIMEHeader{}
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if v, ok := strings.CutPrefix(line, ":timeout-ms:"); ok {
			ms, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || ms <= 0 {
				return "", "", nil, 0, fmt.Errorf("bad timeout %q", v)
			}
			timeout = time.Duration(min(ms, 1<<40)) * time.Millisecond
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return "", "", nil, 0, fmt.Errorf("bad header line %q", line)
		}
		h.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	return method, url, h, timeout, nil
}

func httpOpen(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g := netGuest(ctx)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	b, ok := mem.Read(uint32(stack[0]), uint32(stack[1]))
	if !ok {
		errnoResult(stack, efault)
		return
	}
	bodyLen, hp := int64(stack[2]), uint32(stack[3])
	method, url, hdr, timeout, err := parseHead(b)
	if err != nil {
		errnoResult(stack, g.netFail(&netpolicy.Error{Kind: netpolicy.ErrBadURL, Detail: err.Error()}))
		return
	}
	sess := g.run.netSession()
	if err := sess.Check(method, url); err != nil {
		errnoResult(stack, g.netFail(err))
		return
	}
	c := &netCall{done: make(chan struct{})}
	req := &netpolicy.Request{Method: method, URL: url, Header: hdr, ContentLength: bodyLen, Timeout: timeout}
	if bodyLen != 0 {
		pr, pw := io.Pipe()
		c.body, req.Body = pw, pr
		defer func() {
			go func() {
				<-c.done
				pr.CloseWithError(errors.New("request ended"))
			}()
		}()
	}
	// The request outlives this call but not the Run.
	rctx := context.WithoutCancel(ctx)
	rctx, cancel := context.WithCancel(rctx)
	stop := context.AfterFunc(ctx, cancel)
	go func() {
		resp, err := sess.Do(rctx, req)
		if err == nil && ctx.Err() != nil {
			resp.Body.Close()
			resp, err = nil, context.Cause(ctx)
		}
		c.resp, c.err = resp, err
		if resp == nil {
			stop()
			cancel()
		} else {
			resp.Body = &stopBody{ReadCloser: resp.Body, stop: func() { stop(); cancel() }}
		}
		close(c.done)
	}()
	g.net.mu.Lock()
	if g.net.calls == nil {
		g.net.calls = map[int32]*netCall{}
	}
	g.net.next++
	h := g.net.next
	g.net.calls[h] = c
	g.net.mu.Unlock()
	if !mem.WriteUint32Le(hp, uint32(h)) {
		g.net.mu.Lock()
		delete(g.net.calls, h)
		g.net.mu.Unlock()
		c.close()
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}

// stopBody runs stop when the body is closed.
type stopBody struct {
	io.ReadCloser
	stop func()
}

func (b *stopBody) Close() error {
	err := b.ReadCloser.Close()
	b.stop()
	return err
}

// wait blocks until ch is closed or the Run ends (which ends the guest).
func wait(ctx context.Context, ch <-chan struct{}) {
	select {
	case <-ch:
	case <-ctx.Done():
		panic(context.Cause(ctx))
	}
}

func httpWrite(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g := netGuest(ctx)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	c := g.call(int32(stack[0]))
	if c == nil || c.body == nil || c.sent {
		errnoResult(stack, vfs.EBADF)
		return
	}
	b, ok := mem.Read(uint32(stack[1]), uint32(stack[2]))
	if !ok {
		errnoResult(stack, efault)
		return
	}
	b = append([]byte(nil), b...) // guest memory may move while we wait
	done := make(chan error, 1)
	go func() {
		_, err := c.body.Write(b)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			<-c.done
			if c.err != nil {
				err = c.err
			}
			errnoResult(stack, g.netFail(err))
			return
		}
	case <-ctx.Done():
		c.body.CloseWithError(context.Cause(ctx))
		panic(context.Cause(ctx))
	}
	errnoResult(stack, nil)
}

func httpWait(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g := netGuest(ctx)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	c := g.call(int32(stack[0]))
	if c == nil {
		errnoResult(stack, vfs.EBADF)
		return
	}
	if c.body != nil && !c.sent {
		c.sent = true
		c.body.Close()
	}
	wait(ctx, c.done)
	if c.err != nil {
		errnoResult(stack, g.netFail(c.err))
		return
	}
	if c.head == nil {
		c.head = formatHead(c.resp)
	}
	if !mem.WriteUint32Le(uint32(stack[1]), uint32(len(c.head))) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}

// formatHead writes a response's status line and headers.
func formatHead(r *netpolicy.Response) []byte {
	var b strings.Builder
	proto := r.Proto
	if proto == "" {
		proto = "HTTP/1.1"
	}
	fmt.Fprintf(&b, "%s %s\n", proto, r.Status)
	keys := make([]string, 0, len(r.Header))
	for k := range r.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range r.Header[k] {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	return []byte(b.String())
}

func httpHead(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g := netGuest(ctx)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	c := g.call(int32(stack[0]))
	if c == nil || c.head == nil {
		errnoResult(stack, vfs.EBADF)
		return
	}
	if uint32(len(c.head)) > uint32(stack[2]) {
		errnoResult(stack, vfs.EINVAL)
		return
	}
	if !mem.Write(uint32(stack[1]), c.head) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}

func httpRead(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g := netGuest(ctx)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	c := g.call(int32(stack[0]))
	if c == nil || c.head == nil {
		errnoResult(stack, vfs.EBADF)
		return
	}
	size := min(uint32(stack[2]), 256<<10)
	buf := make([]byte, size)
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := io.ReadAtLeast(c.resp.Body, buf, 1)
		done <- result{n, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		c.resp.Body.Close()
		panic(context.Cause(ctx))
	}
	if r.err != nil && r.n == 0 && r.err != io.EOF {
		errnoResult(stack, g.netFail(r.err))
		return
	}
	if !mem.Write(uint32(stack[1]), buf[:r.n]) || !mem.WriteUint32Le(uint32(stack[3]), uint32(r.n)) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}

func httpClose(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g := netGuest(ctx)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	g.net.mu.Lock()
	c := g.net.calls[int32(stack[0])]
	delete(g.net.calls, int32(stack[0]))
	g.net.mu.Unlock()
	if c == nil {
		errnoResult(stack, vfs.EBADF)
		return
	}
	c.close()
	errnoResult(stack, nil)
}

func httpError(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g := netGuest(ctx)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	g.net.mu.Lock()
	msg := []byte(g.net.lastErr)
	g.net.mu.Unlock()
	full := len(msg)
	if n := uint32(stack[1]); uint32(len(msg)) > n {
		msg = msg[:n]
	}
	if !mem.Write(uint32(stack[0]), msg) || !mem.WriteUint32Le(uint32(stack[2]), uint32(full)) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}
