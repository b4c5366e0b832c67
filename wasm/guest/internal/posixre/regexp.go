package posixre

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/wc"
)

// Options select the dialect and how matches must sit in the line.
type Options struct {
	Extended   bool // ERE instead of BRE
	Fixed      bool // patterns are literal strings
	IgnoreCase bool
	Word       bool // a match must be a whole word (grep -w)
	Line       bool // a match must be the whole line (grep -x)
	// Anchored: a match must start at the beginning of the subject (expr's
	// STRING : REGEX).
	Anchored bool
	// Sed selects GNU sed's dialect: its character escapes (\a \f \r \v
	// \cX \dNNN \oNNN \xHH, inside brackets too), its stricter errors (a
	// repeat of nothing, of an anchor or of a repeat; an unmatched ")" in
	// an ERE), an invalid byte of the pattern matching only that byte, and
	// letters and word characters as Unicode has them.
	Sed bool
	// Multiline makes ^ and $ match around newlines too (sed's M flag).
	Multiline bool
	// Budget caps the backtracking matcher's steps per search; 0 means
	// DefaultBudget.
	Budget int
}

// DefaultBudget is the default step budget of the backtracking matcher.
const DefaultBudget = 20_000_000

// ErrTooComplex is returned by searches that exhaust the step budget.
var ErrTooComplex = errors.New("regular expression too complex: backtracking limit exceeded")

// Regexp is a compiled set of patterns; a subject matches if any pattern
// does.
type Regexp struct {
	opts  Options
	re    *regexp.Regexp // exact translation, when there is one
	wrap  bool           // re is wrapped for Word: the match is group 1
	dfa   *dfa           // answers Match for re where it can
	trees []*node        // otherwise: one tree per pattern
	ngrp  []int

	// For the submatch searches of one pattern (sed, expr).
	expr  string         // re's source
	lit   []byte         // the pattern is this plain string
	need  []byte         // every match contains this string
	adfa  *dfa           // anchored automaton: the longest match at a start
	ldfa  *dfa           // automaton of CountLines, blind to line ends
	capRe *regexp.Regexp // re anchored at both ends, for the groups of a located match
	split *splitter      // or this, for patterns of its shape
	// splitTried: split has been made, or found not to apply.
	splitTried bool
	caps       []int   // scratch
	bt         matcher // reused by the backtracking matcher
}

// Compile compiles patterns under opts.
func Compile(patterns []string, opts Options) (*Regexp, error) {
	if opts.Budget == 0 {
		opts.Budget = DefaultBudget
	}
	r := &Regexp{opts: opts}
	expressible := true
	for _, pat := range patterns {
		var t *node
		n := 0
		if opts.Fixed {
			t = literal(pat)
		} else {
			var err error
			t, n, err = parse(pat, opts.Extended, opts.Sed)
			if err != nil {
				return nil, err
			}
		}
		r.trees = append(r.trees, t)
		r.ngrp = append(r.ngrp, n)
		if !goExpressible(t, opts.Sed) {
			expressible = false
		}
	}
	if len(r.trees) == 1 && !opts.IgnoreCase && !opts.Word && !opts.Line {
		if lit, ok := literalOf(r.trees[0]); ok && len(lit) > 0 && !opts.Anchored {
			r.lit = lit
		}
		r.need = requiredLiteral(r.trees[0])
	}
	if !expressible {
		return r, nil
	}
	var b strings.Builder
	b.WriteString("(?s")
	if opts.IgnoreCase {
		b.WriteString("i")
	}
	if opts.Multiline {
		b.WriteString("m")
	}
	b.WriteString(")")
	switch {
	case opts.Line:
		b.WriteString("^(?:")
	case opts.Word:
		b.WriteString(`(?:^|\W)(`)
		r.wrap = true
	case opts.Anchored:
		b.WriteString(`\A(?:`)
	default:
		b.WriteString("(?:")
	}
	for i, t := range r.trees {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString("(?:")
		emit(&b, t, opts.Sed)
		b.WriteString(")")
	}
	switch {
	case opts.Line:
		b.WriteString(")$")
	case opts.Word:
		b.WriteString(`)(?:\W|$)`)
	default:
		b.WriteString(")")
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		// Go refused a translation (e.g. a repeat count over 1000): the
		// backtracking matcher can still run it.
		return r, nil
	}
	re.Longest()
	r.re = re
	r.expr = b.String()
	if !opts.Multiline { // the automaton knows no line starts mid-text
		r.dfa = newDFA(r.expr, false)
	}
	return r, nil
}

