package nethttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
)

// TestGuardDialRebinding resolves names through a resolver whose answers
// change between lookups, as a rebinding DNS server's do: whatever it
// answers, a private address is never dialed for a rule that does not
// name one, and the address dialed is one the check saw.
func TestGuardDialRebinding(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "reached\n")
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))

	var lookups atomic.Int32
	old := lookupNetIP
	defer func() { lookupNetIP = old }()
	lookupNetIP = func(ctx context.Context, network, host string) ([]netip.Addr, error) {
		n := lookups.Add(1)
		switch host {
		case "rebind.example":
			// A public answer first, loopback after: a resolver that
			// looked twice would dial the second.
			if n%2 == 1 {
				return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
			}
			return []netip.Addr{netip.MustParseAddr("192.0.2.1")}, nil
		case "mixed.example":
			return []netip.Addr{netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("127.0.0.1")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}

	for _, host := range []string{"rebind.example", "mixed.example"} {
		rule, err := netpolicy.ParseRule(fmt.Sprintf("http://%s:%s/", host, port))
		if err != nil {
			t.Fatal(err)
		}
		// 192.0.2.1 (TEST-NET-1) may not answer: a short timeout.
		s := netpolicy.NewSession(netpolicy.Policy{Transport: Transport, Rules: []netpolicy.Rule{rule}, Timeout: time.Second})
		for range 4 {
			resp, err := s.Do(context.Background(), &netpolicy.Request{Method: "GET", URL: fmt.Sprintf("http://%s:%s/", host, port)})
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				t.Fatalf("%s: reached the loopback server: %q", host, b)
			}
			if !errors.Is(err, netpolicy.ErrDenied) && !errors.Is(err, netpolicy.ErrConnect) && !errors.Is(err, netpolicy.ErrTimeout) {
				t.Errorf("%s: %v, want a denial or a failed connection", host, err)
			}
		}
	}

	// A rule that names the address lets it in.
	rule, _ := netpolicy.ParseRule(srv.URL + "/")
	s := netpolicy.NewSession(netpolicy.Policy{Transport: Transport, Rules: []netpolicy.Rule{rule}})
	resp, err := s.Do(context.Background(), &netpolicy.Request{Method: "GET", URL: srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "reached\n" {
		t.Errorf("got %q", b)
	}
}

// TestRequestBodyBudget: a body of known length over the budget is refused
// before anything is sent, and a streamed one is cut at the budget, so the
// server never receives more than the budget allows and never answers.
func TestRequestBodyBudget(t *testing.T) {
	var received atomic.Int64
	var answered atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		received.Add(n)
		if err == nil {
			answered.Add(1)
			io.WriteString(w, "took it\n")
		}
	}))
	defer srv.Close()
	rule, _ := netpolicy.ParseRule(srv.URL + "/")

	for _, known := range []bool{true, false} {
		received.Store(0)
		answered.Store(0)
		s := netpolicy.NewSession(netpolicy.Policy{Transport: Transport, Rules: []netpolicy.Rule{rule}, MaxRequestBytes: 1000})
		req := &netpolicy.Request{Method: "POST", URL: srv.URL + "/", Body: strings.NewReader(strings.Repeat("x", 5000)), ContentLength: -1}
		if known {
			req.ContentLength = 5000
		}
		resp, err := s.Do(context.Background(), req)
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			t.Fatalf("known length %v: the server answered %q", known, b)
		}
		if !errors.Is(err, netpolicy.ErrBudget) || !strings.Contains(err.Error(), "request bodies may total 1000 bytes per run") {
			t.Errorf("known length %v: %v, want the request-byte budget", known, err)
		}
		if _, sent, _ := s.Used(); sent > 1000 {
			t.Errorf("known length %v: %d body bytes counted, the budget is 1000", known, sent)
		}
		if known && received.Load() != 0 {
			t.Errorf("a body that cannot fit was sent: the server read %d bytes", received.Load())
		}
		if received.Load() > 1000 || answered.Load() != 0 {
			t.Errorf("known length %v: the server read %d bytes and answered %d times", known, received.Load(), answered.Load())
		}
	}
}
