package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestParseNetFlags(t *testing.T) {
	cfg, _, err := parseArgs([]string{
		"--allow-net", "https://api.example.com/v1/",
		"--allow-net", "GET,POST http://127.0.0.1:8080/",
		"--net-header", "https://api.example.com/=Authorization: Bearer abc",
		"-c", "true",
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	n := cfg.opts.Network
	if len(n.Rules) != 2 || n.Rules[0].String() != "https://api.example.com/v1/" || n.Rules[1].String() != "GET,POST http://127.0.0.1:8080/" {
		t.Errorf("rules %v", n.Rules)
	}
	if len(n.Headers) != 1 || n.Headers[0].Header.Get("Authorization") != "Bearer abc" {
		t.Errorf("headers %v", n.Headers)
	}
	for _, bad := range [][]string{
		{"--allow-net", "ftp://x/"},
		{"--allow-net", ""},
		{"--net-header", "https://x/"},
		{"--net-header", "https://x/=Authorization"},
	} {
		if _, _, err := parseArgs(append(bad, "-c", "true"), io.Discard); err == nil {
			t.Errorf("parseArgs(%q): no error", bad)
		}
	}
	_, _, err = parseArgs([]string{"--net-header", "https://x/=Bad Name: s3cr3t", "-c", "true"}, io.Discard)
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("the error shows the secret: %v", err)
	}
}

func TestNetCLI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %s auth=%q\n", r.Method, r.URL.Path, r.Header.Get("Authorization"))
	}))
	defer srv.Close()
	u := srv.URL + "/api/x"
	wasmsand(t, "", "-c", "curl -sS "+u).check(t, "no rule", "", 7)
	wasmsand(t, "", "--allow-net", "GET "+srv.URL+"/api/",
		"--net-header", srv.URL+"/api/=Authorization: Bearer s3cr3t",
		"-c", "curl -sS "+u+"; curl -s -d x "+u+"; echo $?; env | grep -c s3cr3t; true").
		check(t, "allowed", "GET /api/x auth=\"Bearer s3cr3t\"\n7\n0\n", 0)
}
