// Package column implements column (util-linux): arrange input in
// columns, or as a table with -t.
package column

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 't', Long: "table"},
		{Short: 's', Long: "separator", Arg: tool.RequiredArg},
		{Short: 'o', Long: "output-separator", Arg: tool.RequiredArg},
		{Short: 'c', Long: "output-width", Arg: tool.RequiredArg},
		{Short: 'x', Long: "fillrows"},
		{Short: 'R', Long: "table-right", Arg: tool.RequiredArg},
		{Short: 'N', Long: "table-columns", Arg: tool.RequiredArg},
		{Short: 'L', Long: "keep-empty-lines"},
	},
	Help: `Usage:
 column [options] [<file>...]

Columnate lists.

Options:
 -t, --table                      create a table
 -N, --table-columns <names>      comma separated columns names
 -R, --table-right <columns>      right align text in these columns
 -L, --keep-empty-lines           don't ignore empty lines
 -c, --output-width <width>       width of output in number of characters
 -o, --output-separator <string>  columns separator for table output
                                    (default is two spaces)
 -s, --separator <string>         possible table delimiters
 -x, --fillrows                   fill rows before columns

 -h, --help                       display this help
 -V, --version                    display version
`}

func width(s []byte) int { return utf8.RuneCount(s) }

// Main runs column.
func Main(env *tool.Env) int {
	args := append([]string(nil), env.Args...)
	for i, a := range args {
		if i > 0 && (a == "-h" || a == "-V") {
			args[i] = map[string]string{"-h": "--help", "-V": "--version"}[a]
		}
	}
	sub := *env
	sub.Args = args
	flags, files, code, done := spec.Parse(&sub)
	if done {
		return code
	}
	table, fillRows, keepEmpty := false, false, false
	seps := " \t"
	outSep := "  "
	termWidth := 80
	if c, err := strconv.Atoi(env.Env("COLUMNS")); err == nil && c > 0 {
		termWidth = c
	}
	var right map[int]bool
	var header []string
	for _, f := range flags {
		switch f.Name {
		case "t":
			table = true
		case "s":
			seps = f.Arg
		case "o":
			outSep = f.Arg
		case "c":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 0 {
				env.Errorf("invalid columns argument: '%s'", f.Arg)
				return 1
			}
			termWidth = n
		case "x":
			fillRows = true
		case "L":
			keepEmpty = true
		case "N":
			header = strings.Split(f.Arg, ",")
		case "R":
			right = map[int]bool{}
			for _, s := range strings.Split(f.Arg, ",") {
				if n, err := strconv.Atoi(s); err == nil {
					right[n-1] = true
				} else {
					for i, h := range header {
						if h == s {
							right[i] = true
						}
					}
				}
			}
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var lines [][]byte
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("cannot open %s: %s", name, tool.Strerror(err))
			return 1
		}
		br := bufio.NewReader(r)
		for {
			l, err := br.ReadBytes('\n')
			l = bytes.TrimSuffix(l, []byte{'\n'})
			if len(l) > 0 || keepEmpty && err == nil {
				lines = append(lines, l)
			}
			if err != nil {
				if err != io.EOF {
					env.Errorf("read failed: %s", tool.Strerror(err))
					r.Close()
					return 1
				}
				break
			}
		}
		r.Close()
	}
	out := env.Out()
	if table {
		var rows [][][]byte
		if header != nil {
			var h [][]byte
			for _, s := range header {
				h = append(h, []byte(s))
			}
			rows = append(rows, h)
		}
		ncols := 0
		for _, l := range lines {
			var cells [][]byte
			if seps == " \t" {
				cells = bytes.Fields(l)
			} else {
				for {
					i := bytes.IndexAny(l, seps)
					if i < 0 {
						cells = append(cells, l)
						break
					}
					cells = append(cells, l[:i])
					_, n := utf8.DecodeRune(l[i:])
					l = l[i+n:]
				}
			}
			rows = append(rows, cells)
			ncols = max(ncols, len(cells))
		}
		for _, r := range rows {
			ncols = max(ncols, len(r))
		}
		widths := make([]int, ncols)
		for _, r := range rows {
			for i, c := range r {
				widths[i] = max(widths[i], width(c))
			}
		}
		for _, r := range rows {
			if len(r) == 0 {
				out.WriteByte('\n')
				continue
			}
			for i := 0; i < ncols; i++ {
				var c []byte
				if i < len(r) {
					c = r[i]
				}
				pad := strings.Repeat(" ", widths[i]-width(c))
				if i == ncols-1 {
					if right[i] {
						out.WriteString(pad)
					}
					out.Write(c)
					break
				}
				if right[i] {
					out.WriteString(pad)
					out.Write(c)
				} else {
					out.Write(c)
					out.WriteString(pad)
				}
				out.WriteString(outSep)
			}
			out.WriteByte('\n')
		}
	} else {
		columnate(out, lines, termWidth, fillRows)
	}
	if _, err := out.Write(nil); err != nil {
		return env.WriteFailed(err)
	}
	return 0
}

// columnate fills columns as util-linux does: each column is the longest
// entry rounded up to the next tab stop; tabs separate the columns.
func columnate(out *bufio.Writer, ents [][]byte, termWidth int, fillRows bool) {
	if len(ents) == 0 {
		return
	}
	maxLen := 0
	for _, e := range ents {
		maxLen = max(maxLen, width(e))
	}
	maxLen = (maxLen + 8) &^ 7
	numCols := termWidth / maxLen
	if numCols == 0 {
		numCols = 1
	}
	tabTo := func(chcnt, endcol int) int {
		for {
			cnt := (chcnt + 8) &^ 7
			if cnt > endcol {
				return chcnt
			}
			out.WriteByte('\t')
			chcnt = cnt
		}
	}
	if fillRows {
		chcnt, col, endcol := 0, 0, maxLen
		for _, e := range ents {
			out.Write(e)
			chcnt += width(e)
			col++
			if col == numCols {
				chcnt, col, endcol = 0, 0, maxLen
				out.WriteByte('\n')
				continue
			}
			chcnt = tabTo(chcnt, endcol)
			endcol += maxLen
		}
		if chcnt != 0 || col != 0 {
			out.WriteByte('\n')
		}
		return
	}
	numRows := (len(ents) + numCols - 1) / numCols
	for row := 0; row < numRows; row++ {
		endcol := maxLen
		chcnt := 0
		for base, col := row, 0; col < numCols; col++ {
			out.Write(ents[base])
			chcnt += width(ents[base])
			if base += numRows; base >= len(ents) {
				break
			}
			chcnt = tabTo(chcnt, endcol)
			endcol += maxLen
		}
		out.WriteByte('\n')
	}
}
