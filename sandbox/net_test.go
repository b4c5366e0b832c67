package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
)

// netServer is a local HTTP server for the network tests. It records the
// requests it saw.
type netServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []*http.Request
}

func newNetServer(t *testing.T) *netServer {
	t.Helper()
	s := &netServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %s\n%s\n", r.Method, r.URL.RequestURI(), b)
	})
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello from the host\n")
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Length", strconv.Itoa(n))
		buf := make([]byte, 64<<10)
		for i := range buf {
			buf[i] = byte(i * 7)
		}
		for n > 0 {
			k := min(n, len(buf))
			if _, err := w.Write(buf[:k]); err != nil {
				return
			}
			n -= k
		}
	})
	mux.HandleFunc("/count", func(w http.ResponseWriter, r *http.Request) {
		h := sha256.New()
		n, _ := io.Copy(h, r.Body)
		fmt.Fprintf(w, "%d %x\n", n, h.Sum(nil))
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.HandleFunc("/reset", func(w http.ResponseWriter, r *http.Request) {
		// The connection is reset in the middle of the body.
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
		buf.WriteString(strings.Repeat("x", 1000))
		buf.Flush()
		time.Sleep(50 * time.Millisecond)
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.SetLinger(0)
		}
		conn.Close()
	})
	var flaky sync.Map
	mux.HandleFunc("/flaky/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := flaky.LoadOrStore(r.URL.Path, new(int))
		*n.(*int)++
		if *n.(*int) <= 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, "attempt %d\n", *n.(*int))
	})
	mux.HandleFunc("/redirect307", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/loop/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/loop/"))
		http.Redirect(w, r, fmt.Sprintf("/loop/%d", n+1), http.StatusFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/status/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/status/"))
		w.WriteHeader(n)
		fmt.Fprintf(w, "status %d\n", n)
	})
	mux.HandleFunc("/headers", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "host=%s auth=%q x=%q\n", r.Host, r.Header.Get("Authorization"), r.Header.Get("X-Test"))
	})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Clone(context.Background()))
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *netServer) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.seen...)
}

