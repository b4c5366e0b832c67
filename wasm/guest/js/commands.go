package main

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/js/internal/node"
)

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"node": node.Main,
	"js":   node.Main,
}
