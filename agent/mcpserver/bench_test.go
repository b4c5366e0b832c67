package mcpserver_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/agent/session"
)

// benchCalls measures one sandbox_run round trip: a shell builtin, so that
// the figure is the server's overhead, and a two-guest pipeline.
func benchCalls(b *testing.B, cs *mcp.ClientSession) {
	for _, c := range []struct{ name, cmd string }{
		{"builtin", "echo hi"},
		{"pipeline", "seq 10 | wc -l"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: agent.ToolRun, Arguments: map[string]any{"command": c.cmd}})
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}

func BenchmarkCallInMemory(b *testing.B) {
	benchCalls(b, connectMemory(b, newServer(b, session.Config{})))
}

func BenchmarkCallHTTP(b *testing.B) {
	srv := newServer(b, session.Config{})
	hs := httptest.NewServer(srv.Handler())
	b.Cleanup(hs.Close)
	benchCalls(b, connectHTTP(b, hs.URL))
}
