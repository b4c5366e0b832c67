package sed

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds sed's regular expressions: POSIX BRE and ERE with the
// GNU extensions, sed's own escapes (\n, \t, \dNNN, \oNNN, \xHH, \cX),
// capture groups for the s command's replacement, and the M flag. Package
// posixre serves grep, whose matcher reports no groups and searches lines
// one at a time; sed needs submatches and whole-buffer anchors, so it
// parses patterns into its own tree here. A pattern Go's regexp can express
// runs there with leftmost-longest semantics; the rest (back-references,
// \< and \> next to non-word nodes, huge repeat counts) run on a
// backtracking matcher with a step budget.

// Regex compile errors, worded as GNU's regex library words them.
var (
	errBrackExpr = errors.New("Unmatched [, [^, [:, [., or [=")
	errParen     = errors.New("Unmatched ( or \\(")
	errRParen    = errors.New("Unmatched ) or \\)")
	errBrace     = errors.New("Unmatched \\{")
	errBadBrace  = errors.New("Invalid content of \\{\\}")
	errBackref   = errors.New("Invalid back reference")
	errEscape    = errors.New("Trailing backslash")
	errRange     = errors.New("Invalid range end")
	errCtype     = errors.New("Invalid character class name")
	errBadRepeat = errors.New("Invalid preceding regular expression")
	errTooBig    = errors.New("Regular expression too big")
	errTooComplx = errors.New("regular expression too complex: backtracking limit exceeded")
)

type rop uint8

const (
	rEmpty rop = iota
	rLit
	rAny
	rClass
	rBOL
	rEOL
	rWordB
	rNotWordB
	rWordStart
	rWordEnd
	rBufStart
	rBufEnd
	rGroup
	rConcat
	rAlt
	rRepeat
	rBackref
)

type rnode struct {
	op       rop
	r        rune
	cls      *rclass
	subs     []*rnode
	min, max int // rRepeat; max < 0: unbounded
	n        int // rGroup, rBackref: group number
}

type rclass struct {
	neg    bool
	ranges []rune // lo, hi pairs
	named  []string
}

// Regex is one compiled sed regular expression.
type Regex struct {
	re     *regexp.Regexp // Go translation, or nil
	tree   *rnode         // for the backtracking matcher
	ngroup int
	icase  bool
	multi  bool   // M flag: ^ and $ also match around newlines
	lit    []byte // the pattern is this literal (no flags that change it)
	need   []byte // every match contains this literal: a quick filter
	budget int

	// Reused between searches (sed runs one search at a time).
	caps, best []int
	bt         btMatcher
}

const backtrackBudget = 10_000_000

// compileRegex compiles pattern (the text between the delimiters, with
// \delim already turned into delim) as an ERE when ere is set.
func compileRegex(pattern string, ere, icase, multi bool) (*Regex, error) {
	p := &reParser{s: pattern, ere: ere}
	t, err := p.alt()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.s) {
		return nil, errRParen
	}
	r := &Regex{tree: t, ngroup: p.groups, icase: icase, multi: multi, budget: backtrackBudget}
	if !icase {
		if lit, ok := literalOf(t); ok && len(lit) > 0 {
			r.lit = lit
		}
		r.need = requiredLiteral(t)
	}
	if goExpressible(t) {
		var b strings.Builder
		b.WriteString("(?s")
		if icase {
			b.WriteByte('i')
		}
		if multi {
			b.WriteByte('m')
		}
		b.WriteByte(')')
		emitGo(&b, t)
		if re, err := regexp.Compile(b.String()); err == nil {
			re.Longest()
			r.re = re
		}
	}
	return r, nil
}

// literalOf reports the bytes t matches if it is a plain string.
func literalOf(t *rnode) ([]byte, bool) {
	switch t.op {
	case rLit:
		return utf8.AppendRune(nil, t.r), true
	case rConcat:
		var b []byte
		for _, s := range t.subs {
			if s.op != rLit {
				return nil, false
			}
			b = utf8.AppendRune(b, s.r)
		}
		return b, true
	}
	return nil, false
}

