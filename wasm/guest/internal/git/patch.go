package git

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// splitText splits a file's contents into lines, each with its "\n"; the
// last may lack it.
func splitText(data []byte) []string {
	var ls []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			ls = append(ls, string(data))
			break
		}
		ls = append(ls, string(data[:i+1]))
		data = data[i+1:]
	}
	return ls
}

// isBinary reports whether git would treat data as binary: a NUL byte in
// its first 8000 bytes.
func isBinary(data []byte) bool {
	if len(data) > 8000 {
		data = data[:8000]
	}
	return bytes.IndexByte(data, 0) >= 0
}

// funcLine is git's default hunk-header function line: the nearest line
// before the hunk that starts with a letter, "_" or "$", trailing space
// removed, at most 80 bytes.
func funcLine(a []string, before int) string {
	for i := before - 1; i >= 0; i-- {
		l := a[i]
		if l == "" {
			continue
		}
		c := l[0]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' {
			if len(l) > 80 {
				l = l[:80]
			}
			return strings.TrimRight(l, " \t\r\n\f\v")
		}
	}
	return ""
}

func rangeText(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// writeHunks writes the unified diff hunks from a to b with ctx lines of
// context.
func writeHunks(w io.Writer, a, b []string, ctx int) {
	es := diffLines(a, b)
	// Collect the change runs' positions, then group them into hunks.
	type span struct{ a0, a1, b0, b1 int } // changed ranges [a0,a1) [b0,b1)
	var changes []span
	for _, e := range es {
		if e.op == '=' {
			continue
		}
		if n := len(changes); n > 0 && changes[n-1].a1 == e.a && changes[n-1].b1 == e.b {
			if e.op == '-' {
				changes[n-1].a1 += e.n
			} else {
				changes[n-1].b1 += e.n
			}
			continue
		}
		s := span{e.a, e.a, e.b, e.b}
		if e.op == '-' {
			s.a1 += e.n
		} else {
			s.b1 += e.n
		}
		changes = append(changes, s)
	}
	for i := 0; i < len(changes); {
		j := i
		for j+1 < len(changes) && changes[j+1].a0-changes[j].a1 <= 2*ctx {
			j++
		}
		first, last := changes[i], changes[j]
		a0 := max(first.a0-ctx, 0)
		b0 := first.b0 - (first.a0 - a0)
		a1 := min(last.a1+ctx, len(a))
		b1 := last.b1 + (a1 - last.a1)
		as, bs := a0+1, b0+1
		if a1 == a0 {
			as = a0
		}
		if b1 == b0 {
			bs = b0
		}
		hdr := fmt.Sprintf("@@ -%s +%s @@", rangeText(as, a1-a0), rangeText(bs, b1-b0))
		if f := funcLine(a, a0); f != "" {
			hdr += " " + f
		}
		fmt.Fprintln(w, hdr)
		ai, bi := a0, b0
		for k := i; k <= j; k++ {
			c := changes[k]
			for ; ai < c.a0; ai, bi = ai+1, bi+1 {
				writeLine(w, ' ', a[ai])
			}
			for ; ai < c.a1; ai++ {
				writeLine(w, '-', a[ai])
			}
			for ; bi < c.b1; bi++ {
				writeLine(w, '+', b[bi])
			}
		}
		for ; ai < a1; ai, bi = ai+1, bi+1 {
			writeLine(w, ' ', a[ai])
		}
		i = j + 1
	}
}

func writeLine(w io.Writer, mark byte, l string) {
	if strings.HasSuffix(l, "\n") {
		fmt.Fprintf(w, "%c%s", mark, l)
		return
	}
	fmt.Fprintf(w, "%c%s\n\\ No newline at end of file\n", mark, l)
}

// countChanges returns the lines added and removed from a to b.
func countChanges(a, b []byte) (add, del int) {
	for _, e := range diffLines(splitText(a), splitText(b)) {
		switch e.op {
		case '+':
			add += e.n
		case '-':
			del += e.n
		}
	}
	return add, del
}
