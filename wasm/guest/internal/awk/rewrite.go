package awk

import (
	"sort"
	"strings"

	"github.com/benhoyt/goawk/lexer"
)

// GoAWK starts commands with os/exec, which cannot start processes under
// wasip1, and its interp.Config has no hook to start them another way. So
// before parsing, rewrite rewrites the program text so the three places
// that start commands call Go functions of this package instead (see
// shell.go), which start "sh -c CMD" through package proc:
//
//	system(CMD)            → _wasmsand_system(CMD)
//	CMD | getline [VAR]    → (getline [VAR] < _wasmsand_popen(CMD))
//	print ... | CMD        → print ... > _wasmsand_pipe(CMD)
//	close(NAME)            → close(_wasmsand_close(NAME))
//
// The rewrite works on GoAWK's own tokens, so strings, regexes and comments
// are never touched. A program the lexer rejects is returned unchanged for
// the parser to report.

const (
	fnSystem = "_wasmsand_system"
	fnPopen  = "_wasmsand_popen"
	fnPipe   = "_wasmsand_pipe"
	fnClose  = "_wasmsand_close"
)

type token struct {
	tok        lexer.Token
	start, end int // byte offsets in the source
}

// edit replaces src[start:end] with what text renders.
type edit struct {
	start, end int
	text       func(r *rewriter) string
}

type rewriter struct {
	src   []byte
	toks  []token
	edits []edit
}

// rewrite returns src with command-starting constructs redirected to the
// Go hooks, or src itself when there is nothing to change.
func rewrite(src []byte) []byte {
	toks, ok := tokenize(src)
	if !ok {
		return src
	}
	r := &rewriter{src: src, toks: toks}
	for i, t := range toks {
		switch t.tok {
		case lexer.F_SYSTEM:
			r.edits = append(r.edits, edit{t.start, t.end, func(*rewriter) string { return fnSystem }})
		case lexer.F_CLOSE:
			r.closeCall(i)
		case lexer.PIPE:
			if i+1 < len(toks) && toks[i+1].tok == lexer.GETLINE {
				r.getline(i)
			} else {
				r.printPipe(i)
			}
		}
	}
	if len(r.edits) == 0 {
		return src
	}
	sort.SliceStable(r.edits, func(a, b int) bool {
		ea, eb := r.edits[a], r.edits[b]
		if ea.start != eb.start {
			return ea.start < eb.start
		}
		return ea.end > eb.end
	})
	return []byte(r.render(0, len(src)))
}

// render returns src[lo:hi] with the outermost edits inside it applied;
// an edit renders the edits nested in it itself.
func (r *rewriter) render(lo, hi int) string {
	var b strings.Builder
	at := lo
	for _, e := range r.edits {
		if e.start < at || e.end > hi {
			continue
		}
		b.Write(r.src[at:e.start])
		b.WriteString(e.text(r))
		at = e.end
	}
	b.Write(r.src[at:hi])
	return b.String()
}

// closeCall rewrites close(X) at toks[i].
func (r *rewriter) closeCall(i int) {
	if i+1 >= len(r.toks) || r.toks[i+1].tok != lexer.LPAREN {
		return
	}
	j := r.match(i + 1)
	if j < 0 {
		return
	}
	lo, hi := r.toks[i+1].end, r.toks[j].start
	r.edits = append(r.edits, edit{r.toks[i].start, r.toks[j].end, func(r *rewriter) string {
		return "close(" + fnClose + "(" + r.render(lo, hi) + "))"
	}})
}

// getline rewrites CMD | getline [VAR], the PIPE being toks[p].
func (r *rewriter) getline(p int) {
	first := r.leftOperand(p)
	if first < 0 {
		return
	}
	g := p + 1
	lvEnd := r.lvalue(g + 1) // index after the lvalue
	lo, hi := r.toks[first].start, r.toks[p-1].end
	vlo, vhi := r.toks[g].end, r.toks[lvEnd-1].end
	r.edits = append(r.edits, edit{lo, vhi, func(r *rewriter) string {
		return "(getline" + r.render(vlo, vhi) + " < " + fnPopen + "(" + r.render(lo, hi) + "))"
	}})
}

// printPipe rewrites the redirection | CMD of a print statement.
func (r *rewriter) printPipe(p int) {
	depth, last := 0, -1
loop:
	for j := p + 1; j < len(r.toks); j++ {
		switch r.toks[j].tok {
		case lexer.LPAREN, lexer.LBRACKET, lexer.LBRACE:
			depth++
		case lexer.RPAREN, lexer.RBRACKET, lexer.RBRACE:
			if depth == 0 {
				break loop
			}
			depth--
		case lexer.NEWLINE, lexer.SEMICOLON, lexer.EOF:
			if depth == 0 {
				break loop
			}
		}
		last = j
	}
	if last < 0 {
		return
	}
	lo, hi := r.toks[p+1].start, r.toks[last].end
	r.edits = append(r.edits, edit{r.toks[p].start, hi, func(r *rewriter) string {
		return "> " + fnPipe + "(" + r.render(lo, hi) + ")"
	}})
}