// requiredLiteral returns the longest run of literal characters that
// every match of t must contain, or nil.
func requiredLiteral(t *rnode) []byte {
	if t.op != rConcat {
		return nil
	}
	var best, run []byte
	for _, s := range t.subs {
		if s.op == rLit && !(s.r >= 0xDC80 && s.r <= 0xDCFF) {
			run = utf8.AppendRune(run, s.r)
			if len(run) > len(best) {
				best = append(best[:0], run...)
			}
			continue
		}
		run = run[:0]
	}
	if len(best) == 0 {
		return nil
	}
	return best
}

// Match reports whether b matches anywhere.
func (r *Regex) Match(b []byte) (bool, error) {
	if r.lit != nil {
		return bytes.Contains(b, r.lit), nil
	}
	if r.need != nil && !bytes.Contains(b, r.need) {
		return false, nil
	}
	if r.re != nil {
		return r.re.Match(b), nil
	}
	var caps [2]int
	return r.backtrackAt(b, 0, caps[:0])
}

// find finds the leftmost-longest match starting at or after from and
// fills caps (2 per group, group 0 first; -1 when unset), which must have
// room for 2*(ngroup+1) entries. Anchors and word boundaries see all of b.
// notEmptyAt forbids an empty match at that offset (-1 for none): the
// rule that an empty match may not abut the previous match.
func (r *Regex) find(b []byte, from int, caps []int) (bool, error) {
	if r.lit != nil {
		i := bytes.Index(b[from:], r.lit)
		if i < 0 {
			return false, nil
		}
		caps[0], caps[1] = from+i, from+i+len(r.lit)
		return true, nil
	}
	return r.backtrackAt(b, from, caps)
}

// backtrackAt runs the backtracking matcher from each start >= from.
func (r *Regex) backtrackAt(b []byte, from int, caps []int) (bool, error) {
	n := 2 * (r.ngroup + 1)
	if len(r.best) != n {
		r.best, r.bt.caps = make([]int, n), make([]int, n)
	}
	m := &r.bt
	*m = btMatcher{in: b, icase: r.icase, multi: r.multi, budget: r.budget, caps: m.caps}
	best := r.best
	defer func() { m.in = nil }()
	for s := from; s <= len(b); s++ {
		found := -1
		for j := range m.caps {
			m.caps[j] = -1
		}
		m.match(r.tree, s, func(e int) bool {
			if e > found {
				found = e
				copy(best, m.caps)
			}
			return false // keep looking for a longer match
		})
		if m.failed {
			return false, errTooComplx
		}
		if found >= 0 {
			best[0], best[1] = s, found
			if len(caps) > 0 {
				copy(caps, best)
			}
			return true, nil
		}
		if s < len(b) && b[s] >= utf8.RuneSelf {
			_, n := utf8.DecodeRune(b[s:])
			s += n - 1
		}
	}
	return false, nil
}

// matchSink receives matches from forEach.
type matchSink interface {
	// match gets the capture offsets of one match (a reused slice) and
	// reports whether to go on.
	match(caps []int) bool
}

