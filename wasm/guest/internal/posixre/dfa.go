package posixre

import (
	"bytes"
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// A dfa answers Match for a translated expression a byte at a time, with
// no allocation once its states are built: a lazily built deterministic
// automaton over the instructions of the expression's compiled program,
// as GNU grep's dfa.c is for the common case. It declines (ok false)
// what it cannot decide: a line with a non-ASCII byte when the program
// can match a non-ASCII rune (the program steps by runes, the automaton
// by bytes), and every line once it has built maxStates states. Programs
// with word-boundary assertions are not given one.
type dfa struct {
	prog     *syntax.Prog
	nonASCII bool // some instruction can match a rune ≥ utf8.RuneSelf
	states   []*dstate
	trans    []int32
	index    map[string]int32
	start    [2]int32 // the start state at the beginning of the text, and later
	restart  []uint32 // the closure of the start mid-text, added at every byte
	anchored bool     // no restart: matches begin where the run begins
	dead     int32    // the state with no threads left, once built (else -1)
	eol      int      // a byte whose transitions stay unbuilt (countLines's line end), or -1
	failed   bool

	// scratch for building states
	set  []uint32
	kept []uint32
	seen []bool
	key  []byte
}

// dstate is one state of the automaton: the program's threads, as the
// sorted list of instructions that consume a rune, match, or wait for an
// empty-width condition.
type dstate struct {
	pcs      []uint32
	match    bool // some thread has matched
	endMatch int8 // matches at the end of the text: 0 unknown, 1 yes, -1 no
}

// The transitions of all states, 256 per state in one table so the
// matching loop does one load per byte: the next state's index, with
// matchFlag set when that state has matched, or -1 when not built yet.
const matchFlag = 1 << 30

// maxStates caps the automaton's size (each state holds 1 KiB of
// transitions); past it, the caller's matcher takes over.
const maxStates = 4096

// newDFA returns an automaton for the expression expr (as compiled by
// regexp.Compile), or nil if its program needs what the automaton lacks.
// An anchored automaton matches only from where its run starts.
func newDFA(expr string, anchored bool) *dfa {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil
	}
	d := &dfa{prog: prog, index: make(map[string]int32), seen: make([]bool, len(prog.Inst)), anchored: anchored, dead: -1, eol: -1}
	for _, in := range prog.Inst {
		switch in.Op {
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&(syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0 {
				return nil
			}
		case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			d.nonASCII = true
		case syntax.InstRune, syntax.InstRune1:
			if in.Arg&uint32(syntax.FoldCase) != 0 {
				d.nonASCII = true // 'k' folds to U+212A KELVIN SIGN
			}
			for _, r := range in.Rune {
				if r >= utf8.RuneSelf {
					d.nonASCII = true
				}
			}
		}
	}
	mid := slices.Clone(d.closure(nil, []uint32{uint32(prog.Start)}, 0))
	if !anchored {
		d.restart = mid
	}
	d.start[0] = d.state(d.closure(nil, []uint32{uint32(prog.Start)}, syntax.EmptyBeginText|syntax.EmptyBeginLine))
	d.start[1] = d.state(mid)
	return d
}

// closure adds to set the threads reachable from pcs without consuming
// input, where the empty-width conditions flags hold.
func (d *dfa) closure(set []uint32, pcs []uint32, flags syntax.EmptyOp) []uint32 {
	for _, pc := range pcs {
		set = d.add(set, pc, flags)
	}
	for _, pc := range set {
		d.seen[pc] = false
	}
	return set
}

func (d *dfa) add(set []uint32, pc uint32, flags syntax.EmptyOp) []uint32 {
	for {
		if d.seen[pc] {
			return set
		}
		d.seen[pc] = true
		in := &d.prog.Inst[pc]
		switch in.Op {
		case syntax.InstFail:
			return set
		case syntax.InstAlt, syntax.InstAltMatch:
			set = append(set, pc) // marked seen; dropped from the state below
			set = d.add(set, in.Out, flags)
			pc = in.Arg
		case syntax.InstCapture, syntax.InstNop:
			set = append(set, pc) // marked seen; dropped from the state below
			pc = in.Out
		case syntax.InstEmptyWidth:
			set = append(set, pc)
			if syntax.EmptyOp(in.Arg)&^flags != 0 {
				return set
			}
			pc = in.Out
		default: // runes and match
			return append(set, pc)
		}
	}
}

// state returns the index of the state of the threads set, building it if
// it is new, or -1 once there are too many states.
func (d *dfa) state(set []uint32) int32 {
	// Keep what can act later: runes, match, and unmet conditions.
	kept := d.kept[:0]
	for _, pc := range set {
		switch d.prog.Inst[pc].Op {
		case syntax.InstCapture, syntax.InstNop, syntax.InstAlt, syntax.InstAltMatch:
			continue
		}
		kept = append(kept, pc)
	}
	slices.Sort(kept)
	kept = slices.Compact(kept)
	d.kept = kept
	d.key = d.key[:0]
	for _, pc := range kept {
		d.key = append(d.key, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	if i, ok := d.index[string(d.key)]; ok {
		return i
	}
	if len(d.states) >= maxStates {
		d.failed = true
		return -1
	}
	s := &dstate{pcs: slices.Clone(kept)}
	for range 256 {
		d.trans = append(d.trans, -1)
	}
	for _, pc := range kept {
		if d.prog.Inst[pc].Op == syntax.InstMatch {
			s.match = true
		}
	}
	d.states = append(d.states, s)
	i := int32(len(d.states) - 1)
	d.index[string(d.key)] = i
	if len(kept) == 0 {
		d.dead = i
	}
	return i
}

// step builds the transition of state i on byte c.
func (d *dfa) step(i int32, c byte) int32 {
	s := d.states[i]
	d.set = d.set[:0]
	if c < utf8.RuneSelf {
		for _, pc := range s.pcs {
			in := &d.prog.Inst[pc]
			switch in.Op {
			case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				if in.MatchRune(rune(c)) {
					d.set = d.add(d.set, in.Out, 0)
				}
			}
		}
	}
	for _, pc := range d.restart {
		d.set = d.add(d.set, pc, 0)
	}
	for _, pc := range d.set {
		d.seen[pc] = false
	}
	j := d.state(d.set)
	if j >= 0 && int(c) != d.eol {
		t := j
		if d.states[j].match {
			t |= matchFlag
		}
		d.trans[int(i)<<8|int(c)] = t
	}
	return j
}

// endMatch reports whether state i matches at the end of the text; atStart
// says the text is empty.
func (d *dfa) endMatch(i int32, atStart bool) bool {
	s := d.states[i]
	if s.endMatch != 0 && !atStart {
		return s.endMatch > 0
	}
	flags := syntax.EmptyEndText | syntax.EmptyEndLine
	if atStart {
		flags |= syntax.EmptyBeginText | syntax.EmptyBeginLine
	}
	set := d.closure(nil, s.pcs, flags)
	m := false
	for _, pc := range set {
		if d.prog.Inst[pc].Op == syntax.InstMatch {
			m = true
		}
	}
	if !atStart {
		s.endMatch = -1
		if m {
			s.endMatch = 1
		}
	}
	return m
}

// match reports whether b contains a match; ok is false when the automaton
// cannot tell.
func (d *dfa) match(b []byte) (matched, ok bool) {
	if d.failed {
		return false, false
	}
	if d.nonASCII {
		for _, c := range b {
			if c >= utf8.RuneSelf {
				return false, false
			}
		}
	}
	i := d.start[0]
	if d.states[i].match {
		return true, true
	}
	t := d.trans
	pos := 0
	for pos < len(b) {
		// Four known, unmatched transitions a step (an unbuilt one, -1,
		// has matchFlag set too): under wasm the loop's overhead
		// outweighs the lookups.
		for pos+4 <= len(b) {
			j1 := t[int(i)<<8|int(b[pos])]
			if j1&matchFlag != 0 {
				break
			}
			j2 := t[int(j1)<<8|int(b[pos+1])]
			if j2&matchFlag != 0 {
				i, pos = j1, pos+1
				break
			}
			j3 := t[int(j2)<<8|int(b[pos+2])]
			if j3&matchFlag != 0 {
				i, pos = j2, pos+2
				break
			}
			j4 := t[int(j3)<<8|int(b[pos+3])]
			if j4&matchFlag != 0 {
				i, pos = j3, pos+3
				break
			}
			i, pos = j4, pos+4
		}
		if pos >= len(b) {
			break
		}
		c := b[pos]
		j := t[int(i)<<8|int(c)]
		if j < 0 {
			if j = d.step(i, c); j < 0 {
				return false, false
			}
			t = d.trans
			if d.states[j].match {
				return true, true
			}
		}
		if j&matchFlag != 0 {
			return true, true
		}
		i = j
		pos++
	}
	return d.endMatch(i, len(b) == 0), true
}

// longest returns the end of the longest match that starts at s in b, or
// -1 if none does, for an anchored automaton; ok is false when the
// automaton cannot tell.
func (d *dfa) longest(b []byte, s int) (end int, ok bool) {
	if d.failed {
		return 0, false
	}
	i := d.start[1]
	if s == 0 {
		i = d.start[0]
	}
	end = -1
	if d.states[i].match {
		end = s
	}
	t := d.trans
	for pos := s; pos < len(b); pos++ {
		if i == d.dead {
			return end, true
		}
		c := b[pos]
		if c >= utf8.RuneSelf && d.nonASCII {
			return 0, false
		}
		j := t[int(i)<<8|int(c)]
		if j < 0 {
			if j = d.step(i, c); j < 0 {
				return 0, false
			}
			t = d.trans
			if d.states[j].match {
				j |= matchFlag
			}
		}
		if j&matchFlag != 0 {
			end = pos + 1
		}
		i = j &^ matchFlag
	}
	if i != d.dead && d.endMatch(i, len(b) == 0) {
		end = len(b)
	}
	return end, true
}

// countLines counts the lines of b, each ending in eol (the last may
// lack it), that contain a match, in one pass over the buffer: the
// automaton runs across line ends (whose transitions stay unbuilt, so the
// fast loop stops at them), and a line that has matched is skipped to its
// end. d must have been made for it (d.eol set). ok is false, with
// nothing counted, when the automaton cannot tell.
func (d *dfa) countLines(b []byte, eol byte) (matched, lines int, ok bool) {
	if d.failed {
		return 0, 0, false
	}
	start := d.start[0]
	if d.states[start].match { // the empty pattern: every line
		n := bytes.Count(b, []byte{eol})
		if len(b) > 0 && b[len(b)-1] != eol {
			n++
		}
		return n, n, true
	}
	t := d.trans
	i, pos, lineStart := start, 0, 0
	for pos < len(b) {
		for pos+4 <= len(b) {
			j1 := t[int(i)<<8|int(b[pos])]
			if j1&matchFlag != 0 {
				break
			}
			j2 := t[int(j1)<<8|int(b[pos+1])]
			if j2&matchFlag != 0 {
				i, pos = j1, pos+1
				break
			}
			j3 := t[int(j2)<<8|int(b[pos+2])]
			if j3&matchFlag != 0 {
				i, pos = j2, pos+2
				break
			}
			j4 := t[int(j3)<<8|int(b[pos+3])]
			if j4&matchFlag != 0 {
				i, pos = j3, pos+3
				break
			}
			i, pos = j4, pos+4
		}
		if pos >= len(b) {
			break
		}
		c := b[pos]
		if c == eol {
			if d.endMatch(i, pos == lineStart) {
				matched++
			}
			lines++
			pos++
			i, lineStart = start, pos
			continue
		}
		j := t[int(i)<<8|int(c)]
		if j < 0 {
			if j = d.step(i, c); j < 0 {
				return 0, 0, false
			}
			t = d.trans
			if d.states[j].match {
				j |= matchFlag
			}
		}
		if j&matchFlag != 0 {
			matched++
			lines++
			k := bytes.IndexByte(b[pos+1:], eol)
			if k < 0 {
				return matched, lines, true
			}
			pos += 1 + k + 1
			i, lineStart = start, pos
			continue
		}
		i = j
		pos++
	}
	if lineStart < len(b) { // a last line without its end
		if d.endMatch(i, false) {
			matched++
		}
		lines++
	}
	return matched, lines, true
}