// literalOf reports the bytes t matches if it is a plain string.
func literalOf(t *node) ([]byte, bool) {
	switch t.kind {
	case kLit:
		if isInvalidByte(t.r) {
			return []byte{byte(t.r)}, true
		}
		if t.r == utf8.RuneError {
			return nil, false
		}
		return utf8.AppendRune(nil, t.r), true
	case kConcat:
		var b []byte
		for _, s := range t.subs {
			if s.kind != kLit || s.r == utf8.RuneError {
				return nil, false
			}
			if isInvalidByte(s.r) {
				b = append(b, byte(s.r))
			} else {
				b = utf8.AppendRune(b, s.r)
			}
		}
		return b, true
	}
	return nil, false
}

// requiredLiteral returns the longest run of literal characters that
// every match of t must contain, or nil.
func requiredLiteral(t *node) []byte {
	if t.kind != kConcat {
		return nil
	}
	var best, run []byte
	for _, s := range t.subs {
		if s.kind == kLit && !isInvalidByte(s.r) && s.r != utf8.RuneError {
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

func literal(s string) *node {
	var subs []*node
	for _, c := range s {
		subs = append(subs, &node{kind: kLit, r: c})
	}
	switch len(subs) {
	case 0:
		return &node{kind: kEmpty}
	case 1:
		return subs[0]
	}
	return &node{kind: kConcat, subs: subs}
}

// Match reports whether b (one line, without its terminator) matches.
func (r *Regexp) Match(b []byte) (bool, error) {
	if r.lit != nil {
		return bytes.Contains(b, r.lit), nil
	}
	if r.need != nil && !bytes.Contains(b, r.need) {
		return false, nil
	}
	if r.dfa != nil {
		if m, ok := r.dfa.match(b); ok {
			return m, nil
		}
	}
	if r.re != nil {
		return r.re.Match(b), nil
	}
	_, _, ok, err := r.search(b, 0, false)
	return ok, err
}

// CountLines counts the lines of b, each ending in eol, that contain a
// match, and the lines in all. ok is false, with nothing counted, when it
// cannot tell without the slower matchers: the caller then matches the
// lines one by one.
func (r *Regexp) CountLines(b []byte, eol byte) (matched, lines int, ok bool) {
	d := r.lineDFA(b, eol)
	if d == nil {
		return 0, 0, false
	}
	return d.countLines(b, eol)
}

// FirstLine finds the first line of b (lines end in eol, the last may
// lack it) that contains a match: its start and end (past its eol) and
// how many lines come before it; start is -1 when none does. ok is false
// when it cannot tell without the slower matchers: for all of b when
// start is -1, else for the line [start, end) alone, which the caller
// tests itself before it searches on after it (the skipped lines before
// it hold no match).
func (r *Regexp) FirstLine(b []byte, eol byte) (start, end, skipped int, ok bool) {
	d := r.searchDFA(eol)
	if d == nil {
		return -1, -1, 0, false
	}
	return d.firstLine(b, eol, true)
}

// NextLine is FirstLine for a caller that needs no line numbers: it does
// not count the lines it passes over.
func (r *Regexp) NextLine(b []byte, eol byte) (start, end int, ok bool) {
	d := r.ldfa // after the first call, without a call to searchDFA
	if d == nil || d.eol != int(eol) || d.failed || r.dfa.failed {
		if d = r.searchDFA(eol); d == nil {
			return -1, -1, false
		}
	}
	start, end, _, ok = d.firstLine(b, eol, false)
	return start, end, ok
}

// lineDFA returns the automaton that searches b line by line in one pass,
// or nil if it cannot.
func (r *Regexp) lineDFA(b []byte, eol byte) *dfa {
	if r.dfa == nil || r.dfa.nonASCII && !wc.IsASCII(b) {
		return nil
	}
	return r.searchDFA(eol)
}

// searchDFA returns the automaton that searches lines ending in eol in
// one pass (and stops at a byte past ASCII where the program could match
// one), or nil if there is none.
func (r *Regexp) searchDFA(eol byte) *dfa {
	if r.dfa == nil || r.dfa.failed {
		return nil
	}
	if r.ldfa == nil || r.ldfa.eol != int(eol) {
		if r.ldfa = newDFA(r.expr, false); r.ldfa == nil {
			return nil
		}
		r.ldfa.setEOL(eol)
	}
	if r.ldfa.failed {
		return nil
	}
	return r.ldfa
}

// FindAll calls fn with each successive non-overlapping, non-empty match
// in b until fn returns false.
func (r *Regexp) FindAll(b []byte, fn func(start, end int) bool) error {
	if r.re != nil && !r.wrap {
		for _, loc := range r.re.FindAllIndex(b, -1) {
			if loc[1] > loc[0] && !fn(loc[0], loc[1]) {
				return nil
			}
		}
		return nil
	}
	if r.re != nil {
		// Word mode: the wrapper consumes the neighbouring non-word
		// characters, so search again from each match's end.
		pos := 0
		for pos <= len(b) {
			loc := r.re.FindSubmatchIndex(b[pos:])
			if loc == nil {
				return nil
			}
			s, e := pos+loc[2], pos+loc[3]
			if e > s && !fn(s, e) {
				return nil
			}
			if e > pos {
				pos = e
			} else {
				pos++
			}
		}
		return nil
	}
	pos := 0
	for pos <= len(b) {
		s, e, ok, err := r.search(b, pos, true)
		if err != nil || !ok {
			return err
		}
		if e > s {
			if !fn(s, e) {
				return nil
			}
			pos = e
		} else {
			pos = s + 1
		}
	}
	return nil
}

// search finds the leftmost match at or after from with the backtracking
// matcher; longest asks for the longest match at that start.
func (r *Regexp) search(b []byte, from int, longest bool) (int, int, bool, error) {
	m := &matcher{in: b, icase: r.opts.IgnoreCase, sed: r.opts.Sed, multi: r.opts.Multiline, budget: r.opts.Budget}
	last := len(b)
	if r.opts.Line || r.opts.Anchored {
		last = 0
	}
	for s := from; s <= last; s++ {
		best := -1
		for i, t := range r.trees {
			if cap(m.caps) < 2*(r.ngrp[i]+1) {
				m.caps = make([]int, 2*(r.ngrp[i]+1))
			}
			m.caps = m.caps[:2*(r.ngrp[i]+1)]
			for j := range m.caps {
				m.caps[j] = -1
			}
			m.match(t, s, func(e int) bool {
				if !r.fits(b, s, e) {
					return false
				}
				if e > best {
					best = e
				}
				return !longest
			})
			if m.failed {
				return 0, 0, false, ErrTooComplex
			}
			if best >= 0 && !longest {
				return s, best, true, nil
			}
		}
		if best >= 0 {
			return s, best, true, nil
		}
		if s < len(b) && b[s] >= utf8.RuneSelf {
			_, size := utf8.DecodeRune(b[s:])
			s += size - 1
		}
	}
	return 0, 0, false, nil
}

// fits checks the Word and Line constraints for a match [s, e).
func (r *Regexp) fits(b []byte, s, e int) bool {
	if r.opts.Line {
		return s == 0 && e == len(b)
	}
	if r.opts.Word {
		return (s == 0 || !isWordByte(b[s-1])) && (e == len(b) || !isWordByte(b[e]))
	}
	return true
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// goExpressible reports whether Go's regexp can run t exactly; sed says
// classes have Unicode's letters.
func goExpressible(t *node, sed bool) bool {
	ok := true
	var walk func(n *node, next, prev *node)
	walk = func(n *node, prev, next *node) {
		switch n.kind {
		case kBackref:
			ok = false
		case kRepeat:
			if n.min > 1000 || n.max > 1000 {
				ok = false
			}
		case kWordStart:
			if !surelyWord(next, sed) {
				ok = false
			}
		case kWordEnd:
			if !surelyWord(prev, sed) {
				ok = false
			}
		case kLit:
			if isInvalidByte(n.r) {
				ok = false
			}
		}
		if n.kind == kConcat {
			for i, s := range n.subs {
				var p, x *node
				if i > 0 {
					p = n.subs[i-1]
				}
				if i+1 < len(n.subs) {
					x = n.subs[i+1]
				}
				walk(s, p, x)
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

// surelyWord reports whether n always matches exactly one ASCII word
// character first (or last: callers use it for single-character nodes);
// uni says named classes have Unicode's letters.
func surelyWord(n *node, uni bool) bool {
	if n == nil {
		return false
	}
	switch n.kind {
	case kLit:
		return n.r < utf8.RuneSelf && isWordByte(byte(n.r))
	case kRepeat:
		return n.min > 0 && surelyWord(n.subs[0], uni)
	case kGroup:
		return surelyWord(n.subs[0], uni)
	case kClass:
		if n.cls.neg || uni {
			return false
		}
		for i := 0; i < len(n.cls.ranges); i += 2 {
			for c := n.cls.ranges[i]; c <= n.cls.ranges[i+1]; c++ {
				if c >= utf8.RuneSelf || !isWordByte(byte(c)) {
					return false
				}
			}
		}
		for _, name := range n.cls.named {
			if name != "alpha" && name != "digit" && name != "alnum" && name != "upper" && name != "lower" {
				return false
			}
		}
		return true
	}
	return false
}

// emit writes t in Go regexp syntax; callers checked goExpressible. uni
// gives named classes Unicode's letters.
func emit(b *strings.Builder, t *node, uni bool) {
	switch t.kind {
	case kEmpty:
	case kLit:
		b.WriteString(regexp.QuoteMeta(string(t.r)))
	case kAny:
		b.WriteByte('.')
	case kClass:
		emitClass(b, t.cls, uni)
	case kBOL:
		b.WriteByte('^')
	case kEOL:
		b.WriteByte('$')
	case kWordB, kWordStart, kWordEnd:
		b.WriteString(`\b`)
	case kNotWordB:
		b.WriteString(`\B`)
	case kBufStart:
		b.WriteString(`\A`)
	case kBufEnd:
		b.WriteString(`\z`)
	case kGroup:
		b.WriteByte('(')
		emit(b, t.subs[0], uni)
		b.WriteByte(')')
	case kConcat:
		for _, s := range t.subs {
			emit(b, s, uni)
		}
	case kAlt:
		b.WriteString("(?:")
		for i, s := range t.subs {
			if i > 0 {
				b.WriteByte('|')
			}
			emit(b, s, uni)
		}
		b.WriteByte(')')
	case kRepeat:
		sub := t.subs[0]
		simple := sub.kind == kLit || sub.kind == kAny || sub.kind == kClass || sub.kind == kGroup
		if !simple {
			b.WriteString("(?:")
		}
		emit(b, sub, uni)
		if !simple {
			b.WriteByte(')')
		}
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

// namedGo maps POSIX class names to Go class text with Unicode's letters,
// as glibc's UTF-8 locales have them.
var namedGo = map[string]string{
	"alpha": `\p{L}`, "digit": `0-9`, "alnum": `\p{L}\p{Nd}`, "upper": `\p{Lu}`,
	"lower": `\p{Ll}`, "space": `\t-\r `, "blank": `\t `, "punct": `!-/:-@\[-\x60{-~`,
	"print": `\P{C}`, "graph": `!-~\p{L}\p{M}\p{N}\p{P}\p{S}`, "cntrl": `\x00-\x1f\x7f`,
	"xdigit": `0-9A-Fa-f`,
}

func emitClass(b *strings.Builder, c *class, uni bool) {
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
		if uni {
			b.WriteString(namedGo[n])
		} else {
			b.WriteString("[:" + n + ":]")
		}
	}
	if len(c.ranges) == 0 && len(c.named) == 0 {
		// Cannot happen with POSIX syntax, but keep the output valid.
		b.WriteString(`\x{10FFFF}`)
	}
	b.WriteByte(']')
}

func emitClassRune(b *strings.Builder, r rune) {
	switch {
	case r < utf8.RuneSelf && (unicode.IsPunct(r) || unicode.IsSymbol(r)):
		b.WriteByte('\\')
		b.WriteRune(r)
	case r < ' ' || r == 0x7f || r == utf8.RuneError:
		b.WriteString(`\x{` + strconv.FormatInt(int64(r), 16) + `}`)
	default:
		b.WriteRune(r)
	}
}
