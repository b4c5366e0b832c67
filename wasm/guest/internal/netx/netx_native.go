//go:build !wasip1

package netx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
)

var client = &http.Client{
	Transport: &http.Transport{Proxy: nil, DisableCompression: true},
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

// Do sends req and returns the response head; the body is read from
// Response.Body, which the caller must close.
func Do(req *Request) (*Response, error) {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if req.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, req.URL, req.Body)
	if err != nil {
		cancel()
		return nil, &Error{Kind: BadURL, Msg: err.Error()}
	}
	if req.Body != nil {
		hr.ContentLength = req.ContentLength
		if req.ContentLength == 0 {
			hr.Body = http.NoBody
		}
	}
	for _, f := range req.Header {
		if strings.EqualFold(f.Name, "Host") {
			hr.Host = f.Value
			continue
		}
		hr.Header.Add(f.Name, f.Value)
	}
	if _, ok := hr.Header["User-Agent"]; !ok {
		hr.Header.Set("User-Agent", "")
	}
	resp, err := client.Do(hr)
	if err != nil {
		cancel()
		return nil, classify(ctx, err)
	}
	r := &Response{Proto: resp.Proto, StatusCode: resp.StatusCode, Status: resp.Status}
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range resp.Header[k] {
			r.Header = append(r.Header, Field{k, v})
		}
	}
	if resp.ContentLength >= 0 && resp.Header.Get("Content-Length") == "" && req.Method != http.MethodHead && resp.TransferEncoding == nil {
		r.Header = append(r.Header, Field{"Content-Length", fmt.Sprint(resp.ContentLength)})
	}
	if len(resp.TransferEncoding) > 0 && resp.Header.Get("Transfer-Encoding") == "" {
		r.Header = append(r.Header, Field{"Transfer-Encoding", strings.Join(resp.TransferEncoding, ", ")})
		sort.SliceStable(r.Header, func(i, j int) bool { return r.Header[i].Name < r.Header[j].Name })
	}
	r.Body = &body{resp: resp, ctx: ctx, cancel: cancel}
	return r, nil
}

type body struct {
	resp   *http.Response
	ctx    context.Context
	cancel context.CancelFunc
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.resp.Body.Read(p)
	if err != nil && err.Error() != "EOF" {
		return n, classify(b.ctx, err)
	}
	return n, err
}

func (b *body) Close() error {
	err := b.resp.Body.Close()
	b.cancel()
	return err
}

func classify(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Kind: Timeout, Msg: "request timed out"}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Kind: Partial, Msg: err.Error()}
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return &Error{Kind: Resolve, Msg: "could not resolve host: " + dnsErr.Name}
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return &Error{Kind: Connect, Msg: "could not connect: " + opErr.Err.Error()}
	}
	return &Error{Kind: Failed, Msg: err.Error()}
}
