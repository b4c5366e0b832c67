package diff

import (
	"bufio"
	"io"
	"strconv"
	"time"
)

// printer writes an edit script in the chosen format.
type printer struct {
	w    io.Writer
	o    *options
	a, b *input
	buf  []byte
	// funcLine is the last line seen that starts a function (-p), and
	// funcScan how far the search for one has gone.
	funcLine []byte
	funcScan int
}

const noNewline = "\n\\ No newline at end of file\n"

func (p *printer) print(script []change) {
	bw, ok := p.w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriter(p.w)
		defer bw.Flush()
	}
	ctx := p.o.context
	if p.o.format == fmtNormal {
		ctx = 0
	}
	hunks := group(script, ctx)
	first := true
	for _, h := range hunks {
		if p.o.ignoreBlank {
			all := true
			for _, c := range h {
				all = all && c.ignore
			}
			if all {
				continue
			}
		}
		switch p.o.format {
		case fmtNormal:
			for _, c := range h {
				p.normal(bw, c)
			}
		case fmtUnified:
			if first {
				p.header(bw, "--- ", "+++ ")
			}
			p.unified(bw, h)
		case fmtContext:
			if first {
				p.header(bw, "*** ", "--- ")
			}
			p.contextHunk(bw, h)
		}
		first = false
	}
}

// group splits the script into hunks: changes closer than 2*ctx+1
// unchanged lines share one, but a change -B ignores joins only if it is
// closer than ctx lines.
func group(script []change, ctx int) [][]change {
	var hunks [][]change
	start := 0
	for i := 1; i <= len(script); i++ {
		thresh := 2*ctx + 1
		if i < len(script) && script[i].ignore {
			thresh = ctx
		}
		if i == len(script) || script[i].line0-(script[i-1].line0+script[i-1].deleted) >= thresh {
			hunks = append(hunks, script[start:i])
			start = i
		}
	}
	return hunks
}

// timeLayout is GNU diff's default time style.
const timeLayout = "2006-01-02 15:04:05.000000000 -0700"

func (p *printer) header(w *bufio.Writer, mark0, mark1 string) {
	for i, in := range [2]*input{p.a, p.b} {
		w.WriteString([2]string{mark0, mark1}[i])
		if in.label != "" {
			w.WriteString(in.label)
		} else {
			w.WriteString(in.name)
			w.WriteByte('\t')
			if p.o.format == fmtContext && p.o.ctimeHeaders {
				w.WriteString(in.mtime.In(time.Local).Format("Mon Jan _2 15:04:05 2006"))
			} else {
				w.WriteString(in.mtime.In(time.Local).Format(timeLayout))
			}
		}
		w.WriteByte('\n')
	}
}

func (p *printer) line(w *bufio.Writer, prefix string, l []byte) {
	w.WriteString(prefix)
	w.Write(l)
	if len(l) == 0 || l[len(l)-1] != '\n' {
		w.WriteString(noNewline)
	}
}

// normalRange writes a 0-origin half-open range [s, e) as normal and
// context diffs show it.
func (p *printer) normalRange(w *bufio.Writer, s, e int) {
	p.buf = p.buf[:0]
	if e-s <= 1 {
		if e-s == 0 {
			p.buf = strconv.AppendInt(p.buf, int64(s), 10)
		} else {
			p.buf = strconv.AppendInt(p.buf, int64(e), 10)
		}
	} else {
		p.buf = strconv.AppendInt(p.buf, int64(s+1), 10)
		p.buf = append(p.buf, ',')
		p.buf = strconv.AppendInt(p.buf, int64(e), 10)
	}
	w.Write(p.buf)
}

func (p *printer) normal(w *bufio.Writer, c change) {
	switch {
	case c.deleted > 0 && c.inserted > 0:
		p.normalRange(w, c.line0, c.line0+c.deleted)
		w.WriteByte('c')
		p.normalRange(w, c.line1, c.line1+c.inserted)
	case c.deleted > 0:
		p.normalRange(w, c.line0, c.line0+c.deleted)
		w.WriteByte('d')
		w.WriteString(strconv.Itoa(c.line1))
	default:
		w.WriteString(strconv.Itoa(c.line0))
		w.WriteByte('a')
		p.normalRange(w, c.line1, c.line1+c.inserted)
	}
	w.WriteByte('\n')
	for _, l := range p.a.lines[c.line0 : c.line0+c.deleted] {
		p.line(w, "< ", l)
	}
	if c.deleted > 0 && c.inserted > 0 {
		w.WriteString("---\n")
	}
	for _, l := range p.b.lines[c.line1 : c.line1+c.inserted] {
		p.line(w, "> ", l)
	}
}

