// Command git is the guest module holding git, on go-git. It is a module of
// its own so that the browser downloads it only when git first runs. go-git
// has no wasip1 file for its worktree package: the guest build vendors the
// dependencies into a scratch copy and overlays _overlay's files on them
// (see guest.Build). It runs the command named by the base name of argv[0],
// or by its first argument when invoked as git.wasm.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/git"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "git"

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"git": git.Main,
}

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