// allow is a rule for the server's whole origin.
func (s *netServer) allow(t *testing.T, methods string) netpolicy.Rule {
	t.Helper()
	text := s.URL + "/"
	if methods != "" {
		text = methods + " " + text
	}
	r, err := netpolicy.ParseRule(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func netSandbox(t *testing.T, p netpolicy.Policy) *Sandbox {
	return newTest(t, Options{Network: p})
}

type netCase struct {
	cmd    string
	stdout string // exact unless empty and want is set
	want   string // substring of stdout+stderr
	code   int
}

func checkNet(t *testing.T, sb *Sandbox, cases []netCase) {
	t.Helper()
	for _, c := range cases {
		res := run(t, sb, c.cmd)
		out := string(res.Stdout) + string(res.Stderr)
		if res.ExitCode != c.code || (c.stdout != "" && string(res.Stdout) != c.stdout) || !strings.Contains(out, c.want) {
			t.Errorf("%s\n exit %d (want %d)\n stdout %q (want %q)\n stderr %q (want %q in the output)",
				c.cmd, res.ExitCode, c.code, res.Stdout, c.stdout, res.Stderr, c.want)
		}
	}
}

func TestNetDeniedByDefault(t *testing.T) {
	srv := newNetServer(t)
	sb := netSandbox(t, netpolicy.Policy{})
	u := srv.URL + "/text"
	checkNet(t, sb, []netCase{
		{cmd: "curl -sS " + u, want: "curl: (7) wasmsand: network access to " + u + " is not allowed\n", code: 7},
		{cmd: "curl -s " + u + "; echo $?", stdout: "7\n"},
		{cmd: "wget -q -O - " + u, code: 4},
	})
	if n := len(srv.requests()); n != 0 {
		t.Errorf("the server saw %d requests", n)
	}
}

func TestNetAllowedGetPost(t *testing.T) {
	srv := newNetServer(t)
	sb := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "")}})
	if err := sb.WriteFile("/home/user/data.bin", []byte("line1\nline2\x00\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := srv.URL
	checkNet(t, sb, []netCase{
		{cmd: "curl -s " + u + "/text", stdout: "hello from the host\n"},
		{cmd: "curl -s -d a=1 -d b=2 " + u + "/echo", stdout: "POST /echo\na=1&b=2\n"},
		{cmd: "curl -s --data-binary @data.bin " + u + "/echo | od -c | head -2", want: "l   i   n   e   2  \\0  \\n"},
		{cmd: "curl -s -X PUT --data-raw @x " + u + "/echo", stdout: "PUT /echo\n@x\n"},
		{cmd: "curl -s -G -d q=1 " + u + "/echo", stdout: "GET /echo?q=1\n\n"},
		{cmd: `curl -s --json '{"a":1}' ` + u + "/echo", stdout: "POST /echo\n{\"a\":1}\n"},
		{cmd: "curl -s -o out.txt " + u + "/text && cat out.txt", stdout: "hello from the host\n"},
		{cmd: "curl -s -w '%{http_code}\\n' -o /dev/null " + u + "/status/404", stdout: "404\n"},
		{cmd: "curl -sf " + u + "/status/404", want: "", code: 22},
		{cmd: "curl -sSf " + u + "/status/500", want: "curl: (22) The requested URL returned error: 500", code: 22},
		{cmd: "curl -s -L " + u + "/redirect?to=/text", stdout: "hello from the host\n"},
		{cmd: "wget -q -O - --post-data x=y " + u + "/echo", stdout: "POST /echo\nx=y\n"},
		{cmd: "cd /tmp && wget -q " + u + "/text && cat text", stdout: "hello from the host\n"},
		{cmd: "wget -q -O - " + u + "/status/404", code: 8},
	})
}

func TestNetDeniedHostAndMethod(t *testing.T) {
	srv := newNetServer(t)
	other := newNetServer(t)
	sb := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "GET")}})
	checkNet(t, sb, []netCase{
		{cmd: "curl -sS " + other.URL + "/text", want: "curl: (7) wasmsand: network access to " + other.URL + "/text is not allowed", code: 7},
		{cmd: "curl -sS -d x " + srv.URL + "/echo", want: "(method POST is not allowed)", code: 7},
		{cmd: "curl -sS -X DELETE " + srv.URL + "/echo", want: "is not allowed", code: 7},
		{cmd: "curl -sS " + srv.URL + "/text", stdout: "hello from the host\n"},
	})
	if n := len(other.requests()); n != 0 {
		t.Errorf("the denied server saw %d requests", n)
	}
	for _, r := range srv.requests() {
		if r.Method != "GET" {
			t.Errorf("the server saw a %s request", r.Method)
		}
	}
}

func TestNetRedirects(t *testing.T) {
	srv := newNetServer(t)
	other := newNetServer(t)
	sb := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "")}})
	to := other.URL + "/text"
	checkNet(t, sb, []netCase{
		// Without -L the redirect is shown, not followed.
		{cmd: "curl -s -o /dev/null -w '%{http_code} %{redirect_url}' '" + srv.URL + "/redirect?to=" + to + "'", stdout: "302 " + to},
		{cmd: "curl -sSL '" + srv.URL + "/redirect?to=" + to + "'", want: "curl: (7) wasmsand: network access to " + to + " is not allowed", code: 7},
		{cmd: "curl -sSL '" + srv.URL + "/redirect?to=http://169.254.169.254/latest/meta-data/'", want: "network access to http://169.254.169.254/latest/meta-data/ is not allowed", code: 7},
		{cmd: "wget -q -O - '" + srv.URL + "/redirect?to=" + to + "'", code: 4},
		{cmd: "curl -sSL --max-redirs 3 " + srv.URL + "/loop/0", want: "curl: (47) Maximum (3) redirects followed", code: 47},
		{cmd: "curl -sL -o /dev/null -w '%{num_redirects} %{url_effective}' --max-redirs 5 " + srv.URL + "/redirect?to=/loop/98", code: 47, want: "5 " + srv.URL + "/loop/102"},
		{cmd: "wget -q -O - --max-redirect 2 " + srv.URL + "/loop/0", code: 8},
	})
	if n := len(other.requests()); n != 0 {
		t.Errorf("the denied server saw %d requests", n)
	}
}

