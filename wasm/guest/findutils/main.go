// Command findutils is a multi-call guest module holding the file-finding
// and comparing commands: find, xargs, diff, cmp and patch. It runs the
// command named by the base name of argv[0], or by its first argument when
// invoked as findutils. Setting WASMSAND_LIST_COMMANDS lists the command names
// (see tool.Multicall).
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/cmp"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/diff"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/find"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/patch"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/xargs"
)

const self = "findutils"

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"cmp":   cmp.Main,
	"diff":  diff.Main,
	"find":  find.Main,
	"patch": patch.Main,
	"xargs": xargs.Main,
}

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
