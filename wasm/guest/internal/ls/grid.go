package ls

import (
	"io/fs"
	"strconv"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
)

// layout is how short listings are arranged.
type layout uint8

const (
	onePerLine layout = iota // -1, the default when output is not a terminal
	columns                  // -C: down the columns
	across                   // -x: across the rows
	commas                   // -m
)

// mode is e's type and permission bits. WASI reports no permission bits,
// so they come from fsx (the sandbox's own record of them).
func (l *lister) mode(e entry) fs.FileMode {
	m := e.info.Mode()
	if m&fs.ModeSymlink != 0 {
		return m
	}
	if p, err := fsx.Perm(e.path, true); err == nil {
		return m.Type() | p
	}
	return m
}

// printGrid prints names in columns as GNU ls -C and -x do: the most
// columns that fit the line width, each as wide as its longest name plus
// two, padded with tabs where tabsize allows.
func (l *lister) printGrid(es []entry) {
	names := make([]string, len(es))
	widths := make([]int, len(es))
	for i, e := range es {
		s := l.displayName(e.name) + l.suffix(e)
		if l.inode {
			s = strconv.FormatUint(inode(e.info), 10) + " " + s
		}
		names[i] = s
		widths[i] = utf8.RuneCountInString(s)
	}
	if l.format == commas {
		pos := 0
		for i, s := range names {
			sep := 0
			if i < len(names)-1 {
				sep = 2 // ", "
			}
			if i > 0 && l.width > 0 && pos+widths[i]+sep > l.width {
				l.out.WriteByte('\n')
				pos = 0
			} else if i > 0 {
				l.out.WriteByte(' ')
				pos++
			}
			l.out.WriteString(s)
			pos += widths[i]
			if sep > 0 {
				l.out.WriteByte(',')
				pos++
			}
		}
		if len(names) > 0 {
			l.out.WriteByte('\n')
		}
		return
	}
	n := len(names)
	if n == 0 {
		return
	}
	cols, colWidth := l.fit(widths)
	rows := (n + cols - 1) / cols
	at := func(r, c int) int {
		if l.format == across {
			return r*cols + c
		}
		return c*rows + r
	}
	for r := 0; r < rows; r++ {
		pos := 0
		for c := 0; c < cols; c++ {
			i := at(r, c)
			if i >= n {
				break
			}
			l.out.WriteString(names[i])
			next := at(r, c+1)
			if c == cols-1 || next >= n {
				break
			}
			end := pos + colWidth[c]
			l.indent(pos+widths[i], end)
			pos = end
		}
		l.out.WriteByte('\n')
	}
}

// fit finds the most columns whose widths add up to no more than the line
// width, and those widths.
func (l *lister) fit(widths []int) (int, []int) {
	n := len(widths)
	maxCols := n
	if l.width > 0 {
		maxCols = min(n, max(1, l.width/3))
	}
	for cols := maxCols; cols > 1; cols-- {
		rows := (n + cols - 1) / cols
		// As GNU: every column is at least 3 wide; all but the last get
		// two spaces after their longest name; the line must stay
		// shorter than the width.
		cw := make([]int, cols)
		for c := range cw {
			cw[c] = 3
		}
		total := 3 * cols
		for i, w := range widths {
			c := i / rows
			if l.format == across {
				c = i % cols
			}
			if c != cols-1 {
				w += 2
			}
			if w > cw[c] {
				total += w - cw[c]
				cw[c] = w
			}
		}
		if l.width == 0 || total < l.width {
			return cols, cw
		}
	}
	return 1, []int{0}
}

// indent moves from column from to column to with tabs and spaces.
func (l *lister) indent(from, to int) {
	for from < to {
		if l.tabsize > 0 && to/l.tabsize > (from+1)/l.tabsize {
			l.out.WriteByte('\t')
			from += l.tabsize - from%l.tabsize
		} else {
			l.out.WriteByte(' ')
			from++
		}
	}
}