func TestNetBudget(t *testing.T) {
	srv := newNetServer(t)
	sb := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "")}, MaxRequests: 2, MaxResponseBytes: 100 << 10})
	u := srv.URL + "/text"
	checkNet(t, sb, []netCase{
		{cmd: "curl -s " + u + "; curl -s " + u + "; curl -sS " + u, want: "curl: (7) network budget exhausted: 2 requests allowed per run", code: 7},
		// The budget is per run.
		{cmd: "curl -s " + u, stdout: "hello from the host\n"},
		{cmd: "curl -sS -o big " + srv.URL + "/big?n=1000000", want: "curl: (63) network budget exhausted: responses may total 102400 bytes per run", code: 63},
	})
	sb2 := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "")}, MaxRequestBytes: 1000})
	checkNet(t, sb2, []netCase{
		{cmd: "head -c 5000 /dev/zero > z; curl -sS --data-binary @z " + srv.URL + "/echo", want: "request bodies may total 1000 bytes per run", code: 7},
	})
}

func TestNetTimeout(t *testing.T) {
	srv := newNetServer(t)
	sb := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "")}, Timeout: 500 * time.Millisecond})
	run(t, sb, "curl --version; wget --version") // compile the module before timing
	start := time.Now()
	checkNet(t, sb, []netCase{
		{cmd: "curl -sS " + srv.URL + "/slow", want: "curl: (28) ", code: 28},
		{cmd: "curl -sS -m 0.2 " + srv.URL + "/slow", want: "curl: (28) Operation timed out after 200 milliseconds", code: 28},
		{cmd: "wget -q -O - " + srv.URL + "/slow", code: 4},
	})
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("the timeouts took %v", d)
	}
	// The sandbox's own timeout ends a request that the policy allows
	// to run longer.
	sb2 := newTest(t, Options{Timeout: 500 * time.Millisecond, Network: netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "")}}})
	res := run(t, sb2, "curl -s "+srv.URL+"/slow")
	if res.ExitCode != 124 {
		t.Errorf("exit %d, want 124; stderr %q", res.ExitCode, res.Stderr)
	}
}

func TestNetStreamedDownload(t *testing.T) {
	srv := newNetServer(t)
	const size = 10 << 20
	sb := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "")}})
	// What the server sends.
	h := sha256.New()
	resp, err := http.Get(srv.URL + "/big?n=" + strconv.Itoa(size))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(h, resp.Body)
	resp.Body.Close()
	want := hex.EncodeToString(h.Sum(nil))

	start := time.Now()
	res := run(t, sb, "curl -s -o big "+srv.URL+"/big?n="+strconv.Itoa(size)+" && sha256sum big && wc -c < big")
	d := time.Since(start)
	if res.ExitCode != 0 || string(res.Stdout) != want+"  big\n"+strconv.Itoa(size)+"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	t.Logf("10 MiB through curl into the VFS: %v (with sha256sum and wc), guest peak memory %d MiB", d, res.Metrics.PeakMemoryBytes>>20)
	if res.Metrics.PeakMemoryBytes > 32<<20 {
		t.Errorf("a guest grew to %d bytes: the download is not streamed", res.Metrics.PeakMemoryBytes)
	}

	// A download larger than the disk quota fills it and stops.
	small := newTest(t, Options{FSLimit: 4 << 20, Network: netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "")}}})
	checkNet(t, small, []netCase{
		{cmd: "curl -sS -o big " + srv.URL + "/big?n=" + strconv.Itoa(size), want: "curl: (23) Failure writing output to destination", code: 23},
		{cmd: "wget -q " + srv.URL + "/big?n=" + strconv.Itoa(size), want: "No space left on device", code: 3},
	})
}

func TestNetHeaderInjection(t *testing.T) {
	srv := newNetServer(t)
	const secret = "Bearer s3cr3t-t0ken"
	rule := srv.allow(t, "")
	rule.Header = textproto.MIMEHeader{"Authorization": {secret}}
	hr, err := netpolicy.ParseHeaderRule(srv.URL + "/headers=X-Test: from-the-host")
	if err != nil {
		t.Fatal(err)
	}
	sb := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{rule}, Headers: []netpolicy.HeaderRule{hr}})
	host := strings.TrimPrefix(srv.URL, "http://")
	checkNet(t, sb, []netCase{
		{cmd: "curl -s " + srv.URL + "/headers", stdout: fmt.Sprintf("host=%s auth=%q x=%q\n", host, secret, "from-the-host")},
		// The guest's own Authorization is replaced, never sent beside it.
		{cmd: "curl -s -H 'Authorization: Basic Zm9vOmJhcg==' -H 'X-Test: mine' " + srv.URL + "/headers", stdout: fmt.Sprintf("host=%s auth=%q x=%q\n", host, secret, "from-the-host")},
	})
	// The secret is nowhere inside: not in the environment, not in files,
	// not in curl's verbose output.
	for _, cmd := range []string{
		"env; set",
		"curl -sv -o /dev/null " + srv.URL + "/headers",
		"curl -v -i " + srv.URL + "/text",
		"curl -s -o f " + srv.URL + "/text; grep -rl s3cr3t / 2>/dev/null; cat /proc/self/environ 2>/dev/null",
		"wget -S -O - " + srv.URL + "/text",
	} {
		res := run(t, sb, cmd)
		if out := string(res.Stdout) + string(res.Stderr); strings.Contains(out, "s3cr3t") || strings.Contains(out, "from-the-host") {
			t.Errorf("%s shows the injected header:\n%s", cmd, out)
		}
	}
}

