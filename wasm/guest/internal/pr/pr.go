// Package pr implements GNU pr: paginate or columnate files for printing.
// Each page has a five-line header (date, file name, page number) and a
// five-line trailer unless -t; text can be set in columns down (-COLUMN),
// across (-a) or one file a column (-m), numbered (-n), double-spaced (-d)
// and shifted right (-o). Whitespace pr makes to line columns up is written
// with tabs where a tab lands on the same column, as GNU pr does.
package pr

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

type options struct {
	pageLen    int
	width      int
	widthSet   bool
	truncAll   bool // -W: truncate lines in one column too
	omitHeader bool // -t or -T
	omitFF     bool // -T
	header     string
	headerSet  bool
	dateFmt    string
	double     bool
	number     bool
	numSep     byte
	numDigits  int
	firstNum   int
	offset     int
	sep        string
	sepSet     bool
	sepChar    bool // the separator came from -s: columns are not padded
	cols       int
	across     bool
	merge      bool
	join       bool
	expand     bool // -e: input tabs to spaces
	inTab      byte
	inTabW     int
	formFeed   bool // -f, -F
	firstPage  int
	lastPage   int
	noWarn     bool
	ctrl       bool // -c: control characters as ^X, others as \ooo
	octal      bool // -v: nonprinting characters as \ooo
}

var longs = []string{"pages", "columns", "across", "show-control-chars", "double-space", "date-format",
	"expand-tabs", "form-feed", "header", "output-tabs", "join-lines", "length", "merge", "number-lines",
	"first-line-number", "indent", "no-file-warnings", "separator", "sep-string", "omit-header",
	"omit-pagination", "show-nonprinting", "width", "page-width", "help", "version"}

// Main runs pr.
func Main(env *tool.Env) int {
	o := options{pageLen: 66, width: 72, dateFmt: "%Y-%m-%d %H:%M", numSep: '\t', numDigits: 5,
		firstNum: 1, cols: 1, inTab: '\t', inTabW: 8, firstPage: 1, lastPage: -1}
	var files []string
	args := env.Args[1:]
	bad := func(format string, a ...any) int { return env.Usage(1, format, a...) }
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			files = append(files, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '+' {
			if !o.pages(a[1:]) {
				return bad("invalid page range %s", tool.Quote(a[1:]))
			}
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, val, has := strings.Cut(a[2:], "=")
			var match []string
			for _, l := range longs {
				if l == name {
					match = []string{l}
					break
				}
				if strings.HasPrefix(l, name) {
					match = append(match, l)
				}
			}
			if len(match) == 0 {
				return bad("unrecognized option '%s'", a)
			}
			if len(match) > 1 {
				return bad("option '%s' is ambiguous", a)
			}
			name = match[0]
			needs := map[string]bool{"pages": true, "columns": true, "date-format": true, "header": true,
				"length": true, "first-line-number": true, "indent": true, "width": true, "page-width": true}
			optional := map[string]bool{"expand-tabs": true, "output-tabs": true, "number-lines": true,
				"separator": true, "sep-string": true}
			if needs[name] && !has {
				if i+1 >= len(args) {
					return bad("option '--%s' requires an argument", name)
				}
				i++
				val, has = args[i], true
			} else if has && !needs[name] && !optional[name] {
				return bad("option '--%s' doesn't allow an argument", name)
			}
			if code := o.long(env, name, val, has); code >= 0 {
				return code
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			files = append(files, a)
			continue
		}
		// A cluster of short options.
		for j := 1; j < len(a); j++ {
			c := a[j]
			rest := a[j+1:]
			if c >= '0' && c <= '9' {
				k := j
				for k < len(a) && a[k] >= '0' && a[k] <= '9' {
					k++
				}
				n, err := strconv.Atoi(a[j:k])
				if err != nil || n < 1 {
					return bad("invalid number of columns: %s", tool.Quote(a[j:k]))
				}
				o.cols = n
				j = k - 1
				continue
			}
			switch c {
			case 'a':
				o.across = true
			case 'b', 'c', 'r', 'v':
				switch c {
				case 'r':
					o.noWarn = true
				case 'c':
					o.ctrl = true
				case 'v':
					o.octal = true
				}
			case 'd':
				o.double = true
			case 'f', 'F':
				o.formFeed = true
			case 'J':
				o.join = true
			case 'm':
				o.merge = true
			case 't':
				o.omitHeader = true
			case 'T':
				o.omitHeader, o.omitFF = true, true
			case 'e', 'i', 'n', 's', 'S':
				if code := o.long(env, map[byte]string{'e': "expand-tabs", 'i': "output-tabs",
					'n': "number-lines", 's': "separator", 'S': "sep-string"}[c], rest, rest != ""); code >= 0 {
					return code
				}
				j = len(a)
			case 'D', 'h', 'l', 'N', 'o', 'w', 'W':
				val := rest
				if val == "" {
					if i+1 >= len(args) {
						return bad("option requires an argument -- '%c'", c)
					}
					i++
					val = args[i]
				}
				name := map[byte]string{'D': "date-format", 'h': "header", 'l': "length",
					'N': "first-line-number", 'o': "indent", 'w': "width", 'W': "page-width"}[c]
				if code := o.long(env, name, val, true); code >= 0 {
					return code
				}
				j = len(a)
			default:
				return bad("invalid option -- '%c'", c)
			}
		}
	}
	if o.cols > 1 && o.merge {
		env.Errorf("cannot specify number of columns when printing in parallel")
		return 1
	}
	if o.across && o.merge {
		env.Errorf("cannot specify both printing across and printing in parallel")
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	return run(env, &o, files)
}

// pages parses FIRST[:LAST].
func (o *options) pages(s string) bool {
	first, last, has := strings.Cut(s, ":")
	f, err := strconv.Atoi(first)
	if err != nil || f < 1 {
		return false
	}
	o.firstPage, o.lastPage = f, -1
	if has {
		l, err := strconv.Atoi(last)
		if err != nil || l < f {
			return false
		}
		o.lastPage = l
	}
	return true
}

// charWidth parses the optional [CHAR[WIDTH]] of -e, -i and -n.
func charWidth(s string, c *byte, w *int) bool {
	if s != "" && (s[0] < '0' || s[0] > '9') {
		*c = s[0]
		s = s[1:]
	}
	if s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return false
		}
		*w = n
	}
	return true
}

