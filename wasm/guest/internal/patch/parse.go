package patch

import (
	"bytes"
	"strconv"
	"strings"
)

// kind is the format of one file's diff.
type kind int

const (
	kindUnified kind = iota
	kindContext
	kindNormal
)

// line is one line of text; nl is false for a last line without newline.
type line struct {
	text string
	nl   bool
}

// op is one step of a hunk: ' ' keep, '-' delete, '+' insert.
type op struct {
	kind byte
	line line
}

// hunk is one hunk of a file's diff.
type hunk struct {
	oldFirst, oldLen int // as written: first line (1-origin) and count
	newFirst, newLen int
	ops              []op
	raw              []string // the hunk's text as written, for rejects
	line             int      // input line number of its first line
}

// old returns the lines the hunk expects, and new the lines it leaves.
func (h *hunk) lines(want byte) []line {
	var ls []line
	for _, o := range h.ops {
		if o.kind == ' ' || o.kind == want {
			ls = append(ls, o.line)
		}
	}
	return ls
}

// context returns how many leading and trailing ops are unchanged lines.
func (h *hunk) context() (prefix, suffix int) {
	for prefix < len(h.ops) && h.ops[prefix].kind == ' ' {
		prefix++
	}
	if prefix == len(h.ops) {
		return prefix, 0
	}
	for suffix < len(h.ops) && h.ops[len(h.ops)-1-suffix].kind == ' ' {
		suffix++
	}
	return prefix, suffix
}

// filePatch is the diff of one file.
type filePatch struct {
	kind      kind
	oldName   string // "" when absent
	newName   string
	indexName string
	oldEpoch  bool     // the old side's date is the epoch: it is created
	newEpoch  bool     // the new side's date is the epoch: it is removed
	header    []string // the header lines as written, for rejects
	leading   []string // the text since the previous file's diff
	hunks     []*hunk
	hunkLine  int // input line number of the first hunk, for messages
}

// parser reads a patch file.
type parser struct {
	lines []string // with newlines
	i     int
	prev  int // where the previous file's diff ended
}

func newParser(data []byte) *parser {
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
	return &parser{lines: ls}
}

func trimNL(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// headerName extracts the file name of a "--- name\tdate" header.
func headerName(s string) string {
	name, _ := headerParts(s)
	return name
}

// headerDate returns the date of a "--- name\tdate" header.
func headerDate(s string) string {
	_, date := headerParts(s)
	return date
}

// isEpoch reports whether a header date is the Unix epoch, which diff -N
// gives files that do not exist.
func isEpoch(date string) bool {
	return strings.HasPrefix(date, "1970-01-01 00:00:00") && (strings.HasSuffix(date, "+0000") || !strings.Contains(date, "+")) ||
		strings.HasPrefix(date, "Thu Jan  1 00:00:00 1970")
}

func headerParts(s string) (name, date string) {
	s = trimNL(s)
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s, date = s[:i], s[i+1:]
	}
	s = strings.TrimRight(s, " ")
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	return s, date
}

// next returns the next file's diff, or nil at the end of input.
func (p *parser) next() (*filePatch, error) {
	index := ""
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		switch {
		case strings.HasPrefix(l, "Index: "):
			index = strings.TrimSpace(l[len("Index: "):])
		case strings.HasPrefix(l, "--- ") && p.i+2 < len(p.lines) &&
			strings.HasPrefix(p.lines[p.i+1], "+++ ") && strings.HasPrefix(p.lines[p.i+2], "@@ "):
			fp := &filePatch{kind: kindUnified, oldName: headerName(l[4:]), newName: headerName(p.lines[p.i+1][4:]),
				oldEpoch: isEpoch(headerDate(l[4:])), newEpoch: isEpoch(headerDate(p.lines[p.i+1][4:])),
				indexName: index, header: []string{l, p.lines[p.i+1]}}
			p.i += 2
			return p.finish(fp, p.unified(fp))
		case strings.HasPrefix(l, "*** ") && p.i+2 < len(p.lines) && strings.HasPrefix(p.lines[p.i+1], "--- ") &&
			strings.HasPrefix(p.lines[p.i+2], "***************"):
			fp := &filePatch{kind: kindContext, oldName: headerName(l[4:]), newName: headerName(p.lines[p.i+1][4:]),
				oldEpoch: isEpoch(headerDate(l[4:])), newEpoch: isEpoch(headerDate(p.lines[p.i+1][4:])),
				indexName: index, header: []string{l, p.lines[p.i+1]}}
			p.i += 2
			return p.finish(fp, p.context(fp))
		default:
			if _, ok := parseNormalCmd(trimNL(l)); ok {
				fp := &filePatch{kind: kindNormal, indexName: index}
				return p.finish(fp, p.normal(fp))
			}
		}
	}
	return nil, nil
}

