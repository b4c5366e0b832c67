package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wasmsand/wasmsand/platform/native"
	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/s3store"
	"github.com/wasmsand/wasmsand/sandbox/s3store/miniotest"
)

// startMCPHTTP starts "wasmsand mcp --http" with args and env added and
// returns its URL and a function that stops it with SIGTERM, as an
// operator would, and checks that it exits cleanly.
func startMCPHTTP(t *testing.T, env []string, args ...string) (url string, stop func()) {
	t.Helper()
	cmd := mcpCommand(t, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(errPipe)
	for lines.Scan() {
		if _, u, ok := strings.Cut(lines.Text(), "listening on "); ok {
			url = u
			break
		}
		t.Log("server:", lines.Text())
	}
	if url == "" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("no listening line on stderr")
	}
	go func() {
		for lines.Scan() {
			t.Log("server:", lines.Text())
		}
	}()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("after SIGTERM: %v", err)
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Error("the server did not stop on SIGTERM")
		}
	}
	t.Cleanup(stop)
	return url, stop
}

// headerTransport adds the session header to every request.
type headerTransport struct{ name string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Wasmsand-Session", h.name)
	return http.DefaultTransport.RoundTrip(r)
}

// connectNamed connects to url with the session name in the header.
func connectNamed(t *testing.T, url, name string) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: headerTransport{name}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// runIn runs command in cs's sandbox and returns its stdout.
func runIn(t *testing.T, cs *mcp.ClientSession, command string) string {
	t.Helper()
	r, isErr := mcpCall(t, cs, "sandbox_run", map[string]any{"command": command})
	if isErr || r["exit_code"] != 0.0 {
		t.Fatalf("%q: %v", command, r)
	}
	return r["stdout"].(string)
}

const (
	setUp   = "mkdir -p /tmp/w && cd /tmp/w && echo kept > f.txt; X=42; greet() { echo hello $1; }"
	checkUp = "cat f.txt; echo $X; greet bob; pwd"
	wantUp  = "kept\n42\nhello bob\n/tmp/w\n"
)