// long applies one option by its long name; it returns -1 to go on, or
// the status to exit with.
func (o *options) long(env *tool.Env, name, val string, has bool) int {
	num := func(what string, min int) (int, bool) {
		n, err := strconv.Atoi(val)
		if err != nil {
			env.Errorf("%s: %s", what, tool.Quote(val))
			return 0, false
		}
		if n < min {
			env.Errorf("%s: %s: Numerical result out of range", what, tool.Quote(val))
			return 0, false
		}
		return n, true
	}
	var ok = true
	switch name {
	case "help":
		return env.Help(help)
	case "version":
		return env.PrintVersion()
	case "pages":
		if !o.pages(val) {
			return env.Usage(1, "invalid page range %s", tool.Quote(val))
		}
	case "columns":
		o.cols, ok = num("invalid number of columns", 1)
	case "across":
		o.across = true
	case "double-space":
		o.double = true
	case "date-format":
		o.dateFmt = val
	case "expand-tabs":
		o.expand = true
		if has && !charWidth(val, &o.inTab, &o.inTabW) {
			env.Errorf("'-e' extra characters or invalid number in the argument: %s", tool.Quote(val))
			return env.Usage(1, "")
		}
	case "output-tabs":
		var c byte = '\t'
		w := 8
		if has && !charWidth(val, &c, &w) {
			env.Errorf("'-i' extra characters or invalid number in the argument: %s", tool.Quote(val))
			return env.Usage(1, "")
		}
	case "form-feed":
		o.formFeed = true
	case "header":
		o.header, o.headerSet = val, true
	case "join-lines":
		o.join = true
	case "length":
		o.pageLen, ok = num("'-l PAGE_LENGTH' invalid number of lines", 1)
	case "merge":
		o.merge = true
	case "number-lines":
		o.number = true
		if has && !charWidth(val, &o.numSep, &o.numDigits) {
			env.Errorf("'-n' extra characters or invalid number in the argument: %s", tool.Quote(val))
			return env.Usage(1, "")
		}
	case "first-line-number":
		n, err := strconv.Atoi(val)
		if err != nil {
			env.Errorf("'-N NUMBER' invalid starting line number: %s", tool.Quote(val))
			return 1
		}
		o.firstNum = n
	case "indent":
		o.offset, ok = num("'-o MARGIN' invalid line offset", 0)
	case "show-control-chars":
		o.ctrl = true
	case "show-nonprinting":
		o.octal = true
	case "no-file-warnings":
		o.noWarn = true
	case "separator":
		o.sep, o.sepSet, o.sepChar = "\t", true, true
		if has {
			o.sep = val
			if len(val) > 1 {
				o.sep = val[:1]
			}
		}
	case "sep-string":
		o.sep, o.sepSet, o.sepChar = "", true, false
		if has {
			o.sep = val
		}
	case "omit-header":
		o.omitHeader = true
	case "omit-pagination":
		o.omitHeader, o.omitFF = true, true
	case "width":
		o.width, ok = num("'-w PAGE_WIDTH' invalid number of characters", 1)
		o.widthSet = true
	case "page-width":
		o.width, ok = num("'-W PAGE_WIDTH' invalid number of characters", 1)
		o.widthSet, o.truncAll = true, true
	}
	if !ok {
		return 1
	}
	return -1
}