func TestNetPrivateAddresses(t *testing.T) {
	srv := newNetServer(t)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	// A name that resolves to a loopback address, allowed by a rule that
	// does not name an address: the dial is refused after resolution.
	name, _ := os.Hostname()
	var nameRule []netpolicy.Rule
	addrs, _ := net.LookupHost(name)
	loop := len(addrs) > 0
	for _, a := range addrs {
		loop = loop && net.ParseIP(a).IsLoopback()
	}
	if loop {
		r, err := netpolicy.ParseRule("http://" + name + ":" + port + "/")
		if err != nil {
			t.Fatal(err)
		}
		nameRule = append(nameRule, r)
	}
	sb := netSandbox(t, netpolicy.Policy{Rules: append(nameRule, srv.allow(t, ""))})
	checkNet(t, sb, []netCase{
		{cmd: "curl -s " + srv.URL + "/text", stdout: "hello from the host\n"},
		{cmd: "curl -sS http://localhost:" + port + "/text", want: "curl: (7) wasmsand: network access to http://localhost:" + port + "/text is not allowed", code: 7},
		{cmd: "curl -sS http://[::1]:" + port + "/text", want: "is not allowed", code: 7},
		{cmd: "curl -sS http://127.0.0.2:" + port + "/text", want: "is not allowed", code: 7},
	})
	if loop {
		checkNet(t, sb, []netCase{
			{cmd: "curl -sS http://" + name + ":" + port + "/text", want: "(127.0.0.1 is a private address)", code: 7},
		})
	} else {
		t.Logf("%s does not resolve to loopback only (%v): the name case is skipped", name, addrs)
	}
	// A rule naming localhost lets it in.
	lr, _ := netpolicy.ParseRule("http://localhost:" + port + "/")
	sb2 := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{lr}})
	checkNet(t, sb2, []netCase{{cmd: "curl -s http://localhost:" + port + "/text", stdout: "hello from the host\n"}})
}

