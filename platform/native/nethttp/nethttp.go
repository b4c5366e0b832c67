// Package nethttp is the network of native sandboxes: a
// netpolicy.Transport over net/http whose dialer resolves names itself,
// refuses private addresses the request's rule does not name, and dials
// the very address it checked. Package platform/native gives it to
// every sandbox; the js/wasm core uses the host's fetch() instead
// (package platform/hostwasm/fetch), which is why it is a package of its
// own: net/http would add megabytes to that core.
package nethttp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/textproto"
	"strings"
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
)

// netpolicy.Transport is net/http over a dialer that resolves names itself, refuses
// private addresses the request's rule does not name, and dials the very
// address it checked. Its connection pools are shared by every sandbox.
var Transport netpolicy.Transport = &netTransport{}

// netTransport keeps two connection pools, one for requests that may
// reach private addresses and one for the rest, so a connection dialed to
// a private address is never reused by a request whose rule does not
// allow that.
type netTransport struct {
	once            sync.Once
	public, private *http.Client
}

func newClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:               nil, // the host's proxy settings are not the guest's
			DialContext:         guardDial,
			ForceAttemptHTTP2:   true,
			MaxIdleConns:        16,
			IdleConnTimeout:     30 * time.Second,
			TLSHandshakeTimeout: 30 * time.Second,
			DisableCompression:  true, // the guest asks for compression itself
		},
		// Redirects are the guest's to follow: each hop is a request of
		// its own, checked again.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func (t *netTransport) RoundTrip(ctx context.Context, req *netpolicy.Request) (*netpolicy.Response, error) {
	t.once.Do(func() { t.public, t.private = newClient(), newClient() })
	c := t.public
	if netpolicy.AllowsPrivate(ctx) {
		c = t.private
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, req.URL, req.Body)
	if err != nil {
		return nil, &netpolicy.Error{Kind: netpolicy.ErrBadURL, Detail: err.Error(), Err: err}
	}
	if req.Body != nil {
		hr.ContentLength = req.ContentLength
		if req.ContentLength == 0 {
			hr.Body = http.NoBody
		}
	}
	for k, vs := range req.Header {
		hr.Header[k] = append([]string(nil), vs...)
	}
	if _, ok := hr.Header["User-Agent"]; !ok {
		hr.Header.Set("User-Agent", "") // net/http sends none then
	}
	resp, err := c.Do(hr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err // the caller tells a timeout from the context
		}
		return nil, netError(err)
	}
	out := &netpolicy.Response{
		Proto:         resp.Proto,
		StatusCode:    resp.StatusCode,
		Status:        resp.Status,
		Header:        textproto.MIMEHeader(resp.Header),
		ContentLength: resp.ContentLength,
		Body:          resp.Body,
	}
	if resp.ContentLength >= 0 && out.Header.Get("Content-Length") == "" && req.Method != "HEAD" && resp.TransferEncoding == nil {
		out.Header.Set("Content-Length", fmt.Sprint(resp.ContentLength))
	}
	if len(resp.TransferEncoding) > 0 && out.Header.Get("Transfer-Encoding") == "" {
		// net/http takes it out of the header; curl -i shows it.
		out.Header.Set("Transfer-Encoding", strings.Join(resp.TransferEncoding, ", "))
	}
	return out, nil
}

// netError classifies a net/http error.
func netError(err error) error {
	var pe *netpolicy.Error
	if errors.As(err, &pe) {
		return pe
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return &netpolicy.Error{Kind: netpolicy.ErrResolve, Detail: dnsErr.Name, Err: err}
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return &netpolicy.Error{Kind: netpolicy.ErrConnect, Detail: opErr.Err.Error(), Err: err}
	}
	return err
}

// lookupNetIP resolves names for guardDial.
var lookupNetIP = net.DefaultResolver.LookupNetIP

// guardDial resolves a name itself, refuses private addresses unless the
// request's rule names them, and dials the very address it checked, so a
// second, different answer from DNS (rebinding) is never used.
func guardDial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	allowPrivate := netpolicy.AllowsPrivate(ctx)
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		addrs = []netip.Addr{a}
	} else {
		ips, err := lookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, err
		}
		addrs = ips
	}
	var firstErr error
	var d net.Dialer
	for _, a := range addrs {
		if netpolicy.IsPrivate(a) && !allowPrivate {
			if firstErr == nil {
				firstErr = &netpolicy.Error{Kind: netpolicy.ErrDenied, Detail: fmt.Sprintf("%s is a private address", a.Unmap())}
			}
			continue
		}
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return nil, firstErr
}
