package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/agent/mcpserver"
	"github.com/wasmsand/wasmsand/agent/session"
	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

func sandboxOptions(t testing.TB) sandbox.Options {
	o := sandbox.Options{ToolsDir: guesttest.Dir(t), Timeout: 20 * time.Second}
	if dir, err := os.UserCacheDir(); err == nil {
		o.CacheDir = filepath.Join(dir, "wasmsand-test", "modules")
	}
	return o
}

func newServer(t testing.TB, cfg session.Config) *mcpserver.Server {
	t.Helper()
	if cfg.Sandbox.ToolsDir == "" {
		cfg.Sandbox = sandboxOptions(t)
	}
	srv, err := mcpserver.New(context.Background(), mcpserver.Options{Sessions: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(context.Background()) })
	return srv
}

// connectMemory connects a client to srv over the SDK's in-memory
// transports.
func connectMemory(t testing.TB, srv *mcpserver.Server) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}

// connectHTTP connects a client to srv's streamable HTTP handler on
// 127.0.0.1.
func connectHTTP(t testing.TB, url string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool calls a tool and decodes its JSON text into a map.
func callTool(t testing.TB, cs *mcp.ClientSession, name string, args any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d contents", name, len(res.Content))
	}
	var m map[string]any
	text := res.Content[0].(*mcp.TextContent).Text
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("%s: %v: %s", name, err, text)
	}
	return m, res.IsError
}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// exercise runs the same checks over any connection.
func exercise(t *testing.T, cs *mcp.ClientSession) {
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{agent.ToolRun, agent.ToolReadFile, agent.ToolWriteFile, agent.ToolListDir, agent.ToolRunCode} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %v lack %s", names, want)
		}
	}

	r, isErr := callTool(t, cs, agent.ToolRun, map[string]any{"command": "seq 100 | grep 7 | sort -rn | head -n 2"})
	if isErr || r["exit_code"] != 0.0 || r["stdout"] != "97\n87\n" {
		t.Fatalf("pipeline: %v", r)
	}
	if _, isErr := callTool(t, cs, agent.ToolWriteFile, map[string]any{"path": "/home/user/notes/a.txt", "content": "one\ntwo\n"}); isErr {
		t.Fatal("write_file failed")
	}
	r, _ = callTool(t, cs, agent.ToolReadFile, map[string]any{"path": "notes/a.txt"})
	if r["content"] != "one\ntwo\n" {
		t.Fatalf("read_file: %v", r)
	}
	r, _ = callTool(t, cs, agent.ToolRun, map[string]any{"command": "cat notes/a.txt | wc -l"})
	if strings.TrimSpace(r["stdout"].(string)) != "2" {
		t.Fatalf("wc: %v", r)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "sandbox:///home/user/notes/a.txt"})
	if err != nil || res.Contents[0].Text != "one\ntwo\n" {
		t.Fatalf("resource: %v %v", res, err)
	}
	res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "sandbox:///home/user/notes"})
	if err != nil || res.Contents[0].MIMEType != "application/json" || !strings.Contains(res.Contents[0].Text, `"uri":"sandbox:///home/user/notes/a.txt"`) {
		t.Fatalf("directory resource: %v %v", res, err)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != mcpserver.ResourceTemplate {
		t.Fatalf("resource templates: %v %v", templates, err)
	}
	// A file of the host is out of reach, by any path.
	host := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(host, []byte("host secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "sandbox://" + host}); err == nil {
		t.Fatal("resource of a host file was found")
	}

	// Error paths are tool errors, and the session goes on.
	r, isErr = callTool(t, cs, agent.ToolRun, map[string]any{"comand": "ls"})
	if !isErr || errCode(r) != agent.CodeInvalidArgument {
		t.Fatalf("bad arguments: %v %v", r, isErr)
	}
	r, isErr = callTool(t, cs, agent.ToolRun, map[string]any{"command": "while :; do :; done", "timeout_ms": 300})
	if isErr || r["exit_code"] != 124.0 {
		t.Fatalf("timeout: %v", r)
	}
	for _, p := range []string{host, "../../../../../../.." + host} {
		r, isErr = callTool(t, cs, agent.ToolReadFile, map[string]any{"path": p})
		if !isErr || errCode(r) != "ENOENT" {
			t.Fatalf("host path %s: %v %v", p, r, isErr)
		}
	}
	r, _ = callTool(t, cs, agent.ToolRun, map[string]any{"command": "cat " + host})
	if r["exit_code"] == 0.0 || strings.Contains(r["stdout"].(string), "secret") {
		t.Fatalf("cat of a host path: %v", r)
	}
	r, isErr = callTool(t, cs, agent.ToolWriteFile, map[string]any{"path": "/home/user/notes", "content": "x"})
	if !isErr || errCode(r) != "EISDIR" {
		t.Fatalf("write over a directory: %v %v", r, isErr)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil {
		t.Fatal("an unknown tool was called")
	}
	r, isErr = callTool(t, cs, agent.ToolRun, map[string]any{"command": "echo alive"})
	if isErr || r["stdout"] != "alive\n" {
		t.Fatalf("after errors: %v", r)
	}
}

func TestInMemory(t *testing.T) {
	exercise(t, connectMemory(t, newServer(t, session.Config{})))
}

func TestHTTP(t *testing.T) {
	srv := newServer(t, session.Config{})
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	exercise(t, connectHTTP(t, hs.URL))
}

// TestHTTPSessions checks that each MCP session has a sandbox of its own,
// and that ending the session ends its sandbox.
func TestHTTPSessions(t *testing.T) {
	srv := newServer(t, session.Config{})
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	a, b := connectHTTP(t, hs.URL), connectHTTP(t, hs.URL)
	callTool(t, a, agent.ToolWriteFile, map[string]any{"path": "who", "content": "a"})
	callTool(t, b, agent.ToolWriteFile, map[string]any{"path": "who", "content": "b"})
	ra, _ := callTool(t, a, agent.ToolRun, map[string]any{"command": "cat who; X=1"})
	rb, _ := callTool(t, b, agent.ToolRun, map[string]any{"command": "cat who; echo ${X:-unset}"})
	if ra["stdout"] != "a" || rb["stdout"] != "bunset\n" {
		t.Fatalf("a sees %q, b sees %q", ra["stdout"], rb["stdout"])
	}
	if n := srv.Sessions().Stats().Live; n != 2 {
		t.Fatalf("%d live sandboxes, want 2", n)
	}
	a.Close()
	deadline := time.Now().Add(10 * time.Second)
	for srv.Sessions().Stats().Live != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d live sandboxes after one session ended, want 1", srv.Sessions().Stats().Live)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSessionCap checks that the global cap is a tool error for the
// session past it, not a failure of the others.
func TestSessionCap(t *testing.T) {
	srv := newServer(t, session.Config{MaxSessions: 1})
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	a, b := connectHTTP(t, hs.URL), connectHTTP(t, hs.URL)
	if _, isErr := callTool(t, a, agent.ToolRun, map[string]any{"command": "true"}); isErr {
		t.Fatal("first session refused")
	}
	r, isErr := callTool(t, b, agent.ToolRun, map[string]any{"command": "true"})
	if !isErr || errCode(r) != "TOO_MANY_SESSIONS" {
		t.Fatalf("second session: %v", r)
	}
	if _, isErr := callTool(t, a, agent.ToolRun, map[string]any{"command": "true"}); isErr {
		t.Fatal("first session broken by the second")
	}
}

// TestConcurrentCallsOneSession runs calls of one session in parallel: the
// sandbox serializes them.
func TestConcurrentCallsOneSession(t *testing.T) {
	cs := connectMemory(t, newServer(t, session.Config{}))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, isErr := callTool(t, cs, agent.ToolRun, map[string]any{"command": "echo " + strings.Repeat("x", i)})
			if isErr || r["stdout"] != strings.Repeat("x", i)+"\n" {
				t.Errorf("call %d: %v", i, r)
			}
		}()
	}
	wg.Wait()
}

// TestHTTPSessionTimeout checks that an idle HTTP session ends, and its
// sandbox with it.
func TestHTTPSessionTimeout(t *testing.T) {
	srv, err := mcpserver.New(context.Background(), mcpserver.Options{
		Sessions:       session.Config{Sandbox: sandboxOptions(t)},
		SessionTimeout: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(context.Background()) })
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	cs := connectHTTP(t, hs.URL)
	callTool(t, cs, agent.ToolRun, map[string]any{"command": "true"})
	deadline := time.Now().Add(10 * time.Second)
	for srv.Sessions().Stats().Live != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the idle session's sandbox is still live")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: agent.ToolRun, Arguments: map[string]any{"command": "true"}}); err == nil {
		t.Fatal("a call in an ended session succeeded")
	}
}
