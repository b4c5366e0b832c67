package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// fixture is the files every case starts with.
var fixture = map[string]string{
	"data.txt": "line one\nline two\n",
	"data.bin": "bin\x00ary\r\ndata\n",
	"part":     "",
}

// bigBody is what /big serves: a file that supports ranges (wget -c).
var bigBody = func() []byte {
	b := make([]byte, 300_000)
	for i := range b {
		b[i] = byte('a' + i%26)
	}
	return b
}()

// diffServer answers the same bytes to every client: fixed Date, explicit
// lengths and types, so that curl -i prints the same head whoever asks.
func diffServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	send := func(w http.ResponseWriter, code int, ctype, body string) {
		h := w.Header()
		h.Set("Date", "Mon, 02 Jan 2006 15:04:05 GMT")
		h.Set("Content-Type", ctype)
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		send(w, 200, "text/plain; charset=utf-8", "hello, world\n")
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		send(w, 200, "text/plain", fmt.Sprintf("%s %s\nContent-Type: %s\nAccept: %s\n%q\n", r.Method, r.URL.RequestURI(), r.Header.Get("Content-Type"), r.Header.Get("Accept"), b))
	})
	mux.HandleFunc("/hdr", func(w http.ResponseWriter, r *http.Request) {
		var keys []string
		for k := range r.Header {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(r.Header[k], ", "))
		}
		send(w, 200, "text/plain", b.String())
	})
	mux.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			send(w, 400, "text/plain", err.Error())
			return
		}
		var b strings.Builder
		for _, k := range []string{"a", "b"} {
			fmt.Fprintf(&b, "%s=%q\n", k, r.FormValue(k))
		}
		if f, h, err := r.FormFile("f"); err == nil {
			data, _ := io.ReadAll(f)
			fmt.Fprintf(&b, "f: %s %s %q\n", h.Filename, h.Header.Get("Content-Type"), data)
		}
		send(w, 200, "text/plain", b.String())
	})
	mux.HandleFunc("/status/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/status/"))
		send(w, n, "text/plain", fmt.Sprintf("status %d\n", n))
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", r.URL.Query().Get("to"))
		code, _ := strconv.Atoi(r.URL.Query().Get("code"))
		if code == 0 {
			code = 302
		}
		send(w, code, "text/plain", "moved\n")
	})
	mux.HandleFunc("/loop/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/loop/"))
		w.Header().Set("Location", fmt.Sprintf("/loop/%d", n+1))
		send(w, 302, "text/plain", "again\n")
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		io.WriteString(zw, strings.Repeat("compressed text\n", 50))
		zw.Close()
		w.Header().Set("Content-Encoding", "gzip")
		send(w, 200, "text/plain", buf.String())
	})
	mux.HandleFunc("/short", func(w http.ResponseWriter, r *http.Request) {
		// A body cut short of its Content-Length.
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\n0123456789")
		buf.Flush()
		conn.Close()
	})
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", "Mon, 02 Jan 2006 15:04:05 GMT")
		w.Header().Set("Content-Type", "text/plain")
		for i := range 3 {
			fmt.Fprintf(w, "part %d\n", i)
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", "Mon, 02 Jan 2006 15:04:05 GMT")
		http.ServeContent(w, r, "big", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), bytes.NewReader(bigBody))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// diffCases run with the real curl and wget and with ours; stdout and the
