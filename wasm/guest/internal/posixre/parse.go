// Package posixre implements POSIX basic and extended regular expressions
// with the GNU extensions grep and sed users rely on (\| \+ \? in BREs,
// \< \> \b \B \w \W \s \S, back-references), for every tool of the
// sandbox that takes one: grep, sed, expr, find -regex, nl, csplit, tac.
// Patterns are parsed into a small syntax tree. The common case runs on a
// lazily built byte-level DFA (dfa.go) that answers "does this line
// match" and "where is the leftmost-longest match" with no allocation;
// submatches of a located match come from Go's regexp on the match
// alone; what Go's regexp cannot express (back-references, above all)
// runs on a backtracking matcher with a step budget, so that a
// catastrophic pattern fails instead of hanging.
package posixre

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type kind uint8

const (
	kEmpty kind = iota
	kLit
	kAny
	kClass
	kBOL
	kEOL
	kWordB
	kNotWordB
	kWordStart
	kWordEnd
	kBufStart
	kBufEnd
	kGroup
	kConcat
	kAlt
	kRepeat
	kBackref
)

type node struct {
	kind     kind
	r        rune   // kLit
	cls      *class // kClass
	subs     []*node
	min, max int // kRepeat; max < 0 means no limit
	n        int // kGroup: group number; kBackref: referenced group
}

// class is a bracket expression.
type class struct {
	neg    bool
	ranges []rune // pairs lo, hi
	named  []string
}

// Syntax errors, worded as GNU's regex library words them.
var (
	ErrBrack       = errors.New("Unmatched [, [^, [:, [., or [=")
	ErrParen       = errors.New("Unmatched ( or \\(")
	ErrRParen      = errors.New("Unmatched ) or \\)")
	ErrBrace       = errors.New("Unmatched \\{")
	ErrBadBrace    = errors.New("Invalid content of \\{\\}")
	ErrBackref     = errors.New("Invalid back reference")
	ErrEscape      = errors.New("Trailing backslash")
	ErrRange       = errors.New("Invalid range end")
	ErrCtype       = errors.New("Invalid character class name")
	ErrBadRepeat   = errors.New("Invalid preceding regular expression")
	ErrTooBig      = errors.New("Regular expression too big")
	ErrInvalid     = errors.New("Invalid regular expression")
	ErrClassSyntax = errors.New("character class syntax is [[:space:]], not [:space:]")
)

const dupMax = 32767

type parser struct {
	s      string
	i      int
	ere    bool
	sed    bool  // GNU sed's dialect (Options.Sed)
	groups int   // groups opened so far
	closed []int // groups closed so far
	depth  int
}

// parse parses a BRE (ere false) or ERE into a tree and its group count;
// sed selects GNU sed's dialect.
func parse(s string, ere, sed bool) (*node, int, error) {
	p := &parser{s: s, ere: ere, sed: sed}
	n, err := p.alt()
	if err != nil {
		return nil, 0, err
	}
	if p.i < len(p.s) {
		// Only an unmatched close paren stops alt at depth 0.
		return nil, 0, ErrRParen
	}
	return n, p.groups, nil
}

func (p *parser) more() bool { return p.i < len(p.s) }

// atAltSep reports whether an alternation separator starts at p.i.
func (p *parser) atAltSep() bool {
	if p.ere {
		return p.more() && p.s[p.i] == '|'
	}
	return strings.HasPrefix(p.s[p.i:], `\|`)
}

func (p *parser) atClose() bool {
	if p.depth == 0 {
		return false
	}
	if p.ere {
		return p.more() && p.s[p.i] == ')'
	}
	return strings.HasPrefix(p.s[p.i:], `\)`)
}

func (p *parser) alt() (*node, error) {
	var branches []*node
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
	return &node{kind: kAlt, subs: branches}, nil
}

