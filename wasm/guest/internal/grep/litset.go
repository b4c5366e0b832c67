package grep

import (
	"bytes"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
)

// A litSet finds the first occurrence of any of several fixed strings in
// one pass over the text. Each string is given an anchor, its byte that
// is rarest in the text searched (counted over a sample of it on first
// use); the search looks for each of the few distinct anchor bytes with
// bytes.IndexByte (hand-written for wasm too), and checks the strings
// anchored at each byte it stops on. Under fold, ASCII letters match either case.
type litSet struct {
	lits  [][]byte // under fold, lower case
	fold  bool
	exact bool // a line holding one of lits matches; else the regexp decides

	ready   bool
	needles [maxNeedles]byte // the distinct anchor bytes
	nneed   int
	at      [256][]anchor // the strings anchored at each byte value
}

// anchor is one string anchored at byte off of it.
type anchor struct {
	lit []byte
	off int
}

// maxNeedles bounds the distinct anchor bytes: each is a pass over the
// text, and past a handful the automaton's one lookup a byte is as fast.
const maxNeedles = 4

// newLitSet returns the set that prefilters lines for patterns under
// opts, or nil if some pattern has no literal every match must contain
// or there are too many patterns for the set's few anchors.
// The set is exact when holding one of its strings is the whole test.
func newLitSet(patterns []string, opts posixre.Options, eol byte) *litSet {
	if len(patterns) == 0 || len(patterns) > maxNeedles || opts.IgnoreCase && 2*len(patterns) > maxNeedles {
		return nil
	}
	s := &litSet{fold: opts.IgnoreCase, exact: true}
	plain := opts
	plain.IgnoreCase = false
	for _, p := range patterns {
		lit, exact := requiredLiteral([]string{p}, plain)
		if lit == "" || strings.IndexByte(lit, eol) >= 0 {
			return nil
		}
		if s.fold {
			if !foldsInASCII(lit) {
				return nil
			}
			lit = strings.ToLower(lit)
		}
		s.exact = s.exact && exact
		s.lits = append(s.lits, []byte(lit))
	}
	return s
}

// foldsInASCII reports whether s is ASCII with no letter whose case
// folding reaches beyond ASCII (k to U+212A KELVIN SIGN, s to U+017F
// LONG S), so comparing ASCII cases is all of -i for it.
func foldsInASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] | 0x20 {
		case 'k', 's':
			return false
		}
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// prepare chooses the anchors from the byte counts of sample; there are
// few enough strings (newLitSet) for their anchors to fit maxNeedles.
func (s *litSet) prepare(sample []byte) {
	s.ready = true
	var freq [256]int
	if len(sample) > 64<<10 {
		sample = sample[:64<<10]
	}
	for _, c := range sample {
		freq[c]++
	}
	if s.fold {
		for c := 'a'; c <= 'z'; c++ {
			freq[c] += freq[c-0x20]
			freq[c-0x20] = freq[c]
		}
	}
	var chosen [256]bool
	var needles []byte
	for _, lit := range s.lits {
		best := 0
		for i := 1; i < len(lit); i++ {
			if freq[lit[i]] < freq[lit[best]] || freq[lit[i]] == freq[lit[best]] && chosen[lit[i]] {
				best = i
			}
		}
		c := lit[best]
		s.at[c] = append(s.at[c], anchor{lit: lit, off: best})
		for _, n := range s.variants(c) {
			if !chosen[n] {
				chosen[n] = true
				needles = append(needles, n)
			}
		}
	}
	if s.fold {
		// Anchors are lower case: upper case finds the same strings.
		for c := 'a'; c <= 'z'; c++ {
			s.at[c-0x20] = s.at[c]
		}
	}
	s.nneed = copy(s.needles[:], needles)
}

// variants returns the bytes that match c: both cases of a letter under
// fold.
func (s *litSet) variants(c byte) []byte {
	if s.fold && c >= 'a' && c <= 'z' {
		return []byte{c, c - 0x20}
	}
	return []byte{c}
}

// index returns the start of the occurrence of one of the strings whose
// anchor comes first in b, or -1.
func (s *litSet) index(b []byte) int {
	sc := s.scan(b)
	return sc.index(0)
}

// scan starts a search of b, which may go on through successive calls
// of index.
func (s *litSet) scan(b []byte) litScan {
	if !s.ready {
		s.prepare(b)
	}
	sc := litScan{set: s, b: b}
	for j := range s.nneed {
		sc.next[j] = -1
	}
	return sc
}

// A litScan searches one buffer, remembering where each anchor byte next
// occurs so that no byte is looked at twice for one anchor.
type litScan struct {
	set  *litSet
	b    []byte
	next [maxNeedles]int // where needle j next occurs: len(b) if nowhere, -1 if not yet sought
}

// index returns the start of the occurrence at or after from whose anchor
// comes first, or -1. Occurrences do not span lines, so from a line's
// start its line is the first line holding one. Successive calls must not
// go back.
func (sc *litScan) index(from int) int {
	s, b := sc.set, sc.b
	for at := from; ; {
		// The nearest anchor byte at or after at, p, and the next
		// nearest of another needle, q.
		p, q, pj := len(b), len(b), -1
		for j := range s.nneed {
			if sc.next[j] < at {
				sc.next[j] = len(b)
				if k := bytes.IndexByte(b[at:], s.needles[j]); k >= 0 {
					sc.next[j] = at + k
				}
			}
			switch n := sc.next[j]; {
			case n < p:
				p, q, pj = n, p, j
			case n < q:
				q = n
			}
		}
		if pj < 0 {
			return -1
		}
		// Try each occurrence of this needle up to q: one call a stop.
		c := s.needles[pj]
		for {
			if st := s.verify(b, p, from); st >= 0 {
				sc.next[pj] = p
				return st
			}
			k := bytes.IndexByte(b[p+1:q], c)
			if k < 0 {
				sc.next[pj] = -1 // not before q: sought again from there
				at = q
				break
			}
			p += 1 + k
		}
	}
}

// verify returns the start of a string anchored at b[p] that b holds
// there, starting at or after from, or -1.
func (s *litSet) verify(b []byte, p, from int) int {
	for _, a := range s.at[b[p]] {
		st := p - a.off
		end := st + len(a.lit)
		if st < from || end > len(b) {
			continue
		}
		if s.fold {
			if s.equalFold(b[st:end], a.lit) {
				return st
			}
		} else if equalShort(b[st:end], a.lit) {
			return st
		}
	}
	return -1
}

// equalShort is string(text) == string(lit) for short strings, without
// the call that costs more than the comparison under wasm.
func equalShort(text, lit []byte) bool {
	if len(lit) > 16 {
		return string(text) == string(lit)
	}
	for i, c := range lit {
		if text[i] != c {
			return false
		}
	}
	return true
}

// equalFold reports whether text holds lit, lower case, ASCII case
// aside.
func (s *litSet) equalFold(text, lit []byte) bool {
	for i, c := range text {
		if c >= 'A' && c <= 'Z' {
			c += 0x20
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}
