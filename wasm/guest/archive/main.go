// Command archive is the guest module holding tar, gzip, gunzip, zcat, zip
// and unzip. It runs the command named by the base name of argv[0], or by
// its first argument when invoked as archive.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "archive"

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