func (p *parser) concat() (*node, error) {
	var items []*node
	start := true // no atom yet in this branch: '*' is literal, '^' an anchor
	for p.more() && !p.atAltSep() && !p.atClose() {
		c := p.s[p.i]
		// Repetition operators.
		if rep, ok, err := p.repeatOp(start); err != nil {
			return nil, err
		} else if ok {
			last := items[len(items)-1]
			if p.sed {
				if last.kind == kRepeat && !p.ere {
					return nil, ErrBadRepeat
				}
				if isAssertion(last.kind) {
					// GNU sed: an ERE may not repeat an anchor; in a BRE,
					// *, \+ and \? after one are literal and an interval
					// is an error.
					if p.ere || rep.min > 1 || rep.max > 1 || rep.min == 1 && rep.max == 1 {
						return nil, ErrBadRepeat
					}
					lit := '*'
					if rep.min == 1 {
						lit = '+'
					} else if rep.max == 1 {
						lit = '?'
					}
					items = append(items, &node{kind: kLit, r: lit})
					continue
				}
			} else if last.kind == kBOL {
				// "^*": the star is literal.
				items = append(items, &node{kind: kLit, r: '*'})
				continue
			}
			rep.subs = []*node{last}
			items[len(items)-1] = rep
			continue
		}
		switch {
		case c == '^':
			p.i++
			if p.ere || start {
				items = append(items, &node{kind: kBOL})
				start = true
				continue
			}
			items = append(items, &node{kind: kLit, r: '^'})
		case c == '$':
			p.i++
			if p.ere || !p.more() || p.atAltSep() || p.atClose() {
				items = append(items, &node{kind: kEOL})
			} else {
				items = append(items, &node{kind: kLit, r: '$'})
			}
		case c == '.':
			p.i++
			items = append(items, &node{kind: kAny})
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
		case p.sed && p.ere && c == ')' && p.depth == 0:
			return nil, ErrRParen
		case c == '\\':
			n, err := p.escape()
			if err != nil {
				return nil, err
			}
			if n == nil {
				continue
			}
			items = append(items, n)
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if p.sed && r == utf8.RuneError && size == 1 {
				r = invalidByte(p.s[p.i]) // matches that byte only
			}
			p.i += size
			items = append(items, &node{kind: kLit, r: r})
		}
		start = false
	}
	switch len(items) {
	case 0:
		return &node{kind: kEmpty}, nil
	case 1:
		return items[0], nil
	}
	return &node{kind: kConcat, subs: items}, nil
}

// invalidByte is the rune standing for the invalid UTF-8 byte c in a sed
// pattern and subject: one of the lone surrogates, which valid UTF-8 never
// decodes to.
func invalidByte(c byte) rune { return rune(0xDC00 + int(c)) }

func isInvalidByte(r rune) bool { return r >= 0xDC80 && r <= 0xDCFF }

func isAssertion(k kind) bool {
	switch k {
	case kBOL, kEOL, kWordB, kNotWordB, kWordStart, kWordEnd, kBufStart, kBufEnd:
		return true
	}
	return false
}

// repeatOp parses a repetition operator at p.i, if one applies there.
func (p *parser) repeatOp(start bool) (*node, bool, error) {
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
		// Nothing to repeat: literal, except that a BRE interval is an
		// error (and, for sed, any ERE operator).
		if op == `\{` || p.sed && p.ere {
			return nil, false, ErrBadRepeat
		}
		return nil, false, nil
	}
	rep := &node{kind: kRepeat}
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
			if p.ere && !p.sed {
				return nil, false, nil // GNU: an invalid ERE interval is literal
			}
			return nil, false, err
		}
		rep.min, rep.max = lo, hi
		p.i += len(op) + n
		return rep, true, nil
	}
	p.i += len(op)
	return rep, true, nil
}

// interval parses "m}", "m,}", "m,n}" or ",n}" (with \} in BREs) and
// returns the bounds and the bytes consumed.
func (p *parser) interval(s string) (lo, hi, n int, err error) {
	num := func() (int, bool) {
		v, any := 0, false
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			v = v*10 + int(s[n]-'0')
			if v > dupMax+1 {
				v = dupMax + 1
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
		hi, haveHi = num()
		if !haveHi {
			hi = -1
		}
	} else if !haveLo {
		if p.sed && p.ere {
			return 0, 0, 0, ErrBadRepeat
		}
		return 0, 0, 0, ErrBadBrace
	}
	closer := `\}`
	if p.ere {
		closer = "}"
	}
	if !strings.HasPrefix(s[n:], closer) {
		if strings.Contains(s[n:], closer) {
			return 0, 0, 0, ErrBadBrace
		}
		return 0, 0, 0, ErrBrace
	}
	n += len(closer)
	if hi >= 0 && hi < lo {
		return 0, 0, 0, ErrBadBrace
	}
	if lo > dupMax || hi > dupMax {
		return 0, 0, 0, ErrTooBig
	}
	return lo, hi, n, nil
}

func (p *parser) group() (*node, error) {
	p.groups++
	num := p.groups
	p.depth++
	sub, err := p.alt()
	if err != nil {
		return nil, err
	}
	p.depth--
	if !p.more() {
		return nil, ErrParen
	}
	if p.ere {
		p.i++
	} else {
		p.i += 2
	}
	p.closed = append(p.closed, num)
	return &node{kind: kGroup, n: num, subs: []*node{sub}}, nil
}

// escape parses a backslash sequence; it returns nil for "\)" handled by
// the caller's loop condition (never reached) or an error.
func (p *parser) escape() (*node, error) {
	if p.i+1 >= len(p.s) {
		return nil, ErrEscape
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
			return nil, ErrRParen
		}
	case '{':
		if !p.ere {
			return nil, ErrBadRepeat
		}
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n := int(c - '0')
		for _, g := range p.closed {
			if g == n {
				return &node{kind: kBackref, n: n}, nil
			}
		}
		return nil, ErrBackref
	case '<':
		return &node{kind: kWordStart}, nil
	case '>':
		return &node{kind: kWordEnd}, nil
	case 'b':
		return &node{kind: kWordB}, nil
	case 'B':
		return &node{kind: kNotWordB}, nil
	case '`':
		return &node{kind: kBufStart}, nil
	case '\'':
		return &node{kind: kBufEnd}, nil
	case 'w', 'W':
		return &node{kind: kClass, cls: &class{neg: c == 'W', named: []string{"alnum"}, ranges: []rune{'_', '_'}}}, nil
	case 's', 'S':
		return &node{kind: kClass, cls: &class{neg: c == 'S', named: []string{"space"}}}, nil
	}
	if p.sed {
		if r, n, ok := CharEscape(p.s[p.i-2:]); ok {
			p.i += n - 2
			return &node{kind: kLit, r: r}, nil
		}
	} else if c == 'n' {
		return &node{kind: kLit, r: '\n'}, nil
	} else if c == 't' {
		return &node{kind: kLit, r: '\t'}, nil
	}
	if c >= 0x80 {
		p.i -= 2
		p.i++
		r, size := utf8.DecodeRuneInString(p.s[p.i:])
		p.i += size
		return &node{kind: kLit, r: r}, nil
	}
	return &node{kind: kLit, r: rune(c)}, nil
}