// line is one input line; ff says a form feed ended it (and its page).
type line struct {
	text []byte
	ff   bool
}

func splitLines(data []byte) []line {
	var out []line
	start := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			out = append(out, line{text: data[start:i]})
			start = i + 1
		case '\f':
			if i > start {
				out = append(out, line{text: data[start:i], ff: true})
			} else if len(out) > 0 && !out[len(out)-1].ff {
				out[len(out)-1].ff = true
			} else {
				out = append(out, line{ff: true})
			}
			start = i + 1
			if start < len(data) && data[start] == '\n' {
				i++
				start++
			}
		}
	}
	if start < len(data) {
		out = append(out, line{text: data[start:]})
	}
	return out
}

// printer writes pages and keeps the state that runs across them.
type printer struct {
	env     *tool.Env
	o       *options
	w       io.Writer
	buf     []byte
	pos     int // output column of buf
	lineNum int
	page    int
	lastRow bool // the row being written is the last of columned input
	multi   bool // text is set in columns: expanded tabs are padding
	name    string
	date    string
}

func run(env *tool.Env, o *options, files []string) int {
	status := 0
	p := &printer{env: env, o: o, w: env.Out()}
	load := func(name string) ([]line, time.Time, bool) {
		if name == "-" {
			data, err := io.ReadAll(env.Stdin)
			if err != nil {
				env.Errorf("-: %s", tool.Strerror(err))
				status = 1
				return nil, time.Time{}, false
			}
			return splitLines(data), time.Now(), true
		}
		data, err := os.ReadFile(name)
		if err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			status = 1
			return nil, time.Time{}, false
		}
		mt := time.Now()
		if fi, err := os.Stat(name); err == nil {
			mt = fi.ModTime()
		}
		return splitLines(data), mt, true
	}
	if o.merge {
		var all [][]line
		for _, f := range files {
			if ls, _, ok := load(f); ok {
				all = append(all, ls)
			}
		}
		if len(all) == 0 {
			return status
		}
		p.start("", time.Now())
		p.merge(all)
	} else {
		for _, f := range files {
			ls, mt, ok := load(f)
			if !ok {
				continue
			}
			name := f
			if f == "-" {
				name = ""
			}
			p.start(name, mt)
			if o.cols > 1 {
				p.columns(ls)
			} else {
				p.single(ls)
			}
		}
	}
	if err := env.Out().Flush(); err != nil {
		return env.WriteFailed(err)
	}
	return status
}

func (p *printer) start(name string, mt time.Time) {
	if p.o.headerSet {
		name = p.o.header
	}
	p.name = name
	p.date = tool.Strftime(p.o.dateFmt, mt)
	p.page = 0
	p.lineNum = p.o.firstNum
}

// omitted reports whether headers and trailers are left out: by -t or
// -T, or because the page is too short to hold them.
func (p *printer) omitted() bool { return p.o.omitHeader || p.o.pageLen <= 10 }

// body is the number of text lines a page holds.
func (p *printer) body() int {
	n := p.o.pageLen
	if !p.omitted() {
		n -= 10
	}
	if p.o.double {
		n = (n + 1) / 2
	}
	return n
}

func (p *printer) visible() bool {
	return p.page >= p.o.firstPage && (p.o.lastPage < 0 || p.page <= p.o.lastPage)
}

func (p *printer) header() {
	if p.omitted() || !p.visible() {
		return
	}
	pageText := fmt.Sprintf("Page %d", p.page)
	avail := p.o.width - len(p.date) - len(p.name) - len(pageText)
	if avail < 0 {
		avail = 0
	}
	lhs, rhs := max(avail/2, 1), max(avail-avail/2, 1)
	margin := strings.Repeat(" ", p.o.offset)
	fmt.Fprintf(p.w, "%s\n\n%s%s%s%s%s%s\n\n\n", margin, margin, p.date,
		strings.Repeat(" ", lhs), p.name, strings.Repeat(" ", rhs), pageText)
}

