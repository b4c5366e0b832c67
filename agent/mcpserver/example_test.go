package mcpserver_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wasmsand/wasmsand/agent/mcpserver"
	"github.com/wasmsand/wasmsand/agent/session"
	"github.com/wasmsand/wasmsand/sandbox"
)

// A server of sandboxes, and a client of it over the SDK's in-memory
// transports. Serve stdio with srv.Run(ctx, &mcp.StdioTransport{}), or
// HTTP with http.ListenAndServe(addr, srv.Handler()).
func Example() {
	ctx := context.Background()
	srv, err := mcpserver.New(ctx, mcpserver.Options{
		Sessions: session.Config{
			Sandbox:     sandbox.Options{}, // ToolsDir: "build/tools" for the commands
			MaxSessions: 10,
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close(ctx)

	serverT, clientT := mcp.NewInMemoryTransports()
	go srv.Run(ctx, serverT)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Name:      "sandbox_run",
		Arguments: map[string]any{"command": "echo $((6 * 7))"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q %v\n", res.StructuredContent.(map[string]any)["stdout"], res.IsError)
	// Output:
	// "42\n" false
}
