package posixre

import (
	"unicode"
	"unicode/utf8"
)

// matcher runs a tree against one subject by backtracking. Each call of
// match tries n at position i and hands every end position it reaches to
// the continuation k, stopping as soon as k accepts one.
type matcher struct {
	in     []byte
	caps   []int // start, end of each group; -1 when unset
	icase  bool
	sed    bool // invalid bytes decode to invalidByte; word characters are Unicode's
	multi  bool // ^ and $ also match around newlines
	steps  int
	budget int
	failed bool // the budget ran out
}

func (m *matcher) decode(i int) (rune, int) {
	c := m.in[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	r, n := utf8.DecodeRune(m.in[i:])
	if m.sed && r == utf8.RuneError && n == 1 {
		return invalidByte(c), 1
	}
	return r, n
}

func (m *matcher) wordAt(i int) bool {
	if i < 0 || i >= len(m.in) {
		return false
	}
	if !m.sed {
		return isWordByte(m.in[i])
	}
	r, _ := m.decode(i)
	return isWordRune(r)
}

// wordBefore reports whether a word character ends just before i.
func (m *matcher) wordBefore(i int) bool {
	if !m.sed {
		return m.wordAt(i - 1)
	}
	if i <= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRune(m.in[:i])
	return isWordRune(r)
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func (m *matcher) match(n *node, i int, k func(int) bool) bool {
	if m.steps++; m.steps > m.budget {
		m.failed = true
	}
	if m.failed {
		return false
	}
	switch n.kind {
	case kEmpty:
		return k(i)
	case kLit:
		if i >= len(m.in) {
			return false
		}
		r, size := m.decode(i)
		if r == n.r || m.icase && foldEq(r, n.r) {
			return k(i + size)
		}
		return false
	case kAny:
		if i >= len(m.in) {
			return false
		}
		_, size := m.decode(i)
		return k(i + size)
	case kClass:
		if i >= len(m.in) {
			return false
		}
		r, size := m.decode(i)
		if n.cls.has(r, m.icase, m.sed) {
			return k(i + size)
		}
		return false
	case kBOL:
		return (i == 0 || m.multi && m.in[i-1] == '\n') && k(i)
	case kEOL:
		return (i == len(m.in) || m.multi && m.in[i] == '\n') && k(i)
	case kBufStart:
		return i == 0 && k(i)
	case kBufEnd:
		return i == len(m.in) && k(i)
	case kWordB:
		return m.wordBefore(i) != m.wordAt(i) && k(i)
	case kNotWordB:
		return m.wordBefore(i) == m.wordAt(i) && k(i)
	case kWordStart:
		return !m.wordBefore(i) && m.wordAt(i) && k(i)
	case kWordEnd:
		return m.wordBefore(i) && !m.wordAt(i) && k(i)
	case kGroup:
		g := 2 * n.n
		oldS, oldE := m.caps[g], m.caps[g+1]
		if m.match(n.subs[0], i, func(j int) bool {
			prevS, prevE := m.caps[g], m.caps[g+1]
			m.caps[g], m.caps[g+1] = i, j
			if k(j) {
				return true
			}
			m.caps[g], m.caps[g+1] = prevS, prevE
			return false
		}) {
			return true
		}
		m.caps[g], m.caps[g+1] = oldS, oldE
		return false
	case kConcat:
		return m.seq(n.subs, i, k)
	case kAlt:
		for _, s := range n.subs {
			if m.match(s, i, k) {
				return true
			}
		}
		return false
	case kRepeat:
		return m.repeat(n, 0, i, k)
	case kBackref:
		s, e := m.caps[2*n.n], m.caps[2*n.n+1]
		if s < 0 || e < 0 {
			return false
		}
		ref := m.in[s:e]
		if i+len(ref) > len(m.in) {
			return false
		}
		got := m.in[i : i+len(ref)]
		if string(got) == string(ref) || m.icase && equalFold(got, ref) {
			return k(i + len(ref))
		}
		return false
	}
	return false
}

func (m *matcher) seq(subs []*node, i int, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(i)
	}
	return m.match(subs[0], i, func(j int) bool { return m.seq(subs[1:], j, k) })
}

// repeat matches n.subs[0] greedily, count times done so far.
func (m *matcher) repeat(n *node, count, i int, k func(int) bool) bool {
	if n.max < 0 || count < n.max {
		if m.match(n.subs[0], i, func(j int) bool {
			if j == i && count >= n.min {
				return false // an empty iteration gains nothing
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

func equalFold(a, b []byte) bool {
	for len(a) > 0 && len(b) > 0 {
		ra, na := utf8.DecodeRune(a)
		rb, nb := utf8.DecodeRune(b)
		if ra != rb && !foldEq(ra, rb) {
			return false
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) == len(b)
}

// has reports whether r is in the class; uni selects Unicode's letters
// for the named classes (sed, as in glibc's UTF-8 locales).
func (c *class) has(r rune, icase, uni bool) bool {
	in := c.contains(r, uni)
	if !in && icase {
		for f := unicode.SimpleFold(r); f != r && !in; f = unicode.SimpleFold(f) {
			in = c.contains(f, uni)
		}
	}
	return in != c.neg
}

func (c *class) contains(r rune, uni bool) bool {
	for i := 0; i < len(c.ranges); i += 2 {
		if c.ranges[i] <= r && r <= c.ranges[i+1] {
			return true
		}
	}
	for _, name := range c.named {
		if uni && inNamedUnicode(name, r) || !uni && inNamed(name, r) {
			return true
		}
	}
	return false
}

// inNamedUnicode tests the POSIX classes with Unicode's letters, as
// glibc's UTF-8 locales do.
func inNamedUnicode(name string, r rune) bool {
	switch name {
	case "alpha":
		return unicode.IsLetter(r)
	case "alnum":
		return unicode.IsLetter(r) || unicode.Is(unicode.Nd, r)
	case "upper":
		return unicode.IsUpper(r)
	case "lower":
		return unicode.IsLower(r)
	case "print":
		return r >= ' ' && r != 0x7f && !unicode.Is(unicode.C, r)
	case "graph":
		return r > ' ' && r != 0x7f && !unicode.Is(unicode.C, r) && !unicode.IsSpace(r)
	}
	return inNamed(name, r)
}

// inNamed tests the POSIX classes in the C locale (ASCII only), as Go's
// regexp does.
func inNamed(name string, r rune) bool {
	if r >= utf8.RuneSelf {
		return false
	}
	c := byte(r)
	switch name {
	case "alpha":
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	case "digit":
		return c >= '0' && c <= '9'
	case "alnum":
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	case "upper":
		return c >= 'A' && c <= 'Z'
	case "lower":
		return c >= 'a' && c <= 'z'
	case "space":
		return c == ' ' || c >= '\t' && c <= '\r'
	case "blank":
		return c == ' ' || c == '\t'
	case "punct":
		return c > ' ' && c < 0x7f && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
	case "print":
		return c >= ' ' && c < 0x7f
	case "graph":
		return c > ' ' && c < 0x7f
	case "cntrl":
		return c < ' ' || c == 0x7f
	case "xdigit":
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	return false
}
