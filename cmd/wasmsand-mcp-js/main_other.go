//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains how to build the command: it is only useful as a js/wasm
// core.
func main() {
	fmt.Fprintln(os.Stderr, "wasmsand-mcp-js is the MCP server of the npm package; build it with\n\tGOOS=js GOARCH=wasm go build -o wasmsand-mcp.wasm ./cmd/wasmsand-mcp-js\nor build the whole package with\n\tgo run ./web/mkpackage -o build/npm")
	os.Exit(2)
}