// forEach hands sink the capture offsets of each successive match in b
// (as FindAllSubmatchIndex does: an empty match abutting the previous
// match is skipped) until it declines more. ncap <= 2 asks only for the
// whole match.
func (r *Regex) forEach(b []byte, ncap int, sink matchSink) error {
	if r.need != nil && r.lit == nil && !bytes.Contains(b, r.need) {
		return nil
	}
	if r.lit == nil && r.re != nil {
		if ncap <= 2 {
			for _, loc := range r.re.FindAllIndex(b, -1) {
				if !sink.match(loc) {
					return nil
				}
			}
			return nil
		}
		for _, loc := range r.re.FindAllSubmatchIndex(b, -1) {
			if !sink.match(loc) {
				return nil
			}
		}
		return nil
	}
	if len(r.caps) != 2*(r.ngroup+1) {
		r.caps = make([]int, 2*(r.ngroup+1))
	}
	caps := r.caps
	pos, prevEnd := 0, -1
	for pos <= len(b) {
		ok, err := r.find(b, pos, caps)
		if err != nil || !ok {
			return err
		}
		if caps[1] == caps[0] && caps[0] == prevEnd {
			// An empty match right after the previous one: move on.
			if caps[0] >= len(b) {
				return nil
			}
			_, n := utf8.DecodeRune(b[caps[0]:])
			pos = caps[0] + n
			continue
		}
		if !sink.match(caps) {
			return nil
		}
		prevEnd = caps[1]
		if caps[1] > caps[0] {
			pos = caps[1]
		} else if caps[1] < len(b) {
			_, n := utf8.DecodeRune(b[caps[1]:])
			pos = caps[1] + n
		} else {
			return nil
		}
	}
	return nil
}

// first finds the first match of b into caps.
func (r *Regex) first(b []byte, caps []int) (bool, error) {
	if r.need != nil && r.lit == nil && !bytes.Contains(b, r.need) {
		return false, nil
	}
	if r.lit == nil && r.re != nil {
		loc := r.re.FindSubmatchIndex(b)
		if loc == nil {
			return false, nil
		}
		copy(caps, loc)
		return true, nil
	}
	return r.find(b, 0, caps)
}

// reParser parses a BRE or ERE into a tree.
type reParser struct {
	s      string
	i      int
	ere    bool
	groups int
	closed []int
	depth  int
}

func (p *reParser) more() bool { return p.i < len(p.s) }

func (p *reParser) atAltSep() bool {
	if p.ere {
		return p.more() && p.s[p.i] == '|'
	}
	return strings.HasPrefix(p.s[p.i:], `\|`)
}

func (p *reParser) atClose() bool {
	if p.depth == 0 {
		return false
	}
	if p.ere {
		return p.more() && p.s[p.i] == ')'
	}
	return strings.HasPrefix(p.s[p.i:], `\)`)
}

func (p *reParser) alt() (*rnode, error) {
	var branches []*rnode
	for {
		c, err := p.concat()
		if err != nil {
			return nil, err
		}
		branches = append(branches, c)
		if !p.atAltSep() {
			break
		}
		if p.ere {
			p.i++
		} else {
			p.i += 2
		}
	}
	if len(branches) == 1 {
		return branches[0], nil
	}
	return &rnode{op: rAlt, subs: branches}, nil
}

func (p *reParser) concat() (*rnode, error) {
	var items []*rnode
	start := true // no atom yet: '*' is literal (BRE), '^' an anchor
	for p.more() && !p.atAltSep() && !p.atClose() {
		c := p.s[p.i]
		if rep, ok, err := p.repeatOp(start); err != nil {
			return nil, err
		} else if ok {
			last := items[len(items)-1]
			if last.op == rRepeat && !p.ere {
				return nil, errBadRepeat
			}
			if isAssertion(last.op) {
				// GNU: an ERE may not repeat an anchor; in a BRE, *, \+
				// and \? after one are literal and an interval is an error.
				if p.ere || rep.min > 1 || rep.max > 1 || rep.min == 1 && rep.max == 1 {
					return nil, errBadRepeat
				}
				lit := '*'
				if rep.min == 1 {
					lit = '+'
				} else if rep.max == 1 {
					lit = '?'
				}
				items = append(items, &rnode{op: rLit, r: lit})
				continue
			}
			rep.subs = []*rnode{last}
			items[len(items)-1] = rep
			continue
		}
		switch {
		case c == '^':
			p.i++
			if p.ere || start {
				items = append(items, &rnode{op: rBOL})
				start = true
				continue
			}
			items = append(items, &rnode{op: rLit, r: '^'})
		case c == '$':
			p.i++
			if p.ere || !p.more() || p.atAltSep() || p.atClose() {
				items = append(items, &rnode{op: rEOL})
			} else {
				items = append(items, &rnode{op: rLit, r: '$'})
			}
		case c == '.':
			p.i++
			items = append(items, &rnode{op: rAny})
		case c == '[':
			p.i++
			n, err := p.bracket()
			if err != nil {
				return nil, err
			}
			items = append(items, n)
		case p.ere && c == '(':
			p.i++
			n, err := p.group()
			if err != nil {
				return nil, err
			}
			items = append(items, n)
		case p.ere && c == ')' && p.depth == 0:
			return nil, errRParen
		case c == '\\':
			n, err := p.escape()
			if err != nil {
				return nil, err
			}
			items = append(items, n)
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				r = rune(0xDC00 + int(p.s[p.i])) // an invalid byte: matches itself only
			}
			p.i += size
			items = append(items, &rnode{op: rLit, r: r})
		}
		start = false
	}
	switch len(items) {
	case 0:
		return &rnode{op: rEmpty}, nil
	case 1:
		return items[0], nil
	}
	return &rnode{op: rConcat, subs: items}, nil
}

