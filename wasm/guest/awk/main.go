// Command awk is the guest module holding awk (GoAWK behind GNU awk's
// command line). It runs the command named by the base name of argv[0], or
// by its first argument when invoked as awk.wasm.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "awk"

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
