package cguest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
)

// newPyServer is a local server for urllib.request: /json answers what it
// saw as JSON, /redirect?to=U redirects, /status/N answers N.
func newPyServer(t *testing.T) (*httptest.Server, *[]string) {
	t.Helper()
	var seen []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Method+" "+r.URL.RequestURI())
		b, _ := io.ReadAll(r.Body)
		switch {
		case r.URL.Path == "/json":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Reply", "yes")
			json.NewEncoder(w).Encode(map[string]any{
				"method": r.Method, "query": r.URL.RawQuery, "body": string(b),
				"type": r.Header.Get("Content-Type"), "x": r.Header.Get("X-Test"),
				"length": r.ContentLength,
			})
		case r.URL.Path == "/slow":
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		case r.URL.Path == "/redirect":
			http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
		case strings.HasPrefix(r.URL.Path, "/status/"):
			var n int
			fmt.Sscan(strings.TrimPrefix(r.URL.Path, "/status/"), &n)
			w.WriteHeader(n)
			fmt.Fprintf(w, "status %d\n", n)
		default:
			io.WriteString(w, "hello from the host\n")
		}
	}))
	t.Cleanup(s.Close)
	return s, &seen
}

func pyRule(t *testing.T, text string) netpolicy.Rule {
	t.Helper()
	r, err := netpolicy.ParseRule(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func runPy(t *testing.T, sb *sandbox.Sandbox, script string) *sandbox.RunResult {
	t.Helper()
	if err := sb.WriteFile("/home/user/net.py", []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return run(t, sb, "python3 net.py")
}

// TestPythonURLOpen makes requests with urllib.request through the
// sandbox's network policy.
func TestPythonURLOpen(t *testing.T) {
	srv, _ := newPyServer(t)
	other, otherSeen := newPyServer(t)
	sb := newSandbox(t, sandbox.Options{Network: netpolicy.Policy{Rules: []netpolicy.Rule{pyRule(t, srv.URL+"/")}, MaxRequests: 20}})
	u, o := srv.URL, other.URL
	script := `
import json, urllib.request, urllib.error, http.client
U, O = ` + fmt.Sprintf("%q, %q", u, o) + `
with urllib.request.urlopen(U + "/text") as r:
    print(r.status, r.reason, r.getcode(), r.url == U + "/text", r.headers["Content-Type"], r.getheader("content-length"))
    print(repr(r.read()))
req = urllib.request.Request(U + "/json?q=1", data=json.dumps({"a": [1, 2]}).encode(),
                             headers={"Content-Type": "application/json", "X-Test": "hi"})
with urllib.request.urlopen(req) as r:
    print(r.status, r.headers.get("X-Reply"), sorted(json.load(r).items()))
r = urllib.request.urlopen(U + "/json", data=b"x=1&y=2")
print(json.loads(r.read())["type"], r.info().get_content_type())
r = urllib.request.urlopen(urllib.request.Request(U + "/json", method="PUT", data=iter([b"ab", b"cd"]), headers={"Content-Length": "4"}))
print(json.loads(r.read())["body"])
try:
    urllib.request.urlopen(U + "/status/404")
except urllib.error.HTTPError as e:
    print("HTTPError", e.code, e.reason, e.read())
try:
    urllib.request.urlopen(U + "/status/503")
except urllib.error.HTTPError as e:
    print("HTTPError", e.code, e.reason)
r = urllib.request.urlopen(U + "/redirect?to=/json")
print("redirected", r.url == U + "/json", json.load(r)["method"])
for url in (O + "/json", U + "/redirect?to=" + O + "/json"):
    try:
        urllib.request.urlopen(url)
    except urllib.error.URLError as e:
        print("URLError", type(e.reason).__name__, e.reason.strerror == "wasmsand: network access to " + O + "/json is not allowed")
try:
    urllib.request.urlopen(U + "/slow", timeout=0.3)
except urllib.error.URLError as e:
    print("timeout", type(e.reason).__name__)
try:
    http.client.HTTPConnection("example.com").request("GET", "/")
except OSError as e:
    print("http.client:", e.strerror)
`
	res := runPy(t, sb, script)
	want := `200 OK 200 True text/plain; charset=utf-8 20
b'hello from the host\n'
200 yes [('body', '{"a": [1, 2]}'), ('length', 13), ('method', 'POST'), ('query', 'q=1'), ('type', 'application/json'), ('x', 'hi')]
application/x-www-form-urlencoded application/json
abcd
HTTPError 404 Not Found b'status 404\n'
HTTPError 503 Service Unavailable
redirected True GET
URLError PermissionError True
URLError PermissionError True
timeout TimeoutError
http.client: sockets are not available in this sandbox: urllib.request.urlopen makes HTTP requests through the sandbox's network policy
`
	if res.ExitCode != 0 || string(res.Stdout) != want {
		t.Errorf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", res.ExitCode, res.Stdout, want, res.Stderr)
	}
	if len(*otherSeen) != 0 {
		t.Errorf("the denied server saw %q", *otherSeen)
	}
}

// TestPythonURLOpenDenied: without a rule every request is refused with
// the host's reason, and the budget holds.
func TestPythonURLOpenDenied(t *testing.T) {
	srv, seen := newPyServer(t)
	sb := newSandbox(t, sandbox.Options{})
	res := run(t, sb, `python3 -c 'import urllib.request; urllib.request.urlopen("`+srv.URL+`/text")'`)
	if res.ExitCode != 1 || !strings.Contains(string(res.Stderr), "urllib.error.URLError: <urlopen error [Errno 2] wasmsand: network access to "+srv.URL+"/text is not allowed>") {
		t.Errorf("exit %d, stderr:\n%s", res.ExitCode, res.Stderr)
	}
	if len(*seen) != 0 {
		t.Errorf("the server saw %q", *seen)
	}
	sb = newSandbox(t, sandbox.Options{Network: netpolicy.Policy{Rules: []netpolicy.Rule{pyRule(t, srv.URL+"/")}, MaxRequests: 2}})
	res = runPy(t, sb, `
import urllib.request, urllib.error
for i in range(3):
    try:
        print(i, urllib.request.urlopen("`+srv.URL+`/text").read())
    except urllib.error.URLError as e:
        print(i, type(e.reason).__name__, e.reason)
`)
	want := "0 b'hello from the host\\n'\n1 b'hello from the host\\n'\n2 OSError [Errno 19] network budget exhausted: 2 requests allowed per run\n"
	if string(res.Stdout) != want {
		t.Errorf("budget: stdout:\n%s\nwant:\n%s\nstderr:\n%s", res.Stdout, want, res.Stderr)
	}
}
