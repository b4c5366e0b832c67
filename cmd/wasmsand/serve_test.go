package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// demoDir makes a folder like the built demo.
func demoDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":             "<!doctype html><title>demo</title>",
		"demo.mjs":               "export {};",
		"wasmsand/wasmsand.wasm": "\x00asm\x01\x00\x00\x00",
		"wasmsand/wasmsand.js":   "globalThis.x = 1;",
		"wasmsand/tools/m.json":  "{}",
		"style.CSS":              "body{}",
		"notes.unknownext":       "plain words",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestStaticHandler(t *testing.T) {
	srv := httptest.NewServer(staticHandler(demoDir(t)))
	defer srv.Close()
	for _, c := range []struct {
		method, path string
		status       int
		ctype        string // prefix; "" to skip
		body         string // substring; "" to skip
	}{
		{"GET", "/", 200, "text/html", "<title>demo</title>"},
		{"GET", "/index.html", 301, "", ""}, // FileServer redirects to "/"
		{"GET", "/demo.mjs", 200, "text/javascript", "export"},
		{"GET", "/wasmsand/wasmsand.wasm", 200, "application/wasm", "asm"},
		{"GET", "/wasmsand/wasmsand.js", 200, "text/javascript", ""},
		{"GET", "/wasmsand/tools/m.json", 200, "application/json", "{}"},
		{"GET", "/style.CSS", 200, "text/css", ""},
		{"GET", "/notes.unknownext", 200, "text/plain", "plain words"},
		{"HEAD", "/wasmsand/wasmsand.wasm", 200, "application/wasm", ""},
		{"GET", "/missing.wasm", 404, "", ""},
		{"GET", "/../../etc/passwd", 404, "", ""},
		{"POST", "/", 405, "", ""},
	} {
		req, err := http.NewRequest(c.method, srv.URL+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s: status %d, want %d", c.method, c.path, resp.StatusCode, c.status)
			continue
		}
		if got := resp.Header.Get("Content-Type"); c.ctype != "" && !strings.HasPrefix(got, c.ctype) {
			t.Errorf("%s %s: Content-Type %q, want %q", c.method, c.path, got, c.ctype)
		}
		if c.body != "" && !strings.Contains(string(body), c.body) {
			t.Errorf("%s %s: body %q, want it to contain %q", c.method, c.path, body, c.body)
		}
		if c.status == 200 && resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s %s: Cache-Control %q", c.method, c.path, resp.Header.Get("Cache-Control"))
		}
	}
}

func TestServe(t *testing.T) {
	dir := demoDir(t)
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"serve", "--addr", "127.0.0.1:0", "--dir", dir}, nil, pw, &stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the URL: %v (stderr %q)", err, stderr.String())
	}
	url := strings.TrimSpace(line[strings.Index(line, "http://"):])
	resp, err := http.Get(url + "wasmsand/wasmsand.wasm")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/wasm" {
		t.Errorf("Content-Type %q, want application/wasm", ct)
	}
	// Ctrl-C stops the server with status 0.
	p, _ := os.FindProcess(os.Getpid())
	if err := p.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit code %d, want 0 (stderr %q)", c, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not stop on Ctrl-C")
	}
}

func TestServeErrors(t *testing.T) {
	dir := demoDir(t)
	for _, c := range []struct {
		args   []string
		code   int
		output string
	}{
		{[]string{"serve", "--dir", filepath.Join(dir, "nope")}, exitSetup, "is not a folder"},
		{[]string{"serve", "--dir", dir, "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"serve", "--port", "1"}, exitUsage, "flag provided but not defined"},
		{[]string{"serve", "--dir", dir, "--addr", "256.0.0.1:99999"}, exitSetup, "wasmsand serve:"},
		{[]string{"serve", "--help"}, 0, "wasmsand serve [--addr HOST:PORT]"},
	} {
		var out bytes.Buffer
		if got := run(c.args, nil, &out, &out); got != c.code {
			t.Errorf("%q: exit code %d, want %d (output %q)", c.args, got, c.code, out.String())
		}
		if !strings.Contains(out.String(), c.output) {
			t.Errorf("%q: output %q, want it to contain %q", c.args, out.String(), c.output)
		}
	}
}
