// Command yq is the guest module holding yq (github.com/mikefarah/yq/v4).
// It is a module of its own, the largest of the guests, so that the
// browser downloads it only when yq first runs. It runs the command named
// by the base name of argv[0], or by its first argument when invoked as
// yq.wasm.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/yq"
)

const self = "yq"

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"yq": yq.Main,
}

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
