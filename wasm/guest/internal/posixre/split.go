package posixre

// A splitter finds the groups of a located ASCII match without a regexp
// engine, for the common shape of sed's s/// patterns: a sequence of
// characters, classes and their repeats, some of them groups, such as
// ([0-9]+)-([0-9]+) or ([^,]*),(.*)$. Where every repeat of varying
// length is followed by something that cannot continue it, the match has
// a single parse, and one greedy pass over it finds that parse, which is
// what any matcher reports. Assertions match no text and are skipped:
// they choose among parses, and there is only one.
type splitter struct {
	parts []splitPart
	ngrp  int
}

// splitPart is one character, class or repeat of either, in a group or
// not.
type splitPart struct {
	set      *[256]bool // the ASCII bytes it matches (none past ASCII)
	min, max int        // how many times (max < 0: no limit)
	open     int        // the group that opens before it, or 0
	close    int        // the group that closes after it, or 0
}

// newSplitter returns the splitter of t, or nil if t is not of its shape.
func newSplitter(t *node, ngrp int, icase, uni bool) *splitter {
	sp := &splitter{ngrp: ngrp}
	subs := []*node{t}
	if t.kind == kConcat {
		subs = t.subs
	}
	for _, n := range subs {
		if !sp.add(n, icase, uni) {
			return nil
		}
	}
	// Every repeat of varying length must stop where the next part,
	// which must be there, begins.
	for i, p := range sp.parts {
		if p.min == p.max {
			continue
		}
		if i+1 == len(sp.parts) {
			continue // the last part runs to the match's end
		}
		next := sp.parts[i+1]
		if next.min == 0 {
			return nil
		}
		for c := range next.set {
			if next.set[c] && p.set[c] {
				return nil
			}
		}
	}
	if len(sp.parts) == 0 {
		return nil
	}
	return sp
}

// add appends the parts of n, a top-level item of the pattern, and
// reports whether n has the splitter's shape.
func (sp *splitter) add(n *node, icase, uni bool) bool {
	switch n.kind {
	case kBOL, kEOL, kWordB, kNotWordB, kWordStart, kWordEnd, kBufStart, kBufEnd:
		return true
	case kGroup:
		first := len(sp.parts)
		subs := []*node{n.subs[0]}
		if n.subs[0].kind == kConcat {
			subs = n.subs[0].subs
		}
		for _, s := range subs {
			if s.kind == kGroup || !sp.add(s, icase, uni) {
				return false
			}
		}
		if len(sp.parts) == first {
			return false // an empty group: nothing to hang it on
		}
		sp.parts[first].open = n.n // groups do not nest here: one each
		sp.parts[len(sp.parts)-1].close = n.n
		return true
	case kRepeat:
		set := byteSet(n.subs[0], icase, uni)
		if set == nil {
			return false
		}
		sp.parts = append(sp.parts, splitPart{set: set, min: n.min, max: n.max})
		return true
	}
	set := byteSet(n, icase, uni)
	if set == nil {
		return false
	}
	sp.parts = append(sp.parts, splitPart{set: set, min: 1, max: 1})
	return true
}

// byteSet returns the ASCII bytes that the one-character node n matches,
// as the backtracking matcher decides, or nil if n is not one character.
func byteSet(n *node, icase, uni bool) *[256]bool {
	var set [256]bool
	switch n.kind {
	case kLit:
		if isInvalidByte(n.r) {
			return nil
		}
		for c := range set {
			set[c] = rune(c) == n.r || icase && foldEq(rune(c), n.r)
		}
	case kAny:
		for c := range set {
			set[c] = true
		}
	case kClass:
		for c := range set {
			set[c] = n.cls.has(rune(c), icase, uni)
		}
	default:
		return nil
	}
	return &set
}

// groups fills caps for the match b[s:e], and reports false, with caps
// unspecified, when the pass does not end at e: the text is not ASCII, or
// a repeat reached its bound where the pattern did not expect it.
func (sp *splitter) groups(b []byte, s, e int, caps []int) bool {
	m := b[s:e] // a byte past ASCII stops every part: the pass fails
	pos := 0
	for i := range sp.parts {
		p := &sp.parts[i]
		if p.open > 0 {
			caps[2*p.open] = s + pos
		}
		n := 0
		if p.max == 1 {
			if pos < len(m) && p.set[m[pos]] {
				n = 1
			}
		} else {
			n = span(p.set, m[pos:], p.max)
		}
		if n < p.min {
			return false
		}
		pos += n
		if p.close > 0 {
			caps[2*p.close+1] = s + pos
		}
	}
	if pos != len(m) {
		return false
	}
	caps[0], caps[1] = s, e
	return true
}

// span returns how many bytes at the start of m are in set, at most max
// (max < 0: no limit). A loop of its own, never inlined: under wasm it
// then runs without the dispatch of the caller's larger body.
//
//go:noinline
func span(set *[256]bool, m []byte, max int) int {
	if max >= 0 && max < len(m) {
		m = m[:max]
	}
	for i, c := range m {
		if !set[c] {
			return i
		}
	}
	return len(m)
}