// trailer ends a page that used the given number of output lines; ff says
// an input form feed ended it.
func (p *printer) trailer(used int, ff bool) {
	if !p.visible() {
		return
	}
	if p.omitted() {
		if ff && !p.o.omitFF {
			io.WriteString(p.w, "\f")
		}
		return
	}
	if p.o.formFeed {
		io.WriteString(p.w, "\f")
		return
	}
	full := p.o.pageLen - 10
	if used < full {
		io.WriteString(p.w, strings.Repeat("\n", full-used))
	}
	io.WriteString(p.w, "\n\n\n\n\n")
}

// emitRow writes the row built in buf with its newline (two with -d).
func (p *printer) emitRow() {
	if p.visible() {
		p.w.Write(p.buf)
		io.WriteString(p.w, "\n")
		if p.o.double && !p.lastRow {
			io.WriteString(p.w, "\n")
		}
	}
	p.buf, p.pos = p.buf[:0], 0
}

// padTo fills buf with whitespace up to column to, with tabs where a tab
// lands at or before it.
func (p *printer) padTo(to int) {
	for {
		next := (p.pos/8 + 1) * 8
		if to-p.pos < 2 || next > to {
			break
		}
		p.buf = append(p.buf, '\t')
		p.pos = next
	}
	for p.pos < to {
		p.buf = append(p.buf, ' ')
		p.pos++
	}
}

func (p *printer) numberText() []byte {
	mod := 1
	for i := 0; i < p.o.numDigits && mod < 1e15; i++ {
		mod *= 10
	}
	n := p.lineNum % mod
	if n < 0 {
		n = -n
	}
	s := fmt.Sprintf("%*d", p.o.numDigits, n)
	if p.lineNum >= mod {
		// Past its width a number keeps its last digits, zeros and all.
		s = fmt.Sprintf("%0*d", p.o.numDigits, n)
	}
	p.lineNum++
	return append([]byte(s), p.o.numSep)
}

// numberWidth is the columns a line number and its separator take.
// putNumber writes a line number in a column: its leading spaces are
// padding, written with tabs where one lands.
func (p *printer) putNumber() {
	num := p.numberText()
	k := 0
	for k < len(num) && num[k] == ' ' {
		k++
	}
	p.padTo(p.pos + k)
	p.cell(num[k:], k, -1)
}

func (p *printer) numberWidth() int {
	if !p.o.number {
		return 0
	}
	if p.o.numSep == '\t' {
		return p.o.numDigits + 8 - p.o.numDigits%8
	}
	return p.o.numDigits + 1
}

// cell appends text as one column's contents: tabs are set relative to
// the column's start (ipos counts from it), and the text stops at limit
// columns (limit < 0: no limit).
func (p *printer) cell(text []byte, ipos, limit int) {
	for _, c := range text {
		switch {
		case c == '\t' && !p.multi && !p.o.expand:
			wd := 8 - ipos%8
			if limit >= 0 && ipos+wd > limit {
				return
			}
			p.buf = append(p.buf, c)
			p.pos += wd
			ipos += wd
		case c == p.o.inTab && (p.o.expand || c == '\t'):
			tw := p.o.inTabW
			if c != '\t' || !p.o.expand {
				tw = 8
			}
			wd := tw - ipos%tw
			if limit >= 0 && ipos+wd > limit {
				return
			}
			if p.o.expand && !p.multi {
				p.buf = append(p.buf, bytes.Repeat([]byte{' '}, wd)...)
				p.pos += wd
			} else {
				p.padTo(p.pos + wd)
			}
			ipos += wd
		case (p.o.ctrl || p.o.octal) && c != '\t' && (c < ' ' || c >= 0x7f):
			var vis string
			if p.o.ctrl && !p.o.octal && c < 0x80 {
				vis = "^" + string(rune(c^0x40))
			} else {
				vis = fmt.Sprintf("\\%03o", c)
			}
			if limit >= 0 && ipos+len(vis) > limit {
				return
			}
			p.buf = append(p.buf, vis...)
			p.pos += len(vis)
			ipos += len(vis)
		default:
			wd := 1
			if c == '\b' {
				wd = -1
			} else if c < ' ' || c == 0x7f {
				wd = 0
			}
			if limit >= 0 && ipos+wd > limit {
				return
			}
			p.buf = append(p.buf, c)
			p.pos += wd
			ipos += wd
		}
	}
}

