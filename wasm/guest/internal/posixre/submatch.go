package posixre

import (
	"bytes"
	"regexp"
	"unicode/utf8"
	"unsafe"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/wc"
)

// The searches for one pattern with its groups, as sed's s command and
// expr's ":" need them. caps holds two offsets per group, group 0 (the
// whole match) first, -1 for a group that took no part. Anchors and word
// boundaries see all of the subject, whatever the offset a search starts
// from.

// NumSubexp returns the number of parenthesized groups of the (first)
// pattern.
func (r *Regexp) NumSubexp() int { return r.ngrp[0] }

// Literal returns the string the pattern matches if it is a plain string
// (no operators, no flag that changes it), else nil.
func (r *Regexp) Literal() []byte { return r.lit }

// FindSubmatch finds the leftmost-longest match in b and fills caps,
// which must have room for 2*(NumSubexp()+1) offsets.
func (r *Regexp) FindSubmatch(b []byte, caps []int) (bool, error) {
	if r.need != nil && r.lit == nil && !bytes.Contains(b, r.need) {
		return false, nil
	}
	if r.lit == nil && r.goFirst(b) {
		loc := r.re.FindSubmatchIndex(b)
		if loc == nil {
			return false, nil
		}
		copy(caps, loc)
		return true, nil
	}
	return r.findAt(b, 0, caps, len(caps), false)
}

// ForEachSubmatch hands fn the offsets of each successive match in b (as
// regexp's FindAllSubmatchIndex does: an empty match abutting the
// previous match is skipped) until fn declines more. fn gets a reused
// slice; ncap <= 2 asks only for the whole match.
func (r *Regexp) ForEachSubmatch(b []byte, ncap int, fn func(caps []int) bool) error {
	if r.need != nil && r.lit == nil && !bytes.Contains(b, r.need) {
		return nil
	}
	return r.forEach(b, ncap, fn, false)
}

// ForEachSubmatchOfLine is ForEachSubmatch for a line that FirstLine
// found to hold a match: it skips the checks that would find none.
func (r *Regexp) ForEachSubmatchOfLine(b []byte, ncap int, fn func(caps []int) bool) error {
	return r.forEach(b, ncap, fn, true)
}

