package browser

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// corsServer is an API on another origin than the page, answering CORS
// preflights, that records what it saw.
type corsServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // "METHOD PATH auth=..."
}

func newCORSServer(t *testing.T) *corsServer {
	s := &corsServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Expose-Headers", "*")
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
			h.Set("Access-Control-Allow-Headers", "authorization, content-type, x-test")
			return
		}
		s.mu.Lock()
		s.seen = append(s.seen, fmt.Sprintf("%s %s auth=%s", r.Method, r.URL.Path, r.Header.Get("Authorization")))
		s.mu.Unlock()
		switch r.URL.Path {
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			fmt.Fprintf(w, "%s %s\n%s\n", r.Method, r.URL.RequestURI(), b)
		case "/auth":
			fmt.Fprintf(w, "auth=%s\n", r.Header.Get("Authorization"))
		case "/big":
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			h.Set("Content-Length", strconv.Itoa(n))
			buf := []byte(strings.Repeat("x", 64<<10))
			for n > 0 {
				k := min(n, len(buf))
				if _, err := w.Write(buf[:k]); err != nil {
					return
				}
				n -= k
			}
		case "/redirect":
			http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *corsServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// TestNetwork runs curl and wget in a page: requests go through the
// browser's fetch() under the sandbox's rules.
func TestNetwork(t *testing.T) {
	s := buildSite(t)
	base := serveSite(t, s)
	api := newCORSServer(t)
	other := newCORSServer(t)
	ctx := newTab(t)
	open(t, ctx, base+"script.html")
	eval(t, ctx, `(async () => { window.nsb = await W.Sandbox.create({ timeoutMs: 20000, network: {
		allow: [`+jsString(api.URL+"/")+`],
		headers: {`+jsString(api.URL+"/auth")+`: { Authorization: 'Bearer s3cr3t' }},
	} }); })()`, nil)
	run := func(cmd string) runResult {
		var r runResult
		eval(t, ctx, `nsb.run(`+jsString(cmd)+`)`, &r)
		return r
	}
	for _, c := range []struct {
		cmd, stdout, stderr string
		code                int
	}{
		{cmd: "curl -s " + api.URL + "/echo?a=1", stdout: "GET /echo?a=1\n\n"},
		{cmd: "curl -s -d x=y " + api.URL + "/echo", stdout: "POST /echo\nx=y\n"},
		{cmd: "wget -q -O - " + api.URL + "/echo", stdout: "GET /echo\n\n"},
		{cmd: "curl -sS " + other.URL + "/echo", stderr: "curl: (7) wasmsand: network access to " + other.URL + "/echo is not allowed\n", code: 7},
		{cmd: "curl -s " + api.URL + "/auth; env | grep -c s3cr3t; curl -sv -o /dev/null " + api.URL + "/auth 2>&1 | grep -c s3cr3t", stdout: "auth=Bearer s3cr3t\n0\n0\n", code: 1},
		{cmd: "curl -s -o big '" + api.URL + "/big?n=10485760' && wc -c < big", stdout: "10485760\n"},
		// fetch() hides where a redirect leads: it is refused, not followed.
		{cmd: "curl -sSL '" + api.URL + "/redirect?to=" + other.URL + "/echo'", stderr: "curl: (56) wasmsand: " + api.URL + "/redirect?to=" + other.URL + "/echo redirects, and the browser hides where to\n", code: 56},
	} {
		r := run(c.cmd)
		if r.ExitCode != c.code || r.Stdout != c.stdout || (c.stderr != "" && r.Stderr != c.stderr) {
			t.Errorf("%s\n exit %d (want %d)\n stdout %q (want %q)\n stderr %q (want %q)", c.cmd, r.ExitCode, c.code, r.Stdout, c.stdout, r.Stderr, c.stderr)
		}
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("the denied server saw %v", other.requests())
	}
}