// extent returns the lines a hunk shows, with context, in both files.
func (p *printer) extent(h []change) (s0, e0, s1, e1 int) {
	ctx := p.o.context
	first, last := h[0], h[len(h)-1]
	s0 = max(0, first.line0-ctx)
	s1 = first.line1 - (first.line0 - s0)
	e0 = min(len(p.a.lines), last.line0+last.deleted+ctx)
	e1 = last.line1 + last.inserted + (e0 - (last.line0 + last.deleted))
	return
}

// unifiedRange writes a 0-origin half-open range as unified diffs show it.
func (p *printer) unifiedRange(w *bufio.Writer, s, e int) {
	p.buf = p.buf[:0]
	switch e - s {
	case 0:
		p.buf = strconv.AppendInt(p.buf, int64(s), 10)
		p.buf = append(p.buf, ",0"...)
	case 1:
		p.buf = strconv.AppendInt(p.buf, int64(s+1), 10)
	default:
		p.buf = strconv.AppendInt(p.buf, int64(s+1), 10)
		p.buf = append(p.buf, ',')
		p.buf = strconv.AppendInt(p.buf, int64(e-s), 10)
	}
	w.Write(p.buf)
}

func (p *printer) unified(w *bufio.Writer, h []change) {
	s0, e0, s1, e1 := p.extent(h)
	w.WriteString("@@ -")
	p.unifiedRange(w, s0, e0)
	w.WriteString(" +")
	p.unifiedRange(w, s1, e1)
	w.WriteString(" @@")
	p.function(w, s0)
	w.WriteByte('\n')
	i := s0
	for _, c := range h {
		for ; i < c.line0; i++ {
			p.line(w, " ", p.a.lines[i])
		}
		for _, l := range p.a.lines[c.line0 : c.line0+c.deleted] {
			p.line(w, "-", l)
		}
		for _, l := range p.b.lines[c.line1 : c.line1+c.inserted] {
			p.line(w, "+", l)
		}
		i = c.line0 + c.deleted
	}
	for ; i < e0; i++ {
		p.line(w, " ", p.a.lines[i])
	}
}

func (p *printer) contextHunk(w *bufio.Writer, h []change) {
	s0, e0, s1, e1 := p.extent(h)
	w.WriteString("***************")
	p.function(w, s0)
	w.WriteString("\n*** ")
	p.normalRange(w, s0, e0)
	w.WriteString(" ****\n")
	deletes, inserts := false, false
	for _, c := range h {
		deletes = deletes || c.deleted > 0
		inserts = inserts || c.inserted > 0
	}
	if deletes {
		i := s0
		for _, c := range h {
			for ; i < c.line0; i++ {
				p.line(w, "  ", p.a.lines[i])
			}
			mark := "- "
			if c.inserted > 0 {
				mark = "! "
			}
			for _, l := range p.a.lines[c.line0 : c.line0+c.deleted] {
				p.line(w, mark, l)
			}
			i = c.line0 + c.deleted
		}
		for ; i < e0; i++ {
			p.line(w, "  ", p.a.lines[i])
		}
	}
	w.WriteString("--- ")
	p.normalRange(w, s1, e1)
	w.WriteString(" ----\n")
	if inserts {
		i := s1
		for _, c := range h {
			for ; i < c.line1; i++ {
				p.line(w, "  ", p.b.lines[i])
			}
			mark := "+ "
			if c.deleted > 0 {
				mark = "! "
			}
			for _, l := range p.b.lines[c.line1 : c.line1+c.inserted] {
				p.line(w, mark, l)
			}
			i = c.line1 + c.inserted
		}
		for ; i < e1; i++ {
			p.line(w, "  ", p.b.lines[i])
		}
	}
}

// function writes, for -p, the last line before line s that starts with
// a letter, '$' or '_', cut to 40 bytes.
func (p *printer) function(w *bufio.Writer, s int) {
	if !p.o.funcLines {
		return
	}
	for ; p.funcScan < s; p.funcScan++ {
		l := p.a.lines[p.funcScan]
		if len(l) > 0 && (l[0] == '_' || l[0] == '$' || ('a' <= l[0]|0x20 && l[0]|0x20 <= 'z')) {
			p.funcLine = l
		}
	}
	if p.funcLine == nil {
		return
	}
	l := p.funcLine
	if l[len(l)-1] == '\n' {
		l = l[:len(l)-1]
	}
	if len(l) > 40 {
		l = l[:40]
	}
	w.WriteByte(' ')
	w.Write(l)
}