// put writes a cell's text: as cell does when columns line up, else as
// it is.
func (p *printer) put(text []byte, ipos, limit int, aligned bool) {
	if aligned || p.o.expand {
		p.cell(text, ipos, limit)
		return
	}
	p.buf = append(p.buf, text...)
	p.pos += len(text)
}

// single prints one file in one column.
func (p *printer) single(ls []line) {
	body := p.body()
	for i := 0; i < len(ls); {
		p.page++
		p.header()
		used := 0
		ff := false
		for used < body && i < len(ls) {
			l := ls[i]
			i++
			p.buf = append(p.buf[:0], strings.Repeat(" ", p.o.offset)...)
			p.pos = p.o.offset
			if p.o.number {
				p.cell(p.numberText(), 0, -1)
			}
			if p.o.expand || p.o.truncAll || p.o.ctrl || p.o.octal {
				limit := -1
				if p.o.truncAll {
					limit = p.o.width - p.pos
				}
				p.cell(l.text, p.pos-p.o.offset, limit)
			} else {
				p.buf = append(p.buf, l.text...)
			}
			p.emitRow()
			used++
			if l.ff {
				ff = true
				break
			}
		}
		if p.o.double {
			used *= 2
		}
		p.trailer(used, ff)
		if p.o.lastPage >= 0 && p.page >= p.o.lastPage {
			return
		}
	}
}

// layout returns each column's width, the distance between column starts,
// whether columns are padded to line up, and the truncation limit.
func (p *printer) layout(cols, used int) (stride int, aligned bool, limit int) {
	sep := " "
	if p.o.sepSet {
		sep = p.o.sep
	} else if p.o.join {
		sep = "\t"
	}
	aligned = !p.o.join && !p.o.sepChar
	colw := (p.o.width - used - (cols-1)*len(sep)) / cols
	limit = colw
	if p.o.join || (!aligned && !p.o.widthSet) {
		limit = -1
	}
	return colw + len(sep), aligned, limit
}

func (p *printer) separator() string {
	if p.o.sepSet {
		return p.o.sep
	}
	if p.o.join {
		return "\t"
	}
	return " "
}

// row writes one row of cells; nil cells are absent, and with pad every
// cell up to the last present one is padded to its place.
func (p *printer) row(cells [][]byte, present []bool, numbers bool, lead []byte) {
	cols := len(cells)
	stride, aligned, limit := p.layout(cols, p.leadWidth(lead))
	p.buf = append(p.buf[:0], strings.Repeat(" ", p.o.offset)...)
	p.pos = p.o.offset
	base := p.o.offset
	if lead != nil {
		k := 0
		for k < len(lead) && lead[k] == ' ' {
			k++
		}
		p.padTo(p.pos + k)
		p.cell(lead[k:], k, -1)
		base = p.pos
	}
	last := -1
	for c := range cells {
		if present[c] {
			last = c
		}
	}
	for c := 0; c <= last; c++ {
		if c > 0 {
			p.sepTo(aligned, base+c*stride)
		}
		if !present[c] {
			continue
		}
		start := p.pos
		lim := limit
		if numbers {
			p.putNumber()
			if lim >= 0 {
				lim -= p.numberWidth()
			}
		}
		p.put(cells[c], p.pos-start, lim, aligned)
	}
	p.emitRow()
}

// sepTo ends a column: with aligned columns it pads to the next one's
// start, at, less the separator, then writes the separator; a separator
// of spaces is padding itself.
func (p *printer) sepTo(aligned bool, at int) {
	sep := p.separator()
	if aligned {
		if strings.Trim(sep, " ") == "" {
			p.padTo(at)
			return
		}
		p.padTo(at - len(sep))
	}
	p.buf = append(p.buf, sep...)
	p.pos += len(sep)
}

func (p *printer) leadWidth(lead []byte) int {
	if lead == nil {
		return 0
	}
	return p.numberWidth()
}

