// Command jq is the guest module holding jq (gojq behind jq's command
// line). It runs the command named by the base name of argv[0], or by its
// first argument when invoked as jq.wasm.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "jq"

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
