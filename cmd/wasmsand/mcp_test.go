package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// mcpCommand is "wasmsand mcp" with the built tools and a warm cache.
func mcpCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	wasmsand(t, "", "-c", "true") // builds the binary, warms the compile cache
	full := append([]string{"mcp", "--tools", guesttest.Dir(t), "--cache-dir", cacheDir, "--timeout", "20s"}, args...)
	return exec.Command(wasmsandBin(t), full...)
}

func mcpCall(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &m); err != nil {
		t.Fatal(err)
	}
	return m, res.IsError
}

// mcpSession checks a session end to end: tools, a pipeline, files, and
// error paths that must stay tool errors.
func mcpSession(t *testing.T, cs *mcp.ClientSession) {
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) < 5 {
		t.Fatalf("tools: %v %v", tools, err)
	}
	r, isErr := mcpCall(t, cs, "sandbox_run", map[string]any{"command": "printf 'b\\na\\nc\\n' | sort | tr a-z A-Z"})
	if isErr || r["stdout"] != "A\nB\nC\n" || r["exit_code"] != 0.0 {
		t.Fatalf("pipeline: %v", r)
	}
	mcpCall(t, cs, "write_file", map[string]any{"path": "/tmp/x/y.txt", "content": "hi"})
	r, _ = mcpCall(t, cs, "read_file", map[string]any{"path": "/tmp/x/y.txt"})
	if r["content"] != "hi" {
		t.Fatalf("read_file: %v", r)
	}
	r, isErr = mcpCall(t, cs, "sandbox_run", map[string]any{"command": 42})
	if !isErr || r["error"].(map[string]any)["code"] != "INVALID_ARGUMENT" {
		t.Fatalf("bad argument: %v", r)
	}
	r, _ = mcpCall(t, cs, "sandbox_run", map[string]any{"command": "sleep 5", "timeout_ms": 200})
	if r["exit_code"] != 124.0 {
		t.Fatalf("timeout: %v", r)
	}
	r, isErr = mcpCall(t, cs, "read_file", map[string]any{"path": "/root/.bashrc"})
	if !isErr {
		t.Fatalf("host path: %v", r)
	}
}

// TestMCPStdio drives the real binary over stdio with the SDK's client;
// closing the client (EOF on the server's stdin) ends the server cleanly.
func TestMCPStdio(t *testing.T) {
	cmd := mcpCommand(t)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mcpSession(t, cs)
	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v; stderr %s", err, stderr.String())
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Fatalf("server did not exit cleanly on EOF: %v; stderr %s", cmd.ProcessState, stderr.String())
	}
}

// TestMCPHTTP drives the real binary over streamable HTTP on 127.0.0.1
// and stops it with SIGTERM.
func TestMCPHTTP(t *testing.T) {
	cmd := mcpCommand(t, "--http", "127.0.0.1:0")
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(errPipe)
	url := ""
	for lines.Scan() {
		if _, u, ok := strings.Cut(lines.Text(), "listening on "); ok {
			url = u
			break
		}
	}
	if url == "" {
		t.Fatal("no listening line on stderr")
	}
	go func() {
		for lines.Scan() {
			t.Log("server:", lines.Text())
		}
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mcpSession(t, cs)
	cs.Close()

	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not stop on SIGTERM")
	}
}

func TestMCPUsage(t *testing.T) {
	bin := wasmsandBin(t)
	if r := runBin(t, bin, "", "mcp", "--max-sessions", "many"); r.code != exitUsage {
		t.Fatalf("bad flag value: %+v", r)
	}
	if r := runBin(t, bin, "", "mcp", "--tools", guesttest.Dir(t), "-c", "ls"); r.code != exitUsage {
		t.Fatalf("-c: %+v", r)
	}
	if r := runBin(t, bin, "", "mcp", "--help"); r.code != 0 || !strings.Contains(r.stdout, "streamable HTTP") {
		t.Fatalf("--help: %+v", r)
	}
}

// TestMCPStdioSignal stops a stdio server with SIGINT while its client is
// still connected: it exits with status 0.
func TestMCPStdioSignal(t *testing.T) {
	cmd := mcpCommand(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, isErr := mcpCall(t, cs, "sandbox_run", map[string]any{"command": "echo up"}); isErr || r["stdout"] != "up\n" {
		t.Fatalf("%v", r)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		// The server's stdout closes when it exits, which ends the
		// session; Close then reaps the process.
		if err := cs.Ping(context.Background(), nil); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server still answers 20s after SIGINT")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cs.Close()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("after SIGINT: %v", cmd.ProcessState)
	}
}