// TestNetHostile tries to get around the policy from inside.
func TestNetHostile(t *testing.T) {
	srv := newNetServer(t)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	rule, err := netpolicy.ParseRule("http://127.0.0.1:" + port + "/v1/")
	if err != nil {
		t.Fatal(err)
	}
	rule.Header = textproto.MIMEHeader{"Authorization": {"Bearer s3cr3t"}}
	sb := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{rule}})
	denied := []string{
		srv.URL + "/v1/../text",
		srv.URL + "/v1/%2e%2e/text",
		srv.URL + "/v1/.%2E/text",
		srv.URL + "/v1%2f..%2ftext",
		srv.URL + "/v10/",
		srv.URL + "/text",
		"http://2130706433:" + port + "/v1/",         // 127.0.0.1 as a number
		"http://0x7f.0.0.1:" + port + "/v1/",         // hex
		"http://127.1:" + port + "/v1/",              // short form
		"http://127.0.0.1:" + port + "@10.0.0.1/v1/", // user info hiding the host
		"file:///etc/passwd",
		"ftp://127.0.0.1:" + port + "/v1/",
		"http://metadata.google.internal/computeMetadata/v1/",
		"http://169.254.169.254/latest/meta-data/",
		"http://[fd00:ec2::254]/latest/",
	}
	for _, u := range denied {
		res := run(t, sb, "curl -sS '"+u+"'")
		if res.ExitCode == 0 {
			t.Errorf("curl %s: allowed: %q", u, res.Stdout)
		}
	}
	for _, r := range srv.requests() {
		if !strings.HasPrefix(r.URL.Path, "/v1/") || strings.Contains(r.URL.Path, "..") {
			t.Errorf("the server saw %s %s", r.Method, r.URL)
		}
	}
	// These reach the rule's own address and path, and nothing else:
	// credentials in the URL become curl's Authorization, which the
	// injected header replaces; ::ffff:127.0.0.1 is 127.0.0.1; a fragment
	// is not sent.
	for _, u := range []string{
		"http://user:pw@127.0.0.1:" + port + "/v1/echo",
		"http://[::ffff:7f00:1]:" + port + "/v1/echo",
		"http://127.0.0.1:" + port + "/v1/echo#@evil",
	} {
		before := len(srv.requests())
		run(t, sb, "curl -s '"+u+"'")
		for _, r := range srv.requests()[before:] {
			if r.URL.Path != "/v1/echo" || r.Header.Get("Authorization") != "Bearer s3cr3t" {
				t.Errorf("curl %s: the server saw %s with Authorization %q", u, r.URL, r.Header.Get("Authorization"))
			}
		}
	}
	// A Host header does not redirect the request.
	before := len(srv.requests())
	checkNet(t, sb, []netCase{
		{cmd: "curl -s -H 'Host: evil.example' " + srv.URL + "/v1/echo", code: 0},
	})
	for _, r := range srv.requests()[before:] {
		if r.Host != "127.0.0.1:"+port {
			t.Errorf("the server saw Host %q", r.Host)
		}
	}
	// The host functions refuse what curl never sends: a raw head with a
	// header smuggled through a line break is split into lines, each a
	// header of the guest's own, and the injected one still wins.
	p := netpolicy.Policy{Rules: []netpolicy.Rule{rule}, Transport: testPlatform.Transport()}
	s := netpolicy.NewSession(p)
	resp, err := s.Do(context.Background(), &netpolicy.Request{Method: "GET", URL: srv.URL + "/v1/x", Header: textproto.MIMEHeader{"Authorization": {"mine"}, "Host": {"evil"}}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	last := srv.requests()[len(srv.requests())-1]
	if got := last.Header.Values("Authorization"); len(got) != 1 || got[0] != "Bearer s3cr3t" {
		t.Errorf("Authorization = %q", got)
	}
}

// TestNetHostileABI calls the host functions with bad arguments: each
// call answers an errno, the sandbox stays usable.
func TestNetHostileABI(t *testing.T) {
	srv := newNetServer(t)
	sb := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "")}})
	bin := buildGuest(t, "./testdata/nethostile")
	if err := sb.WriteFile("/home/user/nethostile", bin, 0o755); err != nil {
		t.Fatal(err)
	}
	res := run(t, sb, "./nethostile "+srv.URL+"/echo")
	want := `open with a bad head pointer: 21
open with a huge head length: 21
open with a bad handle pointer: 21
open with an empty head: 28
open without a URL: 28
open with a bad header line: 28
open with a bad timeout: 28
open a denied URL: 2
wasmsand: network access to http://10.0.0.1/ is not allowed
open with a request line of three words: 28
write to an unknown handle: 8
wait on an unknown handle: 8
head of an unknown handle: 8
read an unknown handle: 8
close an unknown handle: 8
error into a bad buffer: 21
open: 0
read before wait: 8
head before wait: 8
write without a body: 8
wait with a bad pointer: 21
wait: 0
head into a short buffer: 28
head into a bad buffer: 21
read into a bad buffer: 21
read with a huge length: 0
close: 0
close again: 8
open with a body: 0
write from a bad buffer: 21
write: 0
wait: 0
write after wait: 8
done
`
	if res.ExitCode != 0 || string(res.Stdout) != want {
		t.Errorf("exit %d, stderr %q\n got:\n%s\nwant:\n%s", res.ExitCode, res.Stderr, res.Stdout, want)
	}
	checkNet(t, sb, []netCase{{cmd: "curl -s " + srv.URL + "/text", stdout: "hello from the host\n"}})
}

