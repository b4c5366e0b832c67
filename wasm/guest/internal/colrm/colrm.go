// Package colrm implements util-linux colrm: remove columns START through
// END (counted from 1) of each line of standard input. Tabs advance to the
// next multiple of eight and backspaces step back one column; a tab that
// straddles the cut is made up with spaces, as util-linux does.
package colrm

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `
Usage:
 colrm [startcol [endcol]]

Filter out the specified columns.

Options:
 -h, --help     display this help
 -V, --version  display version
`

var spec = tool.Spec{
	Options: []tool.Option{{Short: 'h', Long: "help"}, {Short: 'V', Long: "version"}},
	Help:    help,
}

// Main runs colrm.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	for _, f := range flags {
		switch f.Name {
		case "h":
			return env.Help(help)
		case "V":
			return env.PrintVersion()
		}
	}
	var first, last uint64
	if len(args) > 0 {
		n, err := strconv.ParseUint(args[0], 10, 63)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: first argument: %s\n", env.Name(), tool.Quote(args[0]))
			return 1
		}
		first = n
	}
	if len(args) > 1 {
		n, err := strconv.ParseUint(args[1], 10, 63)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: second argument: %s\n", env.Name(), tool.Quote(args[1]))
			return 1
		}
		last = n
	}
	r := bufio.NewReaderSize(env.Stdin, 64<<10)
	w := env.Out()
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			cut(w, line, first, last)
		}
		if err == io.EOF {
			return 0
		}
		if err != nil {
			env.Errorf("%s", tool.Strerror(err))
			return 1
		}
	}
}

// advance is the column after byte c printed at column col (columns
// counted from 0 before the first byte).
func advance(col uint64, c byte) uint64 {
	switch {
	case c == '\t':
		return (col + 8) &^ 7
	case c == '\b':
		if col > 0 {
			return col - 1
		}
		return 0
	case c < ' ' || c == 0x7f:
		return col
	}
	return col + 1
}

// cut writes line with columns first..last removed (last 0: to the end;
// first 0: nothing removed).
func cut(w *bufio.Writer, line []byte, first, last uint64) {
	var col uint64
	i := 0
	for ; i < len(line); i++ {
		c := line[i]
		if c == '\n' {
			w.WriteByte(c)
			return
		}
		next := advance(col, c)
		if first == 0 || next < first {
			w.WriteByte(c)
			col = next
			continue
		}
		// c reaches the cut: fill the columns before first it spans.
		for k := col + 1; k < first; k++ {
			w.WriteByte(' ')
		}
		col = next
		i++
		break
	}
	// Drop bytes until the column reaches last.
	for ; i < len(line) && (last == 0 || col < last); i++ {
		if line[i] == '\n' {
			w.WriteByte('\n')
			return
		}
		col = advance(col, line[i])
	}
	padded := false
	for ; i < len(line); i++ {
		c := line[i]
		if c != '\n' && !padded && last < col {
			for k := last; k < col; k++ {
				w.WriteByte(' ')
			}
			padded = true
		}
		w.WriteByte(c)
	}
}