var classNames = map[string]bool{
	"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true,
	"space": true, "blank": true, "punct": true, "print": true, "graph": true,
	"cntrl": true, "xdigit": true,
}

// bracket parses a bracket expression after its '['.
func (p *parser) bracket() (*node, error) {
	start := p.i - 1
	if !p.more() && !p.sed {
		return nil, ErrInvalid
	}
	cls := &class{}
	if p.more() && p.s[p.i] == '^' {
		cls.neg = true
		p.i++
	}
	first := true
	for {
		if !p.more() {
			return nil, ErrBrack
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
				return nil, ErrBrack
			}
			body := p.s[p.i+2 : p.i+2+end]
			p.i += 2 + end + 2
			if delim == ':' {
				if !classNames[body] {
					return nil, ErrCtype
				}
				cls.named = append(cls.named, body)
				continue
			}
			r, size := utf8.DecodeRuneInString(body)
			if size != len(body) || size == 0 {
				return nil, errors.New("Invalid collation character")
			}
			lo = r
		} else if r, n, ok := p.bracketEscape(p.s[p.i:]); ok {
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
			if r, n, ok := p.bracketEscape(p.s[p.i:]); ok {
				p.i += n
				hi = r
			} else if strings.HasPrefix(p.s[p.i:], "[.") && !p.sed {
				end := strings.Index(p.s[p.i+2:], ".]")
				if end < 0 {
					return nil, ErrBrack
				}
				hi, _ = utf8.DecodeRuneInString(p.s[p.i+2:])
				p.i += 2 + end + 2
			} else {
				r, size := utf8.DecodeRuneInString(p.s[p.i:])
				p.i += size
				hi = r
			}
			if hi < lo {
				return nil, ErrRange
			}
		}
		cls.ranges = append(cls.ranges, lo, hi)
	}
	// GNU grep rejects "[:space:]" used where "[[:space:]]" was meant.
	if body := p.s[start:p.i]; !p.sed && len(body) >= 4 && body[1] == ':' && strings.HasSuffix(body, ":]") {
		return nil, ErrClassSyntax
	}
	return &node{kind: kClass, cls: cls}, nil
}

// bracketEscape decodes, for sed, the escapes GNU sed converts before the
// regex library sees a bracket expression: \n, \t and friends; \\ stays
// two characters (a backslash in a bracket is literal).
func (p *parser) bracketEscape(s string) (rune, int, bool) {
	if !p.sed || len(s) < 2 || s[0] != '\\' || s[1] == '\\' || s[1] == ']' {
		return 0, 0, false
	}
	return CharEscape(s)
}

// CharEscape decodes sed's character escapes at the start of s (which
// begins with a backslash): \a \f \n \r \t \v, \cX, \dNNN, \oNNN, \xHH.
// It returns the character and the bytes used.
func CharEscape(s string) (rune, int, bool) {
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
		return unicode.ToUpper(rune(s[2])) ^ 0x40, 3, true
	case 'd', 'o', 'x':
		base, most := 10, 3
		if s[1] == 'o' {
			base = 8
		} else if s[1] == 'x' {
			base, most = 16, 2
		}
		n := 2
		for n < len(s) && n-2 < most && digitVal(s[n]) < base {
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
