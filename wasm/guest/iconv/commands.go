package main

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/iconv"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"iconv": iconv.Main,
}