// leftOperand returns the index of the first token of the command operand
// ending before toks[p], or -1: the concatenation of terms back to the
// nearest operator of lower precedence, unmatched bracket or statement
// start.
func (r *rewriter) leftOperand(p int) int {
	j := p - 1
	for j >= 0 {
		t := r.toks[j].tok
		switch t {
		case lexer.RPAREN, lexer.RBRACKET:
			m := r.matchBack(j)
			if m < 0 {
				return -1
			}
			if t == lexer.RPAREN && m > 0 {
				switch r.toks[m-1].tok {
				case lexer.IF, lexer.WHILE, lexer.FOR:
					return nonEmpty(j+1, p)
				}
			}
			j = m - 1
			continue
		case lexer.NAME, lexer.NUMBER, lexer.STRING, lexer.REGEX,
			lexer.DOLLAR, lexer.INCR, lexer.DECR, lexer.NOT, lexer.ADD, lexer.SUB,
			lexer.MUL, lexer.DIV, lexer.MOD, lexer.POW:
			j--
			continue
		}
		if t >= lexer.F_ATAN2 && t <= lexer.F_TOUPPER {
			j--
			continue
		}
		break
	}
	return nonEmpty(j+1, p)
}

func nonEmpty(first, p int) int {
	if first >= p {
		return -1
	}
	return first
}

// lvalue returns the index just after the optional lvalue starting at
// toks[i] (i itself when there is none).
func (r *rewriter) lvalue(i int) int {
	if i >= len(r.toks) {
		return i
	}
	switch r.toks[i].tok {
	case lexer.NAME:
		if i+1 < len(r.toks) && r.toks[i+1].tok == lexer.LBRACKET {
			if m := r.match(i + 1); m > 0 {
				return m + 1
			}
		}
		return i + 1
	case lexer.DOLLAR:
		if i+1 >= len(r.toks) {
			return i
		}
		switch r.toks[i+1].tok {
		case lexer.NUMBER:
			return i + 2
		case lexer.NAME, lexer.DOLLAR:
			if n := r.lvalue(i + 1); n > i+1 {
				return n
			}
		case lexer.LPAREN:
			if m := r.match(i + 1); m > 0 {
				return m + 1
			}
		}
	}
	return i
}

// match returns the index of the bracket closing toks[i], or -1.
func (r *rewriter) match(i int) int {
	depth := 0
	for j := i; j < len(r.toks); j++ {
		switch r.toks[j].tok {
		case lexer.LPAREN, lexer.LBRACKET:
			depth++
		case lexer.RPAREN, lexer.RBRACKET:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// matchBack returns the index of the bracket opening toks[i], or -1.
func (r *rewriter) matchBack(i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch r.toks[j].tok {
		case lexer.RPAREN, lexer.RBRACKET:
			depth++
		case lexer.LPAREN, lexer.LBRACKET:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// tokenize lexes src with GoAWK's lexer, telling regexes from division as
// its parser does (a slash where an operand is expected starts a regex),
// and records each token's byte range.
func tokenize(src []byte) ([]token, bool) {
	lineStart := []int{0}
	for i, c := range src {
		if c == '\n' {
			lineStart = append(lineStart, i+1)
		}
	}
	offset := func(p lexer.Position) int {
		if p.Line-1 >= len(lineStart) {
			return len(src)
		}
		return lineStart[p.Line-1] + p.Column - 1
	}
	l := lexer.NewLexer(src)
	var toks []token
	prev := lexer.ILLEGAL
	for {
		pos, tok, val := l.Scan()
		if (tok == lexer.DIV || tok == lexer.DIV_ASSIGN) && !endsOperand(prev) {
			pos, tok, val = l.ScanRegex()
		}
		if tok == lexer.ILLEGAL {
			return nil, false
		}
		start := offset(pos)
		if start > len(src) {
			start = len(src)
		}
		t := token{tok: tok, start: start}
		switch tok {
		case lexer.EOF:
			t.start, t.end = len(src), len(src)
		case lexer.STRING:
			t.end = quoteEnd(src, start)
		case lexer.REGEX:
			t.end = quoteEnd(src, start)
		case lexer.NAME, lexer.NUMBER:
			t.end = start + len(val)
		default:
			t.end = start + len(tok.String())
		}
		if t.end > len(src) {
			t.end = len(src)
		}
		toks = append(toks, t)
		if tok == lexer.EOF {
			return toks, true
		}
		prev = tok
	}
}

// endsOperand reports whether a slash after tok is division.
func endsOperand(tok lexer.Token) bool {
	switch tok {
	case lexer.NAME, lexer.NUMBER, lexer.STRING, lexer.REGEX, lexer.RPAREN,
		lexer.RBRACKET, lexer.DOLLAR, lexer.INCR, lexer.DECR, lexer.F_LENGTH:
		return true
	}
	return false
}

// quoteEnd returns the offset after the string or regex literal opening at
// src[start] (its quote character closes it; backslash escapes).
func quoteEnd(src []byte, start int) int {
	q := src[start]
	for i := start + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return len(src)
}