// waitStored waits until name is in st with bytes other than old.
func waitStored(t *testing.T, st sandbox.Store, name string, old []byte) []byte {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := st.Get(context.Background(), name)
		if err == nil && string(b) != string(old) {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %s not saved to the store: %v", name, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMCPServiceRestart keeps a named session in a --state directory
// across a restart of the server process and across idle eviction.
func TestMCPServiceRestart(t *testing.T) {
	dir := t.TempDir()
	url, stop := startMCPHTTP(t, nil, "--state", dir)
	// The query parameter names the session, for clients without headers.
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "?session=work"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runIn(t, cs, setUp)
	cs.Close()
	// A session not named is tied to its MCP session, which no client can
	// name after a restart: it leaves nothing in the store.
	anon, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runIn(t, anon, "echo anon > a.txt")
	stop() // saves the live named sessions
	anon.Close()
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 1 || ents[0].Name() != "work.wsbx" {
		t.Fatalf("store after the server stopped: %v %v", ents, err)
	}

	url, _ = startMCPHTTP(t, nil, "--state", dir, "--idle-timeout", "300ms")
	cs = connectNamed(t, url, "work")
	defer cs.Close()
	if got := runIn(t, cs, checkUp); got != wantUp {
		t.Fatalf("after restart: %q, want %q", got, wantUp)
	}
	// Idle, the sandbox is evicted to the store, and comes back.
	old, _ := os.ReadFile(filepath.Join(dir, "work.wsbx"))
	runIn(t, cs, "echo second > g.txt; Y=7")
	waitStored(t, native.DirStore(dir), "work", old)
	if got := runIn(t, cs, "cat g.txt; echo $Y; "+checkUp); got != "second\n7\n"+wantUp {
		t.Fatalf("after eviction: %q", got)
	}

	// The snapshot tools keep their snapshots beside the session's.
	r, isErr := mcpCall(t, cs, "snapshot", map[string]any{"name": "cp"})
	if isErr || r["name"] != "cp" {
		t.Fatalf("snapshot: %v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "work..cp.wsbx")); err != nil {
		t.Fatalf("snapshot not in the store: %v", err)
	}
	runIn(t, cs, "echo changed > f.txt; X=0; cd /")
	if r, isErr := mcpCall(t, cs, "restore", map[string]any{"name": "cp"}); isErr {
		t.Fatalf("restore: %v", r)
	}
	if got := runIn(t, cs, checkUp); got != wantUp {
		t.Fatalf("after restore: %q, want %q", got, wantUp)
	}

	// A bad name is a tool error, not a failed server.
	bad := connectNamed(t, url, "../etc")
	defer bad.Close()
	r, isErr = mcpCall(t, bad, "sandbox_run", map[string]any{"command": "true"})
	if !isErr || r["error"].(map[string]any)["code"] != "INVALID_ARGUMENT" {
		t.Fatalf("bad session name: %v", r)
	}
}

// TestMCPServiceStdio resumes the session named by WASMSAND_SESSION in a
// new stdio server process given --session.
func TestMCPServiceStdio(t *testing.T) {
	dir := t.TempDir()
	connect := func(byFlag bool) *mcp.ClientSession {
		cmd := mcpCommand(t, "--state", dir)
		cmd.Env = append(os.Environ(), "WASMSAND_SESSION=proj")
		if byFlag {
			cmd = mcpCommand(t, "--state", dir, "--session", "proj")
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	cs := connect(false)
	runIn(t, cs, setUp)
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	cs = connect(true)
	if got := runIn(t, cs, checkUp); got != wantUp {
		t.Fatalf("new process: %q, want %q", got, wantUp)
	}
	cs.Close()

	// --state alone keeps the session "default".
	for i := range 2 {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: mcpCommand(t, "--state", dir)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			runIn(t, cs, "echo d > /tmp/d.txt")
		} else if got := runIn(t, cs, "cat /tmp/d.txt"); got != "d\n" {
			t.Fatalf("default session: %q", got)
		}
		cs.Close()
	}
	if _, err := os.Stat(filepath.Join(dir, "default.wsbx")); err != nil {
		t.Fatal(err)
	}
}

// TestMCPServiceReplicas runs two server processes sharing a real MinIO
// store: a session started on one continues on the other, and back.
func TestMCPServiceReplicas(t *testing.T) {
	srv := miniotest.Start(t)
	env := []string{"WASMSAND_S3_ENDPOINT=http://" + srv.Endpoint, "AWS_ACCESS_KEY_ID=" + srv.AccessKey, "AWS_SECRET_ACCESS_KEY=" + srv.SecretKey}
	args := []string{"--state", "s3://wasmsand/sessions", "--idle-timeout", "300ms"}
	urlA, _ := startMCPHTTP(t, env, args...)
	urlB, _ := startMCPHTTP(t, env, args...)
	st := s3store.New(srv.Client(t), "wasmsand", "sessions/")

	a := connectNamed(t, urlA, "shared")
	defer a.Close()
	runIn(t, a, setUp)
	snap := waitStored(t, st, "shared", nil) // evicted from A when idle

	b := connectNamed(t, urlB, "shared")
	defer b.Close()
	if got := runIn(t, b, checkUp); got != wantUp {
		t.Fatalf("on the other replica: %q, want %q", got, wantUp)
	}
	runIn(t, b, "echo from-b >> f.txt; X=43")
	waitStored(t, st, "shared", snap)
	if got := runIn(t, a, "cat f.txt; echo $X"); got != "kept\nfrom-b\n43\n" {
		t.Fatalf("back on the first replica: %q", got)
	}
	if l, err := st.List(context.Background()); err != nil || len(l) != 1 || l[0].Name != "shared" {
		t.Fatalf("store: %+v %v", l, err)
	}
}

// TestMCPNamedSessionNeedsStore: without --state a named session is a tool
// error, and --session is a usage error.
func TestMCPNamedSessionNeedsStore(t *testing.T) {
	url, _ := startMCPHTTP(t, nil)
	cs := connectNamed(t, url, "work")
	defer cs.Close()
	r, isErr := mcpCall(t, cs, "sandbox_run", map[string]any{"command": "true"})
	if e, _ := r["error"].(map[string]any); !isErr || e["code"] != "INVALID_ARGUMENT" || !strings.Contains(e["message"].(string), "--state") {
		t.Fatalf("named session without a store: %v", r)
	}
	res := runBin(t, wasmsandBin(t), "", "mcp", "--session", "work")
	if res.code != exitUsage || !strings.Contains(res.stderr, "needs --state") {
		t.Fatalf("--session without --state: %+v", res)
	}
	res = runBin(t, wasmsandBin(t), "", "mcp", "--state", t.TempDir(), "--state-name", "x")
	if res.code != exitUsage || !strings.Contains(res.stderr, "--session") {
		t.Fatalf("--state-name: %+v", res)
	}
}
