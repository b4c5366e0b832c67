package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// newToolset makes a sandbox with the built guest tools and its Toolset.
func newToolset(t *testing.T, o sandbox.Options) *agent.Toolset {
	t.Helper()
	o.ToolsDir = guesttest.Dir(t)
	if dir, err := os.UserCacheDir(); err == nil {
		o.CacheDir = filepath.Join(dir, "wasmsand-test", "modules")
	}
	sb, err := sandbox.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	ts, err := agent.New(sb, agent.Options{Sandbox: o, MaxOutputBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func call(t *testing.T, ts *agent.Toolset, name, args string) any {
	t.Helper()
	res, err := ts.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return res
}

func callErr(t *testing.T, ts *agent.Toolset, name, args, code string) *agent.Error {
	t.Helper()
	res, err := ts.Call(context.Background(), name, json.RawMessage(args))
	var e *agent.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s %s: got %#v, %v; want an *agent.Error", name, args, res, err)
	}
	if e.Code != code {
		t.Fatalf("%s %s: code %s (%s), want %s", name, args, e.Code, e.Message, code)
	}
	return e
}

func TestRunPipeline(t *testing.T) {
	ts := newToolset(t, sandbox.Options{Timeout: 10 * time.Second})
	r := call(t, ts, agent.ToolRun, `{"command":"seq 100 | grep 7 | wc -l"}`).(*agent.RunResult)
	if r.ExitCode != 0 || strings.TrimSpace(r.Stdout) != "19" || r.Truncated {
		t.Fatalf("got %+v", r)
	}
	r = call(t, ts, agent.ToolRun, `{"command":"sort","stdin":"b\na\n"}`).(*agent.RunResult)
	if r.Stdout != "a\nb\n" {
		t.Fatalf("stdin: got %+v", r)
	}
	r = call(t, ts, agent.ToolRun, `{"command":"echo oops >&2; exit 3"}`).(*agent.RunResult)
	if r.ExitCode != 3 || r.Stderr != "oops\n" {
		t.Fatalf("exit 3: got %+v", r)
	}
	// State persists between calls.
	call(t, ts, agent.ToolRun, `{"command":"cd /tmp; X=42"}`)
	r = call(t, ts, agent.ToolRun, `{"command":"echo $X $PWD"}`).(*agent.RunResult)
	if r.Stdout != "42 /tmp\n" {
		t.Fatalf("state: got %+v", r)
	}
}

func TestRunLongOutputIsClipped(t *testing.T) {
	ts := newToolset(t, sandbox.Options{})
	r := call(t, ts, agent.ToolRun, `{"command":"seq 100000"}`).(*agent.RunResult)
	if !r.Truncated || !strings.HasPrefix(r.Stdout, "1\n2\n") || !strings.HasSuffix(r.Stdout, "99999\n100000\n") || !strings.Contains(r.Stdout, "bytes (") {
		t.Fatalf("got %d bytes, truncated %v: %q", len(r.Stdout), r.Truncated, r.Stdout)
	}
	if len(r.Stdout) > 1300 {
		t.Fatalf("clipped output is %d bytes, want about 1000", len(r.Stdout))
	}
}

func TestRunTimeout(t *testing.T) {
	ts := newToolset(t, sandbox.Options{Timeout: 20 * time.Second})
	start := time.Now()
	r := call(t, ts, agent.ToolRun, `{"command":"while true; do :; done","timeout_ms":300}`).(*agent.RunResult)
	if r.ExitCode != 124 || !strings.Contains(r.Stderr, "timed out") {
		t.Fatalf("got %+v", r)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("timeout_ms 300 took %v", d)
	}
	r = call(t, ts, agent.ToolRun, `{"command":"echo still here"}`).(*agent.RunResult)
	if r.Stdout != "still here\n" {
		t.Fatalf("after timeout: %+v", r)
	}
}

func TestFiles(t *testing.T) {
	ts := newToolset(t, sandbox.Options{})
	w := call(t, ts, agent.ToolWriteFile, `{"path":"data/a.txt","content":"hello\n"}`).(*agent.WriteFileResult)
	if w.BytesWritten != 6 || w.Size != 6 {
		t.Fatalf("write: %+v", w)
	}
	call(t, ts, agent.ToolWriteFile, `{"path":"data/a.txt","content":"world\n","append":true}`)
	r := call(t, ts, agent.ToolReadFile, `{"path":"/home/user/data/a.txt"}`).(*agent.ReadFileResult)
	if r.Content != "hello\nworld\n" || r.Encoding != "utf-8" || r.Size != 12 {
		t.Fatalf("read: %+v", r)
	}
	// The shell sees the same files.
	run := call(t, ts, agent.ToolRun, `{"command":"wc -l < data/a.txt"}`).(*agent.RunResult)
	if strings.TrimSpace(run.Stdout) != "2" {
		t.Fatalf("wc: %+v", run)
	}
	call(t, ts, agent.ToolWriteFile, `{"path":"/tmp/bin","content":"AP8B","encoding":"base64"}`)
	r = call(t, ts, agent.ToolReadFile, `{"path":"/tmp/bin"}`).(*agent.ReadFileResult)
	if r.Encoding != "base64" || r.Content != "AP8B" || r.Size != 3 {
		t.Fatalf("binary: %+v", r)
	}
	l := call(t, ts, agent.ToolListDir, `{"path":"data"}`).(*agent.ListDirResult)
	if len(l.Entries) != 1 || l.Entries[0] != (agent.DirEntry{Name: "a.txt", Type: "file", Size: 12}) {
		t.Fatalf("list: %+v", l)
	}
	l = call(t, ts, agent.ToolListDir, `{}`).(*agent.ListDirResult)
	if len(l.Entries) != 1 || l.Entries[0].Type != "dir" {
		t.Fatalf("list cwd: %+v", l)
	}
}

func TestErrors(t *testing.T) {
	ts := newToolset(t, sandbox.Options{})
	callErr(t, ts, "rm_rf", `{}`, agent.CodeUnknownTool)
	callErr(t, ts, agent.ToolRun, `{}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolRun, `{"command":5}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolRun, `{"command":"ls","sudo":true}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolRun, `[1]`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolRun, `{"command":"ls","timeout_ms":-1}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolReadFile, `{"path":""}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolWriteFile, `{"path":"x","content":"!","encoding":"base64"}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolWriteFile, `{"path":"x","content":"a","encoding":"latin1"}`, agent.CodeInvalidArgument)
	callErr(t, ts, agent.ToolReadFile, `{"path":"nope.txt"}`, "ENOENT")
	callErr(t, ts, agent.ToolReadFile, `{"path":"/tmp"}`, "EISDIR")
	// The host's files are out of reach: paths resolve in the sandbox.
	host, err := os.ReadFile("/etc/hostname")
	if err == nil && len(host) > 0 {
		for _, p := range []string{"/etc/hostname", "../../../../etc/hostname"} {
			res, err := ts.Call(context.Background(), agent.ToolReadFile, json.RawMessage(`{"path":"`+p+`"}`))
			if err == nil && strings.Contains(res.(*agent.ReadFileResult).Content, strings.TrimSpace(string(host))) {
				t.Fatalf("read_file %s reached the host's file", p)
			}
		}
	}
	callErr(t, ts, agent.ToolRunCode, `{"code":"1","language":"cobol"}`, agent.CodeInvalidArgument)
	text, isErr := ts.CallJSON(context.Background(), agent.ToolReadFile, json.RawMessage(`{"path":"nope"}`))
	if !isErr || !strings.HasPrefix(string(text), `{"error":{"code":"ENOENT"`) {
		t.Fatalf("CallJSON: %s %v", text, isErr)
	}
}

func TestRunCode(t *testing.T) {
	ts := newToolset(t, sandbox.Options{})
	r := call(t, ts, agent.ToolRunCode, `{"code":"console.log('hi'); [1,2,3].map(x => x*2)"}`).(*agent.CodeResult)
	if !r.OK || string(r.Result) != "[2,4,6]" || r.Stdout != "hi\n" {
		t.Fatalf("got %+v (%s)", r, r.Result)
	}
	r = call(t, ts, agent.ToolRunCode, `{"code":"throw new Error('bad')"}`).(*agent.CodeResult)
	if r.OK || r.Error == nil || r.Error.Code != sandbox.CodeRuntime {
		t.Fatalf("throw: %+v", r)
	}
}

func TestExtraTool(t *testing.T) {
	o := sandbox.Options{}
	sb, err := sandbox.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	hello := agent.Def{
		Tool: agent.Tool{Name: "hello", Description: "Say hello.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(ctx context.Context, t *agent.Toolset, args json.RawMessage) (any, error) {
			return map[string]string{"hello": "world"}, nil
		},
	}
	boom := agent.Def{
		Tool: agent.Tool{Name: "boom", Description: "Panics.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Call: func(ctx context.Context, t *agent.Toolset, args json.RawMessage) (any, error) { panic("kaboom") },
	}
	ts, err := agent.New(sb, agent.Options{Extra: []agent.Def{hello, boom}})
	if err != nil {
		t.Fatal(err)
	}
	tools := ts.Tools()
	if n := len(tools); n != 9 || tools[7].Name != "hello" { // 7 built-in tools, then Extra
		t.Fatalf("tools: %d", n)
	}
	if text, isErr := ts.CallJSON(context.Background(), "hello", nil); isErr || string(text) != `{"hello":"world"}` {
		t.Fatalf("hello: %s", text)
	}
	callErr(t, ts, "boom", `{}`, agent.CodeInternal)
}

func TestClip(t *testing.T) {
	if s, cut := agent.Clip("short", 10); s != "short" || cut {
		t.Fatal(s)
	}
	var b strings.Builder
	for i := range 1000 {
		b.WriteString(strings.Repeat("é", i%7) + "line\n")
	}
	s, cut := agent.Clip(b.String(), 400)
	if !cut || !strings.HasPrefix(s, "line\n") || !strings.HasSuffix(s, "line\n") || !strings.Contains(s, "cut from the middle") {
		t.Fatalf("%v %q", cut, s)
	}
	if !json.Valid([]byte(`"` + strings.ReplaceAll(strings.ReplaceAll(s, "\n", `\n`), `"`, `\"`) + `"`)) {
		t.Fatal("clipped text is not valid UTF-8")
	}
	if s, _ := agent.Clip("a\xffb", 10); s != "a\uFFFDb" {
		t.Fatalf("%q", s)
	}
}

func TestReplace(t *testing.T) {
	ts := newToolset(t, sandbox.Options{})
	call(t, ts, agent.ToolWriteFile, `{"path":"old.txt","content":"old"}`)
	fresh, err := sandbox.New(context.Background(), sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	old := ts.Replace(fresh)
	defer old.Close()
	if ts.Sandbox() != fresh {
		t.Fatal("Sandbox is not the new one")
	}
	callErr(t, ts, agent.ToolReadFile, `{"path":"old.txt"}`, "ENOENT")
	if b, err := old.ReadFile("old.txt"); err != nil || string(b) != "old" {
		t.Fatalf("old sandbox: %q %v", b, err)
	}
}
