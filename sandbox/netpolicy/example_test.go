package netpolicy_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/textproto"

	"github.com/wasmsand/wasmsand/platform/native/nethttp"
	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
)

func ExampleParseRule() {
	r, err := netpolicy.ParseRule("GET,POST https://api.example.com/v1/")
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Methods, r.Scheme, r.Host, r.Path)
	// Output: [GET POST] https api.example.com /v1/
}

func ExampleSession() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %s, token %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
	}))
	defer srv.Close()

	// A rule naming the server's address lets requests reach it (it is a
	// loopback address, refused unless a rule names it); the host adds
	// the token, which the caller never sees.
	rule, _ := netpolicy.ParseRule("GET " + srv.URL + "/api/")
	rule.Header = textproto.MIMEHeader{"Authorization": {"Bearer secret"}}
	s := netpolicy.NewSession(netpolicy.Policy{Rules: []netpolicy.Rule{rule}, MaxRequests: 10,
		Transport: nethttp.Transport}) // net/http, as native sandboxes use

	resp, err := s.Do(context.Background(), &netpolicy.Request{Method: "GET", URL: srv.URL + "/api/items"})
	if err != nil {
		panic(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(string(b))

	_, err = s.Do(context.Background(), &netpolicy.Request{Method: "DELETE", URL: srv.URL + "/api/items"})
	fmt.Println(errors.Is(err, netpolicy.ErrDenied))
	// Output:
	// GET /api/items, token "Bearer secret"
	// true
}