// forEach is ForEachSubmatch; known says b holds a match.
func (r *Regexp) forEach(b []byte, ncap int, fn func(caps []int) bool, known bool) error {
	if r.lit == nil && r.goFirst(b) {
		if ncap <= 2 {
			for _, loc := range r.re.FindAllIndex(b, -1) {
				if !fn(loc) {
					return nil
				}
			}
			return nil
		}
		for _, loc := range r.re.FindAllSubmatchIndex(b, -1) {
			if !fn(loc) {
				return nil
			}
		}
		return nil
	}
	n := 2 * (r.ngrp[0] + 1)
	if len(r.caps) != n {
		r.caps = make([]int, n)
	}
	caps := r.caps
	pos, prevEnd := 0, -1
	for pos <= len(b) {
		ok, err := r.findAt(b, pos, caps, ncap, known)
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
		if !fn(caps) {
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
		if r.opts.Anchored {
			return nil
		}
	}
	return nil
}

// goFirst reports whether Go's regexp should search b rather than the
// automata: they are not there, have given up, or would decline b.
func (r *Regexp) goFirst(b []byte) bool {
	return r.re != nil && (r.dfa == nil || r.dfa.failed || r.dfa.nonASCII && !wc.IsASCII(b))
}

// findAt finds the leftmost-longest match starting at or after from and
// fills caps: a plain string by bytes.Index; else the automata locate the
// match and Go's regexp, run on the match alone, finds its groups (only
// the whole match's when ncap <= 2); what they cannot do runs on the
// backtracking matcher. known says b holds a match.
func (r *Regexp) findAt(b []byte, from int, caps []int, ncap int, known bool) (bool, error) {
	if r.lit != nil {
		i := bytes.Index(b[from:], r.lit)
		if i < 0 {
			return false, nil
		}
		caps[0], caps[1] = from+i, from+i+len(r.lit)
		return true, nil
	}
	if r.dfa != nil && !r.dfa.failed {
		if from == 0 && !r.opts.Anchored && !known {
			if m, ok := r.dfa.match(b); ok && !m {
				return false, nil
			}
		}
		if s, e, ok := r.locate(b, from); ok {
			if s < 0 {
				return false, nil
			}
			if ncap <= 2 {
				caps[0], caps[1] = s, e
				return true, nil
			}
			if r.groups(b, s, e, caps) {
				return true, nil
			}
		}
	}
	return r.backtrackCaps(b, from, caps)
}

// locate finds the leftmost-longest match at or after from with the
// anchored automaton, tried at each start in turn (most die within a
// byte or two); s is -1 when there is none, ok false when the automaton
// cannot tell.
func (r *Regexp) locate(b []byte, from int) (s, e int, ok bool) {
	if r.adfa == nil {
		if r.adfa = newDFA(r.expr, true); r.adfa == nil {
			r.dfa.failed = true // the unanchored one is of no use alone here
			return 0, 0, false
		}
	}
	last := len(b)
	if r.opts.Anchored {
		last = 0
	}
	d := r.adfa
	for s := from; s <= last; {
		if !d.failed && !d.states[d.start[0]].match && !d.states[d.start[1]].match {
			dead := int32(-1)
			if d.dead >= 0 {
				dead = d.dead << 8
			}
			var e int
			var done bool
			if s, e, done = leftmost(d.trans, d.start[0]<<8, d.start[1]<<8, dead, b, s, last); done {
				if e < 0 {
					return -1, -1, true
				}
				return s, e, true
			}
		}
		// The start s needs the automaton built further, or the end of
		// the text tested.
		e, ok := d.longest(b, s)
		if !ok {
			return 0, 0, false
		}
		if e >= 0 {
			return s, e, true
		}
		if s < len(b) && b[s] >= utf8.RuneSelf {
			_, n := utf8.DecodeRune(b[s:])
			s += n
		} else {
			s++
		}
	}
	return -1, -1, true
}

// leftmost tries the starts from s to last in turn along known
// transitions of an anchored automaton whose start states, first at the
// text's beginning and mid after it, have not matched; dead is the dead
// state's row (or -1). It returns the first start with a match and the
// match's end (-1: no start up to last has one), done; or, not done, a
// start whose run meets an unbuilt transition or the end of b, for the
// caller to try with longest. One small function for all the starts:
// under wasm a call per start costs more than the byte or two most take.
//
//go:noinline
func leftmost(t []int32, first, mid, dead int32, b []byte, s, last int) (start, end int, done bool) {
	tp := unsafe.Pointer(unsafe.SliceData(t))
	for ; s <= last; s++ {
		row := mid
		if s == 0 {
			row = first
		}
		end, pos := -1, s
		for ; pos < len(b); pos++ {
			x := *(*int32)(unsafe.Add(tp, uintptr(row|int32(b[pos]))*4))
			if x < 0 {
				if x == unbuilt {
					return s, 0, false
				}
				x = ^x &^ 0xff
				end = pos + 1
			}
			row = x
			if row == dead {
				break
			}
		}
		if pos == len(b) {
			return s, 0, false // alive at the end: a $ may match there
		}
		if end >= 0 {
			return s, end, true
		}
	}
	return s, -1, true
}

// groups fills caps for the match [s, e): the splitter where the pattern
// has its shape, else Go's regexp, anchored at both ends, on the match
// alone, which is exact when the pattern has no anchor or word boundary
// to look past it. It reports false when neither can be used.
func (r *Regexp) groups(b []byte, s, e int, caps []int) bool {
	if r.ngrp[0] == 0 {
		caps[0], caps[1] = s, e
		return true
	}
	if !r.splitTried {
		r.splitTried = true
		r.split = newSplitter(r.trees[0], r.ngrp[0], r.opts.IgnoreCase, r.opts.Sed)
	}
	if r.split != nil && r.split.groups(b, s, e, caps) {
		return true
	}
	if r.capRe == nil {
		if hasAssertion(r.trees[0]) {
			return false
		}
		re, err := regexp.Compile(`\A(?:` + r.expr + `)\z`)
		if err != nil {
			return false
		}
		re.Longest()
		r.capRe = re
	}
	loc := r.capRe.FindSubmatchIndex(b[s:e])
	if loc == nil {
		return false
	}
	for i, x := range loc {
		if x >= 0 {
			x += s
		}
		caps[i] = x
	}
	return true
}

func hasAssertion(t *node) bool {
	if isAssertion(t.kind) {
		return true
	}
	for _, s := range t.subs {
		if hasAssertion(s) {
			return true
		}
	}
	return false
}

// backtrackCaps runs the backtracking matcher from each start >= from
// and fills caps from the leftmost-longest match.
func (r *Regexp) backtrackCaps(b []byte, from int, caps []int) (bool, error) {
	n := 2 * (r.ngrp[0] + 1)
	m := &r.bt
	if len(m.caps) != n {
		m.caps = make([]int, n)
	}
	*m = matcher{in: b, icase: r.opts.IgnoreCase, sed: r.opts.Sed, multi: r.opts.Multiline, budget: r.opts.Budget, caps: m.caps}
	defer func() { m.in = nil }()
	best := caps[:n]
	last := len(b)
	if r.opts.Anchored {
		last = 0
	}
	for s := from; s <= last; s++ {
		found := -1
		for j := range m.caps {
			m.caps[j] = -1
		}
		m.match(r.trees[0], s, func(e int) bool {
			if e > found {
				found = e
				copy(best, m.caps)
			}
			return false // keep looking for a longer match
		})
		if m.failed {
			return false, ErrTooComplex
		}
		if found >= 0 {
			best[0], best[1] = s, found
			return true, nil
		}
		if s < len(b) && b[s] >= utf8.RuneSelf {
			_, size := utf8.DecodeRune(b[s:])
			s += size - 1
		}
	}
	return false, nil
}
