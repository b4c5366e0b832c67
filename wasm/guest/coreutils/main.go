// Command coreutils is a multi-call guest module holding the basic file and
// text commands. It runs the command named by the base name of argv[0], or
// by its first argument when invoked as coreutils.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "coreutils"

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