func TestNetAllowNetwork(t *testing.T) {
	srv := newNetServer(t)
	sb := netSandbox(t, netpolicy.Policy{})
	u := srv.URL + "/text"
	checkNet(t, sb, []netCase{{cmd: "curl -sS " + u, want: "is not allowed", code: 7}})
	r, err := netpolicy.ParseRule("GET " + srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	sb.AllowNetwork(r)
	checkNet(t, sb, []netCase{
		{cmd: "curl -s " + u, stdout: "hello from the host\n"},
		{cmd: "curl -sS -d x " + srv.URL + "/echo", want: "(method POST is not allowed)", code: 7},
	})
}

// FuzzParseHead checks that any request head either parses or fails
// cleanly, and never yields a URL with spaces or control characters.
func FuzzParseHead(f *testing.F) {
	for _, s := range []string{
		"GET http://a/\n", "POST http://a/b\nX: y\n:timeout-ms: 5\n", "GET http://a/ HTTP/1.1\r\nHost: x\r\n",
		"\n\n", ":timeout-ms: 99999999999999999999\n", "GET http://a/\n:timeout-ms: -1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		method, url, h, timeout, err := parseHead(b)
		if err != nil {
			return
		}
		if method == "" || url == "" || strings.IndexFunc(url, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
			t.Fatalf("parseHead(%q) = %q %q", b, method, url)
		}
		if timeout < 0 {
			t.Fatalf("parseHead(%q): timeout %v", b, timeout)
		}
		for k := range h {
			if strings.TrimSpace(k) == "" {
				t.Fatalf("parseHead(%q): empty header name", b)
			}
		}
	})
}

func TestNetStreamedUpload(t *testing.T) {
	srv := newNetServer(t)
	sb := netSandbox(t, netpolicy.Policy{Rules: []netpolicy.Rule{srv.allow(t, "")}})
	const size = 20 << 20
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 13)
	}
	if err := sb.WriteFile("/home/user/up.bin", data, 0o644); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%d %x\n", size, sha256.Sum256(data))
	start := time.Now()
	res := run(t, sb, "curl -s --data-binary @up.bin "+srv.URL+"/count")
	if res.ExitCode != 0 || string(res.Stdout) != want {
		t.Fatalf("exit %d stdout %q (want %q) stderr %q", res.ExitCode, res.Stdout, want, res.Stderr)
	}
	t.Logf("20 MiB uploaded from the VFS in %v, guest peak memory %d MiB", time.Since(start), res.Metrics.PeakMemoryBytes>>20)
	if res.Metrics.PeakMemoryBytes > 16<<20 {
		t.Errorf("curl grew to %d bytes: the upload is not streamed", res.Metrics.PeakMemoryBytes)
	}
	// A 307 sends the body again, from the file again.
	res = run(t, sb, "curl -sL --data-binary @up.bin '"+srv.URL+"/redirect307?to=/count'")
	if res.ExitCode != 0 || string(res.Stdout) != want {
		t.Errorf("after a 307: exit %d stdout %q (want %q) stderr %q", res.ExitCode, res.Stdout, want, res.Stderr)
	}
}

func TestNetErrors(t *testing.T) {
	srv := newNetServer(t)
	rules := []netpolicy.Rule{srv.allow(t, "")}
	for _, s := range []string{"*.invalid", "http://127.0.0.1:1/"} {
		r, err := netpolicy.ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	sb := netSandbox(t, netpolicy.Policy{Rules: rules})
	checkNet(t, sb, []netCase{
		{cmd: "curl -sS http://nonexistent.invalid/", want: "curl: (6) Could not resolve host: nonexistent.invalid\n", code: 6},
		{cmd: "wget -q http://nonexistent.invalid/", code: 4},
		{cmd: "curl -sS http://127.0.0.1:1/", want: "curl: (7) Failed to connect to 127.0.0.1 port 1 after ", code: 7},
		{cmd: "curl -s --retry 2 " + srv.URL + "/flaky/a", stdout: "attempt 2\n"},
		{cmd: "curl -sS -o /dev/null " + srv.URL + "/reset", want: "curl: (56) Recv failure: Connection reset by peer\n", code: 56},
		{cmd: "curl -s " + srv.URL + "/flaky/b; curl -s " + srv.URL + "/flaky/b", stdout: "attempt 2\n"},
		{cmd: "curl -sS ftp://127.0.0.1/", want: "curl: (1) Protocol \"ftp\" not supported or disabled in libcurl", code: 1},
		{cmd: "curl -sS 'http://[::1'", want: "curl: (3) URL using bad/illegal format or missing URL", code: 3},
		{cmd: "curl --bogus", want: "curl: option --bogus: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n", code: 2},
		{cmd: "curl -m abc x", want: "curl: option -m: expected a proper numerical parameter\n", code: 2},
		{cmd: "curl", want: "curl: try 'curl --help' or 'curl --manual' for more information\n", code: 2},
	})
}
