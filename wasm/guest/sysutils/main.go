// Command sysutils is a multi-call guest module holding the system, file
// attribute, checksum, encoding and arithmetic commands (rmdir, ln, stat,
// date, bc, test...). It runs the command named by the base name of
// argv[0], or by its first argument when invoked as sysutils.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "sysutils"

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
