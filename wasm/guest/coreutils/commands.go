package main

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/cat"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/column"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/comm"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/cp"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/csplit"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/cut"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/echo"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/expand"
	fmtcmd "github.com/wasmsand/wasmsand/wasm/guest/internal/fmt"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/fold"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/grep"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/head"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/join"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/ls"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/mkdir"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/mv"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/nl"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/paste"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/rev"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/rm"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/seq"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/shuf"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/sleep"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/sort"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/split"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tac"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tail"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tee"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/touch"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tr"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/truefalse"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/uniq"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/wc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/yes"
)

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"column":   column.Main,
	"comm":     comm.Main,
	"csplit":   csplit.Main,
	"cut":      cut.Main,
	"expand":   expand.Expand,
	"unexpand": expand.Unexpand,
	"fmt":      fmtcmd.Main,
	"join":     join.Main,
	"nl":       nl.Main,
	"paste":    paste.Main,
	"rev":      rev.Main,
	"shuf":     shuf.Main,
	"split":    split.Main,
	"tac":      tac.Main,
	"tail":     tail.Main,
	"tee":      tee.Main,
	"tr":       tr.Main,
	"uniq":     uniq.Main,
	"fold":     fold.Main,
	"egrep":    grep.Egrep,
	"fgrep":    grep.Fgrep,
	"cat":      cat.Main,
	"cp":       cp.Main,
	"echo":     echo.Main,
	"false":    truefalse.False,
	"grep":     grep.Main,
	"head":     head.Main,
	"ls":       ls.Main,
	"mkdir":    mkdir.Main,
	"mv":       mv.Main,
	"rm":       rm.Main,
	"seq":      seq.Main,
	"sleep":    sleep.Main,
	"sort":     sort.Main,
	"touch":    touch.Main,
	"true":     truefalse.True,
	"wc":       wc.Main,
	"yes":      yes.Main,
}
