// Command js is the guest module holding the JavaScript engine: `node` and
// `js`, both goja (github.com/dop251/goja) with a Node-like runtime over the
// sandbox's filesystem. It is a module of its own because goja is large:
// the browser downloads it only when a script first runs.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "js"

func main() { os.Exit(tool.Multicall(self, Commands)) }

// Names lists the commands in order.
func Names() []string { return tool.Names(Commands) }