// finish records what led up to a file's diff.
func (p *parser) finish(fp *filePatch, err error) (*filePatch, error) {
	start := p.prev
	fp.hunkLine = p.i + 1
	if len(fp.hunks) > 0 {
		fp.hunkLine = fp.hunks[0].line
	}
	if end := fp.hunkLine - 1; end >= start && end <= len(p.lines) {
		fp.leading = p.lines[start:end]
	}
	p.prev = p.i
	return fp, err
}

// malformed is a patch that cannot be read.
type malformed struct {
	line int
	text string
}

func (e *malformed) Error() string {
	return "malformed patch at line " + strconv.Itoa(e.line) + ": " + e.text
}

func (p *parser) bad() error {
	l := ""
	if p.i < len(p.lines) {
		l = p.lines[p.i]
	}
	if !strings.HasSuffix(l, "\n") {
		l += "\n"
	}
	return &malformed{line: p.i + 1, text: l}
}

// parseRange parses "first,len" (len defaults to 1).
func parseRange(s string) (first, n int, ok bool) {
	a, b, two := strings.Cut(s, ",")
	first, err := strconv.Atoi(a)
	if err != nil || first < 0 {
		return 0, 0, false
	}
	n = 1
	if two {
		if n, err = strconv.Atoi(b); err != nil || n < 0 {
			return 0, 0, false
		}
	}
	return first, n, true
}

