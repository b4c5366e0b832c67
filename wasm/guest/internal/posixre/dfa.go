package posixre

import (
	"bytes"
	"regexp/syntax"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/wc"
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
	// eolRestart: with eol set, the program cannot match at a line's end
	// ($), so a line end leads straight back to the start state and the
	// scan runs on across lines (see setEOL).
	eolRestart bool
	failed     bool

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
// matching loop does one load per byte. An entry is the next state's
// index shifted left by 8 (its row in the table: the loop ORs the next
// byte in), or, negative, that state's ^(row|1) when it has matched, or
// unbuilt (-1). The loop tests one sign per byte; both special cases
// leave it.
const unbuilt = -1

// encode is the table entry for a transition into state j.
func (d *dfa) encode(j int32) int32 {
	if d.states[j].match {
		return ^(j<<8 | 1)
	}
	return j << 8
}

// decode is the state a table entry other than unbuilt leads to.
func decode(t int32) int32 {
	if t < 0 {
		return ^t >> 8
	}
	return t >> 8
}

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

// setEOL makes d search lines ending in eol (firstLine, countLines).
func (d *dfa) setEOL(eol byte) {
	d.eol = int(eol)
	d.eolRestart = true
	for _, in := range d.prog.Inst {
		if in.Op == syntax.InstEmptyWidth && syntax.EmptyOp(in.Arg)&(syntax.EmptyEndText|syntax.EmptyEndLine) != 0 {
			d.eolRestart = false
		}
	}
}

// step builds the transition of state i on byte c.
func (d *dfa) step(i int32, c byte) int32 {
	if d.eolRestart && int(c) == d.eol {
		d.trans[int(i)<<8|int(c)] = d.encode(d.start[0])
		return d.start[0]
	}
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
		d.trans[int(i)<<8|int(c)] = d.encode(j)
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

// scan follows known transitions into unmatched states from the state
// whose row is row, along b, and returns the row reached and the bytes
// consumed: it stops before a byte whose transition is unbuilt or enters
// a state that has matched. Four bytes a step: under wasm the loop's
// overhead outweighs the lookups.
func scan(t []int32, row int32, b []byte) (int32, int) {
	// Rows are whole and bytes below 256, so every entry read is in t:
	// unchecked loads spare a branch, and under the sandbox's fuel
	// metering a basic block, per byte.
	tp := unsafe.Pointer(unsafe.SliceData(t))
	at := func(i int32) int32 { return *(*int32)(unsafe.Add(tp, uintptr(i)*4)) }
	n := 0
	for len(b) >= 8 {
		_ = b[7]
		j1 := at(row | int32(b[0]))
		if j1 < 0 {
			return row, n
		}
		j2 := at(j1 | int32(b[1]))
		if j2 < 0 {
			return j1, n + 1
		}
		j3 := at(j2 | int32(b[2]))
		if j3 < 0 {
			return j2, n + 2
		}
		j4 := at(j3 | int32(b[3]))
		if j4 < 0 {
			return j3, n + 3
		}
		j5 := at(j4 | int32(b[4]))
		if j5 < 0 {
			return j4, n + 4
		}
		j6 := at(j5 | int32(b[5]))
		if j6 < 0 {
			return j5, n + 5
		}
		j7 := at(j6 | int32(b[6]))
		if j7 < 0 {
			return j6, n + 6
		}
		j8 := at(j7 | int32(b[7]))
		if j8 < 0 {
			return j7, n + 7
		}
		row, n, b = j8, n+8, b[8:]
	}
	for _, c := range b {
		j := at(row | int32(c))
		if j < 0 {
			return row, n
		}
		row, n = j, n+1
	}
	return row, n
}

// next returns the table entry for state i on byte c, building it if
// need be, or unbuilt when the automaton has given up.
func (d *dfa) next(i int32, c byte) int32 {
	if t := d.trans[int(i)<<8|int(c)]; t != unbuilt {
		return t
	}
	j := d.step(i, c)
	if j < 0 {
		return unbuilt
	}
	return d.encode(j)
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
	pos := 0
	for {
		row, n := scan(d.trans, i<<8, b[pos:])
		i, pos = row>>8, pos+n
		if pos >= len(b) {
			break
		}
		t := d.next(i, b[pos])
		if t == unbuilt {
			return false, false
		}
		if t < 0 {
			return true, true
		}
		i = t >> 8
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
	pos := s
	for {
		dead := int32(-1)
		if d.dead >= 0 {
			dead = d.dead << 8
		}
		row, n, last := follow(d.trans, i<<8, dead, b[pos:])
		if last >= 0 {
			end = pos + last
		}
		i, pos = row>>8, pos+n
		if i == d.dead {
			return end, true
		}
		if pos >= len(b) {
			break
		}
		// An unbuilt transition.
		c := b[pos]
		if c >= utf8.RuneSelf && d.nonASCII {
			return 0, false
		}
		t := d.next(i, c)
		if t == unbuilt {
			return 0, false
		}
		if t < 0 {
			end = pos + 1
		}
		i = decode(t)
		pos++
	}
	if d.endMatch(i, len(b) == 0) {
		end = len(b)
	}
	return end, true
}

// follow follows known transitions from the state whose row is row along
// b, through matched states too, and returns the row reached, the bytes
// consumed and how many had been consumed when a matched state was last
// entered (-1: none was). It stops before a byte whose transition is
// unbuilt, or after entering the row dead (-1 if there is none yet). A
// function of its own, small and with one loop, never inlined: under wasm
// the loop then runs without the dispatch of a larger function's body.
//
//go:noinline
func follow(t []int32, row, dead int32, b []byte) (int32, int, int) {
	tp := unsafe.Pointer(unsafe.SliceData(t))
	last := -1
	for n, c := range b {
		x := *(*int32)(unsafe.Add(tp, uintptr(row|int32(c))*4))
		if x < 0 {
			if x == unbuilt {
				return row, n, last
			}
			x = ^x &^ 0xff
			last = n + 1
		}
		row = x
		if row == dead {
			return row, n + 1, last
		}
	}
	return row, len(b), last
}

// countLines counts the lines of b, each ending in eol (the last may
// lack it), that contain a match. d must have been made for it (d.eol
// set). ok is false, with nothing counted, when the automaton cannot
// tell.
func (d *dfa) countLines(b []byte, eol byte) (matched, lines int, ok bool) {
	if d.eolRestart && !d.failed && !d.states[d.start[0]].match {
		return d.countMatches(b, eol)
	}
	for len(b) > 0 {
		start, end, skipped, ok := d.firstLine(b, eol, true)
		if !ok {
			return 0, 0, false
		}
		lines += skipped
		if start < 0 {
			break
		}
		matched++
		lines++
		b = b[end:]
	}
	return matched, lines, true
}

// countMatches is countLines for an automaton whose line ends lead back
// to its start: it counts the lines once, and after each match goes on
// from the next line.
func (d *dfa) countMatches(b []byte, eol byte) (matched, lines int, ok bool) {
	lines = wc.CountByte(b, eol)
	if len(b) > 0 && b[len(b)-1] != eol {
		lines++
	}
	begin := d.start[0]
	i, pos := begin, 0
	for pos < len(b) {
		row, n := scan(d.trans, i<<8, b[pos:])
		i, pos = row>>8, pos+n
		if pos >= len(b) {
			break
		}
		t := d.next(i, b[pos])
		if t == unbuilt {
			return 0, 0, false
		}
		if t < 0 {
			matched++
			i, pos = begin, lineEnd(b, pos+1, eol)
			continue
		}
		i = t >> 8
		pos++
	}
	return matched, lines, true
}

// firstLine finds the first line of b (lines end in eol, the last may
// lack it) that contains a match, in one pass: the automaton runs across
// line ends (whose transitions stay unbuilt, so the scan stops there).
// It returns the line's start and end (past its eol) and how many lines
// come before it; start is -1 when no line matches. d must have been
// made for it (d.eol set); without count, skipped is 0. ok is false when
// the automaton cannot tell:
// with start -1 for all of b, else for the line [start, end), a line with
// a byte past ASCII that the program could match as part of a rune (the
// lines before it hold no match).
func (d *dfa) firstLine(b []byte, eol byte, count bool) (start, end, skipped int, ok bool) {
	if d.failed {
		return -1, -1, 0, false
	}
	begin := d.start[0]
	if d.states[begin].match { // the empty pattern: every line
		return 0, lineEnd(b, 0, eol), 0, true
	}
	if d.eolRestart {
		// No per-line work: line ends lead back to the start state, and
		// lines are counted only where a match stops the scan.
		i, pos := begin, 0
		for pos < len(b) {
			row, n := scan(d.trans, i<<8, b[pos:])
			i, pos = row>>8, pos+n
			if pos >= len(b) {
				break
			}
			c := b[pos]
			if c >= utf8.RuneSelf && d.nonASCII {
				ls := bytes.LastIndexByte(b[:pos], eol) + 1
				return ls, lineEnd(b, pos, eol), countIf(count, b[:ls], eol), false
			}
			t := d.next(i, c)
			if t == unbuilt {
				return -1, -1, 0, false
			}
			if t < 0 {
				ls := bytes.LastIndexByte(b[:pos], eol) + 1
				return ls, lineEnd(b, pos+1, eol), countIf(count, b[:ls], eol), true
			}
			i = t >> 8
			pos++
		}
		n := countIf(count, b, eol)
		if count && len(b) > 0 && b[len(b)-1] != eol {
			n++
		}
		return -1, -1, n, true
	}
	i, pos, lineStart := begin, 0, 0
	for pos < len(b) {
		row, n := scan(d.trans, i<<8, b[pos:])
		i, pos = row>>8, pos+n
		if pos >= len(b) {
			break
		}
		c := b[pos]
		if c == eol {
			if d.endMatch(i, pos == lineStart) {
				return lineStart, pos + 1, skipped, true
			}
			skipped++
			pos++
			i, lineStart = begin, pos
			continue
		}
		if c >= utf8.RuneSelf && d.nonASCII {
			return lineStart, lineEnd(b, pos, eol), skipped, false
		}
		t := d.next(i, c)
		if t == unbuilt {
			return -1, -1, 0, false
		}
		if t < 0 {
			return lineStart, lineEnd(b, pos+1, eol), skipped, true
		}
		i = t >> 8
		pos++
	}
	if lineStart < len(b) { // a last line without its end
		if d.endMatch(i, false) {
			return lineStart, len(b), skipped, true
		}
		skipped++
	}
	return -1, -1, skipped, true
}

// countIf returns the number of eol bytes in b if count is set, else 0.
func countIf(count bool, b []byte, eol byte) int {
	if !count {
		return 0
	}
	return wc.CountByte(b, eol)
}

// lineEnd returns the end of the line holding b[from-1]: past the next
// eol at or after from, or len(b).
func lineEnd(b []byte, from int, eol byte) int {
	if k := wc.IndexByte(b[from:], eol); k >= 0 {
		return from + k + 1
	}
	return len(b)
}
