// Command sed is a multi-call guest module holding the stream editor. It
// runs the command named by the base name of argv[0], or by its first
// argument when invoked as sed.wasm. Setting WASMSAND_LIST_COMMANDS lists the command names
// (see tool.Multicall).
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/sed"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "sed"

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"sed": sed.Main,
}

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
