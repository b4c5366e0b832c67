package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNodeMCP drives "npx wasmsand mcp" — the npm package's bin under Node
// 26 — with the Go MCP SDK's client over stdio.
func TestNodeMCP(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the npm package and runs Node; not in -short mode")
	}
	node := node26(t)
	pkg := buildPackage(t)
	cmd := exec.Command(node, filepath.Join(pkg, "bin", "wasmsand.mjs"), "mcp", "--timeout", "20000")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	call := func(name string, args map[string]any) (map[string]any, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stderr.String())
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &m); err != nil {
			t.Fatal(err)
		}
		return m, res.IsError
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools: %v", err)
	}
	have := map[string]bool{}
	for _, tl := range tools.Tools {
		have[tl.Name] = true
	}
	for _, name := range []string{"sandbox_run", "read_file", "write_file", "list_dir", "run_code", "snapshot", "restore"} {
		if !have[name] {
			t.Errorf("the Node MCP server lists no %s tool (it lists %v)", name, have)
		}
	}
	if r, isErr := call("sandbox_run", map[string]any{"command": "seq 100 | grep 7 | wc -l"}); isErr || r["stdout"] != "19\n" {
		t.Fatalf("pipeline: %v", r)
	}
	call("write_file", map[string]any{"path": "a/b.txt", "content": "node"})
	if r, _ := call("read_file", map[string]any{"path": "/home/user/a/b.txt"}); r["content"] != "node" {
		t.Fatalf("read_file: %v", r)
	}
	if r, isErr := call("sandbox_run", map[string]any{"command": []int{1}}); !isErr || !strings.Contains(r["error"].(map[string]any)["code"].(string), "INVALID_ARGUMENT") {
		t.Fatalf("bad arguments: %v", r)
	}
	if r, _ := call("sandbox_run", map[string]any{"command": "while :; do :; done", "timeout_ms": 300}); r["exit_code"] != 124.0 {
		t.Fatalf("timeout: %v", r)
	}
	if r, isErr := call("read_file", map[string]any{"path": "/etc/shadow"}); !isErr {
		t.Fatalf("missing file: %v", r)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v\n%s", err, stderr.String())
	}
	if !cmd.ProcessState.Success() {
		t.Fatalf("the server did not exit cleanly at EOF: %v\n%s", cmd.ProcessState, stderr.String())
	}
}