// noNewline reports whether line i is "\ No newline at end of file".
func (p *parser) noNewline() bool {
	return p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], `\`)
}

func (p *parser) unified(fp *filePatch) error {
	for p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], "@@ ") {
		hdr := trimNL(p.lines[p.i])
		rest := strings.TrimPrefix(hdr, "@@ -")
		oldR, rest, ok1 := strings.Cut(rest, " +")
		newR, _, ok2 := strings.Cut(rest, " @@")
		of, ol, ok3 := parseRange(oldR)
		nf, nl, ok4 := parseRange(newR)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return p.bad()
		}
		if ol == 0 {
			of++ // "-5,0" inserts after line 5
		}
		if nl == 0 {
			nf++
		}
		h := &hunk{oldFirst: of, oldLen: ol, newFirst: nf, newLen: nl, raw: []string{p.lines[p.i]}, line: p.i + 1}
		p.i++
		seenOld, seenNew := 0, 0
		for seenOld < ol || seenNew < nl {
			if p.i >= len(p.lines) {
				return p.bad()
			}
			l := p.lines[p.i]
			k := byte(' ')
			body := ""
			switch {
			case l == "\n" || l == "\r\n": // an empty context line, its space lost
				body = l
			case l[0] == ' ' || l[0] == '-' || l[0] == '+':
				k, body = l[0], l[1:]
			default:
				return p.bad()
			}
			h.raw = append(h.raw, l)
			p.i++
			ln := line{text: strings.TrimSuffix(body, "\n"), nl: strings.HasSuffix(body, "\n")}
			if p.noNewline() {
				ln.nl = false
				h.raw = append(h.raw, p.lines[p.i])
				p.i++
			}
			h.ops = append(h.ops, op{kind: k, line: ln})
			if k != '+' {
				seenOld++
			}
			if k != '-' {
				seenNew++
			}
			if seenOld > ol || seenNew > nl {
				return p.bad()
			}
		}
		fp.hunks = append(fp.hunks, h)
	}
	return nil
}

// contextSection reads the lines of one side of a context-format hunk.
func (p *parser) contextSection(n int, end string) ([]op, []string, error) {
	var ops []op
	var raw []string
	for p.i < len(p.lines) && len(ops) < n {
		l := p.lines[p.i]
		if strings.HasPrefix(l, end) || strings.HasPrefix(l, "***************") {
			break
		}
		if len(l) < 2 || (l[1] != ' ' && l[1] != '\n') {
			return nil, nil, p.bad()
		}
		k := l[0]
		if k != ' ' && k != '-' && k != '+' && k != '!' {
			return nil, nil, p.bad()
		}
		body := ""
		if len(l) > 2 {
			body = l[2:]
		}
		raw = append(raw, l)
		p.i++
		ln := line{text: strings.TrimSuffix(body, "\n"), nl: strings.HasSuffix(body, "\n")}
		if p.noNewline() {
			ln.nl = false
			raw = append(raw, p.lines[p.i])
			p.i++
		}
		ops = append(ops, op{kind: k, line: ln})
	}
	return ops, raw, nil
}

// contextRange parses "first,last" or "first" from a context hunk header.
func contextRange(s string) (first, n int, ok bool) {
	a, b, two := strings.Cut(s, ",")
	first, err := strconv.Atoi(a)
	if err != nil || first < 0 {
		return 0, 0, false
	}
	if !two {
		if first == 0 {
			return 0, 0, true
		}
		return first, 1, true
	}
	last, err := strconv.Atoi(b)
	if err != nil || last < first-1 {
		return 0, 0, false
	}
	return first, last - first + 1, true
}

func (p *parser) context(fp *filePatch) error {
	for p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], "***************") {
		h := &hunk{raw: []string{p.lines[p.i]}, line: p.i + 1}
		p.i++
		if p.i >= len(p.lines) || !strings.HasPrefix(p.lines[p.i], "*** ") {
			return p.bad()
		}
		r := strings.TrimSuffix(strings.TrimPrefix(trimNL(p.lines[p.i]), "*** "), " ****")
		of, ol, ok := contextRange(r)
		if !ok {
			return p.bad()
		}
		h.raw = append(h.raw, p.lines[p.i])
		p.i++
		oldOps, raw, err := p.contextSection(ol, "--- ")
		if err != nil {
			return err
		}
		h.raw = append(h.raw, raw...)
		if p.i >= len(p.lines) || !strings.HasPrefix(p.lines[p.i], "--- ") {
			return p.bad()
		}
		r = strings.TrimSuffix(strings.TrimPrefix(trimNL(p.lines[p.i]), "--- "), " ----")
		nf, nl, ok := contextRange(r)
		if !ok {
			return p.bad()
		}
		h.raw = append(h.raw, p.lines[p.i])
		p.i++
		newOps, raw, err := p.contextSection(nl, "*** ")
		if err != nil {
			return err
		}
		h.raw = append(h.raw, raw...)
		if ol == 0 && of > 0 {
			of++ // "*** 5 ****" with no lines inserts after line 5
		}
		if nl == 0 && nf > 0 {
			nf++
		}
		h.oldFirst, h.oldLen, h.newFirst, h.newLen = of, ol, nf, nl
		h.ops = mergeContext(oldOps, newOps)
		fp.hunks = append(fp.hunks, h)
	}
	return nil
}

// mergeContext turns the two sides of a context-format hunk into one
// sequence of steps. A side may be empty: then it is all context (for the
// old side, when only insertions) or all context plus deletions.
func mergeContext(old, new []op) []op {
	if len(old) == 0 {
		out := make([]op, 0, len(new))
		for _, o := range new {
			if o.kind == '+' || o.kind == '!' {
				o.kind = '+'
			}
			out = append(out, o)
		}
		return out
	}
	if len(new) == 0 {
		out := make([]op, 0, len(old))
		for _, o := range old {
			if o.kind == '!' {
				o.kind = '-'
			}
			out = append(out, o)
		}
		return out
	}
	var out []op
	i, j := 0, 0
	for i < len(old) || j < len(new) {
		switch {
		case i < len(old) && old[i].kind == '-':
			out = append(out, old[i])
			i++
		case j < len(new) && new[j].kind == '+':
			out = append(out, new[j])
			j++
		case i < len(old) && old[i].kind == '!':
			for ; i < len(old) && old[i].kind == '!'; i++ {
				out = append(out, op{kind: '-', line: old[i].line})
			}
			for ; j < len(new) && new[j].kind == '!'; j++ {
				out = append(out, op{kind: '+', line: new[j].line})
			}
		case j < len(new) && new[j].kind == '!':
			for ; j < len(new) && new[j].kind == '!'; j++ {
				out = append(out, op{kind: '+', line: new[j].line})
			}
		case i < len(old):
			out = append(out, old[i])
			i++
			j++
		default:
			out = append(out, new[j])
			j++
		}
	}
	return out
}

// normalCmd is a parsed normal-diff command line such as "3,5c7".
type normalCmd struct {
	o1, o2 int
	cmd    byte
	n1, n2 int
}

func parseNormalCmd(s string) (normalCmd, bool) {
	i := strings.IndexAny(s, "acd")
	if i <= 0 || i == len(s)-1 {
		return normalCmd{}, false
	}
	c := normalCmd{cmd: s[i]}
	var ok bool
	if c.o1, c.o2, ok = normalRange(s[:i]); !ok {
		return c, false
	}
	if c.n1, c.n2, ok = normalRange(s[i+1:]); !ok {
		return c, false
	}
	return c, true
}

func normalRange(s string) (a, b int, ok bool) {
	x, y, two := strings.Cut(s, ",")
	for _, part := range []string{x, y} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return 0, 0, false
			}
		}
	}
	if x == "" || (two && y == "") {
		return 0, 0, false
	}
	a, _ = strconv.Atoi(x)
	b = a
	if two {
		b, _ = strconv.Atoi(y)
	}
	return a, b, b >= a
}

func (p *parser) normal(fp *filePatch) error {
	for p.i < len(p.lines) {
		c, ok := parseNormalCmd(trimNL(p.lines[p.i]))
		if !ok {
			break
		}
		h := &hunk{raw: []string{p.lines[p.i]}, line: p.i + 1}
		p.i++
		readSide := func(prefix string, n int, k byte) error {
			for range n {
				if p.i >= len(p.lines) || !strings.HasPrefix(p.lines[p.i], prefix) {
					return p.bad()
				}
				body := p.lines[p.i][len(prefix):]
				h.raw = append(h.raw, p.lines[p.i])
				p.i++
				ln := line{text: strings.TrimSuffix(body, "\n"), nl: strings.HasSuffix(body, "\n")}
				if p.noNewline() {
					ln.nl = false
					h.raw = append(h.raw, p.lines[p.i])
					p.i++
				}
				h.ops = append(h.ops, op{kind: k, line: ln})
			}
			return nil
		}
		switch c.cmd {
		case 'a':
			h.oldFirst, h.oldLen = c.o1+1, 0
			h.newFirst, h.newLen = c.n1, c.n2-c.n1+1
			if err := readSide("> ", h.newLen, '+'); err != nil {
				return err
			}
		case 'd':
			h.oldFirst, h.oldLen = c.o1, c.o2-c.o1+1
			h.newFirst, h.newLen = c.n1+1, 0
			if err := readSide("< ", h.oldLen, '-'); err != nil {
				return err
			}
		case 'c':
			h.oldFirst, h.oldLen = c.o1, c.o2-c.o1+1
			h.newFirst, h.newLen = c.n1, c.n2-c.n1+1
			if err := readSide("< ", h.oldLen, '-'); err != nil {
				return err
			}
			if p.i >= len(p.lines) || trimNL(p.lines[p.i]) != "---" {
				return p.bad()
			}
			h.raw = append(h.raw, p.lines[p.i])
			p.i++
			if err := readSide("> ", h.newLen, '+'); err != nil {
				return err
			}
		}
		fp.hunks = append(fp.hunks, h)
	}
	return nil
}