func isAssertion(op rop) bool {
	switch op {
	case rBOL, rEOL, rWordB, rNotWordB, rWordStart, rWordEnd, rBufStart, rBufEnd:
		return true
	}
	return false
}

func (p *reParser) repeatOp(start bool) (*rnode, bool, error) {
	s := p.s[p.i:]
	var op string
	switch {
	case s[0] == '*':
		op = "*"
	case p.ere && (s[0] == '+' || s[0] == '?'):
		op = s[:1]
	case !p.ere && (strings.HasPrefix(s, `\+`) || strings.HasPrefix(s, `\?`)):
		op = s[:2]
	case p.ere && s[0] == '{':
		op = "{"
	case !p.ere && strings.HasPrefix(s, `\{`):
		op = `\{`
	default:
		return nil, false, nil
	}
	if start {
		if p.ere || op == `\{` {
			return nil, false, errBadRepeat
		}
		return nil, false, nil
	}
	rep := &rnode{op: rRepeat}
	switch op {
	case "*":
		rep.min, rep.max = 0, -1
	case "+", `\+`:
		rep.min, rep.max = 1, -1
	case "?", `\?`:
		rep.min, rep.max = 0, 1
	default:
		lo, hi, n, err := p.interval(s[len(op):])
		if err != nil {
			return nil, false, err
		}
		rep.min, rep.max = lo, hi
		p.i += len(op) + n
		return rep, true, nil
	}
	p.i += len(op)
	return rep, true, nil
}

func (p *reParser) interval(s string) (lo, hi, n int, err error) {
	num := func() (int, bool) {
		v, any := 0, false
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			v = v*10 + int(s[n]-'0')
			if v > 1<<16 {
				v = 1 << 16
			}
			n++
			any = true
		}
		return v, any
	}
	lo, haveLo := num()
	hi = lo
	if n < len(s) && s[n] == ',' {
		n++
		var haveHi bool
		if hi, haveHi = num(); !haveHi {
			hi = -1
		}
	} else if !haveLo {
		if p.ere {
			return 0, 0, 0, errBadRepeat
		}
		return 0, 0, 0, errBadBrace
	}
	closer := `\}`
	if p.ere {
		closer = "}"
	}
	if !strings.HasPrefix(s[n:], closer) {
		if strings.Contains(s[n:], closer) {
			return 0, 0, 0, errBadBrace
		}
		return 0, 0, 0, errBrace
	}
	n += len(closer)
	if hi >= 0 && hi < lo {
		return 0, 0, 0, errBadBrace
	}
	if lo > 32767 || hi > 32767 {
		return 0, 0, 0, errTooBig
	}
	return lo, hi, n, nil
}

