// Command netutils is a multi-call guest module holding the network
// commands, curl and wget. Their requests go through the sandbox's
// "wasmsand" host module and its network policy. It runs the command
// named by the base name of argv[0], or by its first argument when invoked
// as netutils.
package main

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/curl"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/wget"
)

const self = "netutils"

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"curl": curl.Main,
	"wget": wget.Main,
}

func main() { os.Exit(tool.Multicall(self, Commands)) }
