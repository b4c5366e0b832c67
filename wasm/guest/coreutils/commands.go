package main

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/cat"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/cp"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/echo"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/grep"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/head"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/ls"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/mkdir"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/mv"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/rm"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/seq"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/sleep"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/sort"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/touch"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/truefalse"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/wc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/yes"
)

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"cat":   cat.Main,
	"cp":    cp.Main,
	"echo":  echo.Main,
	"false": truefalse.False,
	"grep":  grep.Main,
	"head":  head.Main,
	"ls":    ls.Main,
	"mkdir": mkdir.Main,
	"mv":    mv.Main,
	"rm":    rm.Main,
	"seq":   seq.Main,
	"sleep": sleep.Main,
	"sort":  sort.Main,
	"touch": touch.Main,
	"true":  truefalse.True,
	"wc":    wc.Main,
	"yes":   yes.Main,
}