func (p *reParser) group() (*rnode, error) {
	p.groups++
	num := p.groups
	p.depth++
	sub, err := p.alt()
	if err != nil {
		return nil, err
	}
	p.depth--
	if !p.more() {
		return nil, errParen
	}
	if p.ere {
		p.i++
	} else {
		p.i += 2
	}
	p.closed = append(p.closed, num)
	return &rnode{op: rGroup, n: num, subs: []*rnode{sub}}, nil
}

func (p *reParser) escape() (*rnode, error) {
	if p.i+1 >= len(p.s) {
		return nil, errEscape
	}
	c := p.s[p.i+1]
	p.i += 2
	switch c {
	case '(':
		if !p.ere {
			return p.group()
		}
	case ')':
		if !p.ere {
			return nil, errRParen
		}
	case '{':
		if !p.ere {
			return nil, errBadRepeat
		}
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n := int(c - '0')
		for _, g := range p.closed {
			if g == n {
				return &rnode{op: rBackref, n: n}, nil
			}
		}
		return nil, errBackref
	case '<':
		return &rnode{op: rWordStart}, nil
	case '>':
		return &rnode{op: rWordEnd}, nil
	case 'b':
		return &rnode{op: rWordB}, nil
	case 'B':
		return &rnode{op: rNotWordB}, nil
	case '`':
		return &rnode{op: rBufStart}, nil
	case '\'':
		return &rnode{op: rBufEnd}, nil
	case 'w', 'W':
		return &rnode{op: rClass, cls: &rclass{neg: c == 'W', named: []string{"alnum"}, ranges: []rune{'_', '_'}}}, nil
	case 's', 'S':
		return &rnode{op: rClass, cls: &rclass{neg: c == 'S', named: []string{"space"}}}, nil
	}
	if r, n, ok := charEscape(p.s[p.i-2:]); ok {
		p.i += n - 2
		return &rnode{op: rLit, r: r}, nil
	}
	if c >= utf8.RuneSelf {
		r, size := utf8.DecodeRuneInString(p.s[p.i-1:])
		p.i += size - 1
		return &rnode{op: rLit, r: r}, nil
	}
	return &rnode{op: rLit, r: rune(c)}, nil
}

