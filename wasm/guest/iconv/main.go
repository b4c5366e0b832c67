// Command iconv is the guest module holding iconv, apart from sysutils
// because golang.org/x/text's East Asian tables would make every sysutils
// command's download larger. It runs the command named by the base name
// of argv[0], or by its first argument when invoked as iconv.wasm.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "iconv"

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