// exit status must agree. U is the server's URL.
var diffCases = []string{
	"curl -s U/text",
	"curl -s -i U/text",
	"curl -s -I U/text",
	"curl -s -i U/chunked",
	"curl -s U/short; echo \" $?\"",
	"curl -sS U/short 2>&1; echo \" $?\"",
	"wget -q -O - U/chunked",
	"curl -s U/status/404; echo \" $?\"",
	"curl -sf U/status/404; echo $?",
	"curl -sS -f U/status/503; echo $?",
	"curl -s -d a=1 -d b=2 U/echo",
	"curl -s -d @data.txt U/echo",
	"curl -s --data-binary @data.bin U/echo",
	"curl -s --data-raw @data.txt U/echo",
	"curl -s --json '{\"a\":1}' U/echo",
	"curl -s -X PUT -d x U/echo",
	"curl -s -X DELETE U/echo",
	"curl -s -G -d q=1 -d r=2 U/echo",
	"curl -s -H 'X-Test: 1' -H 'Accept: text/plain' U/hdr",
	"curl -s -H 'User-Agent:' U/hdr",
	"curl -s -u user:pw U/hdr",
	"curl -s -A agent/1.0 -e http://ref.example/ U/hdr",
	"curl -s -F a=1 -F 'b=two words' -F f=@data.txt U/form",
	"curl -s -o out U/text; cat out",
	"curl -s -O U/text; cat text",
	"curl -s -w '%{http_code} %{content_type} %{size_download} %{num_redirects}\\n' -o /dev/null U/text",
	"curl -s -w '%{http_code}\\n' -o /dev/null U/status/500",
	"curl -s -o /dev/null -w '%{http_code} %{redirect_url}\\n' 'U/redirect?to=/text'",
	"curl -s 'U/redirect?to=/text'",
	"curl -sL 'U/redirect?to=/text'",
	"curl -sL -i 'U/redirect?to=/text'",
	"curl -sL -d x 'U/redirect?to=/echo'",
	"curl -sL -d x 'U/redirect?to=/echo&code=307'",
	"curl -sL -d x 'U/redirect?to=/echo&code=303'",
	"curl -sL --max-redirs 2 U/loop/0; echo $?",
	"curl -sL -w '%{num_redirects} %{url_effective}\\n' -o /dev/null --max-redirs 3 U/loop/0; echo $?",
	"curl -s -m 0.3 U/slow; echo $?",
	"curl -s http://127.0.0.1:1/; echo $?",
	"curl -sS http://127.0.0.1:1/ 2>&1 | sed 's/after [0-9]* ms/after N ms/'",
	"curl --bogus 2>&1; echo $?",
	"curl 2>&1; echo $?",
	"curl -m abc U/text 2>&1; echo $?",
	"curl -sSf U/status/404 2>&1; echo $?",
	"curl -sSL --max-redirs 1 U/loop/0 2>&1; echo $?",
	"curl -sS -m 0.2 U/slow 2>&1 | sed 's/after [0-9]* milli/after N milli/'",
	"curl -s --compressed U/gzip | wc -l",
	"curl -s U/gzip | wc -c",
	"curl -sS -v U/text 2>/dev/null",
	"curl -s U/text U/echo",
	"curl -s -o a U/text -o b U/echo; cat a b",
	"curl -s -O U/; echo $?",
	"curl -s U/big | md5sum",
	"wget -q -O - U/text",
	"wget -q U/text && cat text",
	"wget -q U/text; wget -q U/text; ls text*",
	"wget -q -O - --post-data 'a=b&c=d' U/echo",
	"wget -q -O - --header 'X-Test: 1' U/hdr",
	"wget -q -O - U/status/404; echo $?",
	"wget -q -O - U/status/500; echo $?",
	"wget -q -P d U/text && cat d/text",
	"wget -q -O - 'U/redirect?to=/text'",
	"wget -q -O - --max-redirect 2 U/loop/0; echo $?",
	"wget -nv -O - U/text 2>/dev/null",
	"wget -q -S -O - U/text 2>/dev/null",
	"wget -q -O - http://127.0.0.1:1/; echo $?",
	"head -c 1000 big.src > big; wget -q -c U/big; md5sum big",
	"cp big.src big; wget -q -c U/big; echo $?; md5sum big",
	"wget -q -O out U/text && cat out",
}

type result struct {
	stdout, stderr string
	code           int
}

func setup(t *testing.T, dir string) {
	t.Helper()
	for name, data := range fixture {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "big.src"), bigBody, 0o644); err != nil {
		t.Fatal(err)
	}
}

func runHost(t *testing.T, script, path string) result {
	dir := t.TempDir()
	setup(t, dir)
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + path, "LC_ALL=C", "TZ=UTC", "HOME=" + dir}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return result{out.String(), errOut.String(), code}
}

func needOracles(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the system's curl and wget")
	}
	for _, tool := range []string{"bash", "curl", "wget", "md5sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (apt-get install curl wget)", tool)
		}
	}
}

func buildNative(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "netutils")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for name := range Commands {
		if err := os.Symlink(bin, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDifferential runs each case with the real tools and with ours built
// natively (netx over net/http).
func TestDifferential(t *testing.T) {
	needOracles(t)
	srv := diffServer(t)
	ours := buildNative(t)
	sysPath := os.Getenv("PATH")
	for _, c := range diffCases {
		script := strings.ReplaceAll(c, "U/", srv.URL+"/")
		t.Run(strings.ReplaceAll(c, "/", "∕"), func(t *testing.T) {
			want := runHost(t, script, sysPath)
			got := runHost(t, script, ours+":"+sysPath)
			compare(t, got, want)
		})
	}
}

// TestDifferentialInSandbox runs each case with the real tools on the
// host and with ours inside a sandbox whose policy allows the server.
func TestDifferentialInSandbox(t *testing.T) {
	needOracles(t)
	srv := diffServer(t)
	var rules []netpolicy.Rule
	for _, s := range []string{srv.URL + "/", "http://127.0.0.1:1/"} {
		r, err := netpolicy.ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{
		ToolsDir: guesttest.Dir(t),
		CacheDir: filepath.Join(cache, "wasmsand-test", "modules"),
		Network:  netpolicy.Policy{Rules: rules},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	sysPath := os.Getenv("PATH")
	for i, c := range diffCases {
		script := strings.ReplaceAll(c, "U/", srv.URL+"/")
		t.Run(strings.ReplaceAll(c, "/", "∕"), func(t *testing.T) {
			want := runHost(t, script, sysPath)
			dir := fmt.Sprintf("/tmp/case%d", i)
			if err := sb.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, data := range fixture {
				sb.WriteFile(dir+"/"+name, []byte(data), 0o644)
			}
			sb.WriteFile(dir+"/big.src", bigBody, 0o644)
			res, err := sb.Run(ctx, script, sandbox.WithCwd(dir))
			if err != nil {
				t.Fatal(err)
			}
			compare(t, result{string(res.Stdout), string(res.Stderr), res.ExitCode}, want)
		})
	}
}

func compare(t *testing.T, got, want result) {
	t.Helper()
	if got.stdout != want.stdout {
		t.Errorf("stdout differs\n got: %q\nwant: %q", got.stdout, want.stdout)
	}
	if got.code != want.code {
		t.Errorf("exit status %d, real %d (stderr %q, real %q)", got.code, want.code, got.stderr, want.stderr)
	}
}
