// Command rg is the guest module holding rg, ripgrep's command line. It is
// a module of its own so that the browser downloads it only when rg first
// runs. It runs the command named by the base name of argv[0], or by its
// first argument when invoked as rg.wasm.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/rg"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "rg"

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"rg": rg.Main,
}

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