// charEscape decodes sed's character escapes at the start of s (which
// begins with a backslash): \a \f \n \r \t \v, \cX, \dNNN, \oNNN, \xHH.
// It returns the character and the bytes used.
func charEscape(s string) (rune, int, bool) {
	if len(s) < 2 || s[0] != '\\' {
		return 0, 0, false
	}
	switch s[1] {
	case 'a':
		return '\a', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'v':
		return '\v', 2, true
	case 'c':
		if len(s) < 3 {
			return 0, 0, false
		}
		return rune(unicode.ToUpper(rune(s[2])) ^ 0x40), 3, true
	case 'd', 'o', 'x':
		base, max := 10, 3
		if s[1] == 'o' {
			base = 8
		} else if s[1] == 'x' {
			base, max = 16, 2
		}
		n := 2
		for n < len(s) && n-2 < max && digitVal(s[n]) < base {
			n++
		}
		if n == 2 {
			return 0, 0, false
		}
		v, _ := strconv.ParseUint(s[2:n], base, 32)
		return rune(v & 0xff), n, true
	}
	return 0, 0, false
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

var classNames = map[string]bool{
	"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true,
	"space": true, "blank": true, "punct": true, "print": true, "graph": true,
	"cntrl": true, "xdigit": true,
}

func (p *reParser) bracket() (*rnode, error) {
	cls := &rclass{}
	if p.more() && p.s[p.i] == '^' {
		cls.neg = true
		p.i++
	}
	first := true
	for {
		if !p.more() {
			return nil, errBrackExpr
		}
		c := p.s[p.i]
		if c == ']' && !first {
			p.i++
			break
		}
		first = false
		var lo rune
		if c == '[' && p.i+1 < len(p.s) && strings.IndexByte(":=.", p.s[p.i+1]) >= 0 {
			delim := p.s[p.i+1]
			end := strings.Index(p.s[p.i+2:], string(delim)+"]")
			if end < 0 {
				return nil, errBrackExpr
			}
			body := p.s[p.i+2 : p.i+2+end]
			p.i += 2 + end + 2
			if delim == ':' {
				if !classNames[body] {
					return nil, errCtype
				}
				cls.named = append(cls.named, body)
				continue
			}
			r, size := utf8.DecodeRuneInString(body)
			if size != len(body) || size == 0 {
				return nil, errors.New("Invalid collation character")
			}
			lo = r
		} else if r, n, ok := bracketEscape(p.s[p.i:]); ok {
			p.i += n
			lo = r
		} else {
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			p.i += size
			lo = r
		}
		hi := lo
		if p.i+1 < len(p.s) && p.s[p.i] == '-' && p.s[p.i+1] != ']' {
			p.i++
			if r, n, ok := bracketEscape(p.s[p.i:]); ok {
				p.i += n
				hi = r
			} else {
				r, size := utf8.DecodeRuneInString(p.s[p.i:])
				p.i += size
				hi = r
			}
			if hi < lo {
				return nil, errRange
			}
		}
		cls.ranges = append(cls.ranges, lo, hi)
	}
	return &rnode{op: rClass, cls: cls}, nil
}

// bracketEscape decodes the escapes GNU sed converts before the regex
// library sees a bracket expression: \n, \t and friends, \\ stays two
// characters (a backslash in a bracket is literal).
func bracketEscape(s string) (rune, int, bool) {
	if len(s) < 2 || s[0] != '\\' || s[1] == '\\' || s[1] == ']' {
		return 0, 0, false
	}
	return charEscape(s)
}

// goExpressible reports whether Go's regexp runs t exactly.
func goExpressible(t *rnode) bool {
	ok := true
	var walk func(n, prev, next *rnode)
	walk = func(n, prev, next *rnode) {
		switch n.op {
		case rBackref:
			ok = false
		case rRepeat:
			if n.min > 1000 || n.max > 1000 {
				ok = false
			}
		case rWordStart:
			if !surelyWord(next) {
				ok = false
			}
		case rWordEnd:
			if !surelyWord(prev) {
				ok = false
			}
		case rLit:
			if n.r >= 0xDC80 && n.r <= 0xDCFF {
				ok = false // an invalid byte
			}
		}
		if n.op == rConcat {
			for i, s := range n.subs {
				var pv, nx *rnode
				if i > 0 {
					pv = n.subs[i-1]
				}
				if i+1 < len(n.subs) {
					nx = n.subs[i+1]
				}
				walk(s, pv, nx)
			}
			return
		}
		for _, s := range n.subs {
			walk(s, nil, nil)
		}
	}
	walk(t, nil, nil)
	return ok
}

func surelyWord(n *rnode) bool {
	if n == nil {
		return false
	}
	switch n.op {
	case rLit:
		return n.r < utf8.RuneSelf && isWordByte(byte(n.r))
	case rRepeat:
		return n.min > 0 && surelyWord(n.subs[0])
	case rGroup:
		return surelyWord(n.subs[0])
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func emitGo(b *strings.Builder, t *rnode) {
	switch t.op {
	case rEmpty:
	case rLit:
		b.WriteString(regexp.QuoteMeta(string(t.r)))
	case rAny:
		b.WriteByte('.')
	case rClass:
		emitClass(b, t.cls)
	case rBOL:
		b.WriteByte('^')
	case rEOL:
		b.WriteByte('$')
	case rWordB, rWordStart, rWordEnd:
		b.WriteString(`\b`)
	case rNotWordB:
		b.WriteString(`\B`)
	case rBufStart:
		b.WriteString(`\A`)
	case rBufEnd:
		b.WriteString(`\z`)
	case rGroup:
		b.WriteByte('(')
		emitGo(b, t.subs[0])
		b.WriteByte(')')
	case rConcat:
		for _, s := range t.subs {
			emitGo(b, s)
		}
	case rAlt:
		b.WriteString("(?:")
		for i, s := range t.subs {
			if i > 0 {
				b.WriteByte('|')
			}
			emitGo(b, s)
		}
		b.WriteByte(')')
	case rRepeat:
		b.WriteString("(?:")
		emitGo(b, t.subs[0])
		b.WriteByte(')')
		switch {
		case t.min == 0 && t.max < 0:
			b.WriteByte('*')
		case t.min == 1 && t.max < 0:
			b.WriteByte('+')
		case t.min == 0 && t.max == 1:
			b.WriteByte('?')
		case t.max < 0:
			b.WriteString("{" + strconv.Itoa(t.min) + ",}")
		case t.min == t.max:
			b.WriteString("{" + strconv.Itoa(t.min) + "}")
		default:
			b.WriteString("{" + strconv.Itoa(t.min) + "," + strconv.Itoa(t.max) + "}")
		}
	}
}

// namedGo maps POSIX class names to Go class text; letters follow Unicode
// as glibc's UTF-8 locales do.
var namedGo = map[string]string{
	"alpha": `\p{L}`, "digit": `0-9`, "alnum": `\p{L}\p{Nd}`, "upper": `\p{Lu}`,
	"lower": `\p{Ll}`, "space": `\t-\r `, "blank": `\t `, "punct": `!-/:-@\[-\x60{-~`,
	"print": `\P{C}`, "graph": `!-~\p{L}\p{M}\p{N}\p{P}\p{S}`, "cntrl": `\x00-\x1f\x7f`,
	"xdigit": `0-9A-Fa-f`,
}

func emitClass(b *strings.Builder, c *rclass) {
	b.WriteByte('[')
	if c.neg {
		b.WriteByte('^')
	}
	for i := 0; i < len(c.ranges); i += 2 {
		emitClassRune(b, c.ranges[i])
		if c.ranges[i+1] != c.ranges[i] {
			b.WriteByte('-')
			emitClassRune(b, c.ranges[i+1])
		}
	}
	for _, n := range c.named {
		b.WriteString(namedGo[n])
	}
	b.WriteByte(']')
}

func emitClassRune(b *strings.Builder, r rune) {
	if r < utf8.RuneSelf && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
		b.WriteString(`\x{` + strconv.FormatInt(int64(r), 16) + `}`)
		return
	}
	b.WriteRune(r)
}

// btMatcher is the backtracking matcher: match tries n at i and hands each
// end it reaches to k, stopping when k accepts.
type btMatcher struct {
	in     []byte
	caps   []int
	icase  bool
	multi  bool
	steps  int
	budget int
	failed bool
}

func (m *btMatcher) decode(i int) (rune, int) {
	c := m.in[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	r, n := utf8.DecodeRune(m.in[i:])
	if r == utf8.RuneError && n == 1 {
		return rune(0xDC00 + int(c)), 1
	}
	return r, n
}

func (m *btMatcher) wordAt(i int) bool {
	if i < 0 || i >= len(m.in) {
		return false
	}
	r, _ := m.decode(i)
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func (m *btMatcher) wordBefore(i int) bool {
	if i <= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRune(m.in[:i])
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func (m *btMatcher) match(n *rnode, i int, k func(int) bool) bool {
	if m.steps++; m.steps > m.budget {
		m.failed = true
	}
	if m.failed {
		return false
	}
	switch n.op {
	case rEmpty:
		return k(i)
	case rLit:
		if i >= len(m.in) {
			return false
		}
		r, size := m.decode(i)
		if r == n.r || m.icase && foldEq(r, n.r) {
			return k(i + size)
		}
		return false
	case rAny:
		if i >= len(m.in) {
			return false
		}
		_, size := m.decode(i)
		return k(i + size)
	case rClass:
		if i >= len(m.in) {
			return false
		}
		r, size := m.decode(i)
		if n.cls.has(r, m.icase) {
			return k(i + size)
		}
		return false
	case rBOL:
		return (i == 0 || m.multi && m.in[i-1] == '\n') && k(i)
	case rEOL:
		return (i == len(m.in) || m.multi && m.in[i] == '\n') && k(i)
	case rBufStart:
		return i == 0 && k(i)
	case rBufEnd:
		return i == len(m.in) && k(i)
	case rWordB:
		return m.wordBefore(i) != m.wordAt(i) && k(i)
	case rNotWordB:
		return m.wordBefore(i) == m.wordAt(i) && k(i)
	case rWordStart:
		return !m.wordBefore(i) && m.wordAt(i) && k(i)
	case rWordEnd:
		return m.wordBefore(i) && !m.wordAt(i) && k(i)
	case rGroup:
		g := 2 * n.n
		oldS, oldE := m.caps[g], m.caps[g+1]
		if m.match(n.subs[0], i, func(j int) bool {
			ps, pe := m.caps[g], m.caps[g+1]
			m.caps[g], m.caps[g+1] = i, j
			if k(j) {
				return true
			}
			m.caps[g], m.caps[g+1] = ps, pe
			return false
		}) {
			return true
		}
		m.caps[g], m.caps[g+1] = oldS, oldE
		return false
	case rConcat:
		return m.seq(n.subs, i, k)
	case rAlt:
		for _, s := range n.subs {
			if m.match(s, i, k) {
				return true
			}
		}
		return false
	case rRepeat:
		return m.repeat(n, 0, i, k)
	case rBackref:
		s, e := m.caps[2*n.n], m.caps[2*n.n+1]
		if s < 0 || e < 0 {
			return false
		}
		ref := m.in[s:e]
		if i+len(ref) > len(m.in) {
			return false
		}
		got := m.in[i : i+len(ref)]
		if bytes.Equal(got, ref) || m.icase && bytes.EqualFold(got, ref) {
			return k(i + len(ref))
		}
		return false
	}
	return false
}

func (m *btMatcher) seq(subs []*rnode, i int, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(i)
	}
	return m.match(subs[0], i, func(j int) bool { return m.seq(subs[1:], j, k) })
}

func (m *btMatcher) repeat(n *rnode, count, i int, k func(int) bool) bool {
	if n.max < 0 || count < n.max {
		if m.match(n.subs[0], i, func(j int) bool {
			if j == i && count >= n.min {
				return false
			}
			return m.repeat(n, count+1, j, k)
		}) {
			return true
		}
	}
	return count >= n.min && k(i)
}

func foldEq(a, b rune) bool {
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

func (c *rclass) has(r rune, icase bool) bool {
	in := c.contains(r)
	if !in && icase {
		for f := unicode.SimpleFold(r); f != r && !in; f = unicode.SimpleFold(f) {
			in = c.contains(f)
		}
	}
	return in != c.neg
}

func (c *rclass) contains(r rune) bool {
	for i := 0; i < len(c.ranges); i += 2 {
		if c.ranges[i] <= r && r <= c.ranges[i+1] {
			return true
		}
	}
	for _, name := range c.named {
		if inNamed(name, r) {
			return true
		}
	}
	return false
}

func inNamed(name string, r rune) bool {
	switch name {
	case "alpha":
		return unicode.IsLetter(r)
	case "digit":
		return r >= '0' && r <= '9'
	case "alnum":
		return unicode.IsLetter(r) || unicode.Is(unicode.Nd, r)
	case "upper":
		return unicode.IsUpper(r)
	case "lower":
		return unicode.IsLower(r)
	case "space":
		return r == ' ' || r >= '\t' && r <= '\r'
	case "blank":
		return r == ' ' || r == '\t'
	case "punct":
		return r > ' ' && r < 0x7f && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	case "print":
		return r >= ' ' && r != 0x7f && !unicode.Is(unicode.C, r)
	case "graph":
		return r > ' ' && r != 0x7f && !unicode.Is(unicode.C, r) && !unicode.IsSpace(r)
	case "cntrl":
		return r < ' ' || r == 0x7f
	case "xdigit":
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
	}
	return false
}