// columns prints one file in columns, down (or across with -a).
func (p *printer) columns(ls []line) {
	p.multi = true
	defer func() { p.multi = false }()
	body, cols := p.body(), p.o.cols
	for i := 0; i < len(ls); {
		p.page++
		p.header()
		// This page's lines: up to body*cols, ending at a form feed.
		n := 0
		ff := false
		for n < body*cols && i+n < len(ls) {
			n++
			if ls[i+n-1].ff {
				ff = true
				break
			}
		}
		page := ls[i : i+n]
		i += n
		rows := body
		if n < body*cols && !p.o.across {
			rows = (n + cols - 1) / cols
		}
		if p.o.across {
			rows = (n + cols - 1) / cols
		}
		// A short page is balanced: every column gets n/cols lines and
		// the first n%cols one more.
		var starts []int
		if !p.o.across {
			starts = make([]int, cols+1)
			for c := 0; c < cols; c++ {
				h := rows
				if n < body*cols {
					h = n / cols
					if c < n%cols {
						h++
					}
				}
				starts[c+1] = min(starts[c]+h, n)
			}
		}
		if p.o.number && !p.o.across {
			// Numbers run down the columns: number the page's lines first.
			// The cells carry their numbers so rows print in order.
			numbered := make([][]byte, n)
			for k := range page {
				numbered[k] = p.numberText()
			}
			p.rowsNumbered(page, numbered, rows, starts, i >= len(ls))
		} else {
			for r := 0; r < rows; r++ {
				cells := make([][]byte, cols)
				present := make([]bool, cols)
				for c := 0; c < cols; c++ {
					k := r*cols + c
					if !p.o.across {
						k = starts[c] + r
						if k >= starts[c+1] {
							continue
						}
					}
					if k < n {
						cells[c], present[c] = page[k].text, true
					}
				}
				p.lastRow = i >= len(ls) && r == rows-1
				p.row(cells, present, p.o.number, nil)
			}
		}
		used := rows
		if p.o.double {
			used *= 2
			if p.lastRow {
				used--
			}
		}
		p.lastRow = false
		p.trailer(used, ff)
		if p.o.lastPage >= 0 && p.page >= p.o.lastPage {
			return
		}
	}
}

// rowsNumbered prints a page set down in columns whose lines were
// numbered in reading order.
func (p *printer) rowsNumbered(page []line, nums [][]byte, rows int, starts []int, final bool) {
	cols := len(starts) - 1
	for r := 0; r < rows; r++ {
		cells := make([][]byte, cols)
		present := make([]bool, cols)
		for c := 0; c < cols; c++ {
			if k := starts[c] + r; k < starts[c+1] {
				cells[c], present[c] = page[k].text, true
			}
		}
		// row numbers each present cell itself; feed it the right numbers.
		p.lastRow = final && r == rows-1
		p.rowWithNumbers(cells, present, nums, r, starts)
	}
}

func (p *printer) rowWithNumbers(cells [][]byte, present []bool, nums [][]byte, r int, starts []int) {
	cols := len(cells)
	stride, aligned, limit := p.layout(cols, 0)
	p.buf = append(p.buf[:0], strings.Repeat(" ", p.o.offset)...)
	p.pos = p.o.offset
	last := -1
	for c := range cells {
		if present[c] {
			last = c
		}
	}
	for c := 0; c <= last; c++ {
		if c > 0 {
			p.sepTo(aligned, p.o.offset+c*stride)
		}
		if !present[c] {
			continue
		}
		start := p.pos
		num := nums[starts[c]+r]
		k := 0
		for k < len(num) && num[k] == ' ' {
			k++
		}
		p.padTo(p.pos + k)
		p.cell(num[k:], k, -1)
		lim := limit
		if lim >= 0 {
			lim -= p.numberWidth()
		}
		p.put(cells[c], p.pos-start, lim, aligned)
	}
	p.emitRow()
}

// merge prints the files side by side, one a column.
func (p *printer) merge(all [][]line) {
	p.multi = true
	body, cols := p.body(), len(all)
	at := make([]int, cols)
	more := func() bool {
		for c := range all {
			if at[c] < len(all[c]) {
				return true
			}
		}
		return false
	}
	for more() {
		p.page++
		p.header()
		used := 0
		for used < body && more() {
			cells := make([][]byte, cols)
			present := make([]bool, cols)
			for c := range all {
				present[c] = true
				if at[c] < len(all[c]) {
					cells[c] = all[c][at[c]].text
					at[c]++
				}
			}
			var lead []byte
			if p.o.number {
				lead = p.numberText()
			}
			p.row(cells, present, false, lead)
			used++
		}
		if p.o.double {
			used *= 2
		}
		p.trailer(used, false)
		if p.o.lastPage >= 0 && p.page >= p.o.lastPage {
			return
		}
	}
}
