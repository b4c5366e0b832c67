package shell

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file implements bash's pattern matching (lib/glob/sm_loop.c in bash
// 5.2) as used by [[ == ]], case, ${x#p} and friends, and pathname
// expansion.
//
// Bash matches with a backtracking interpreter. Its observable behaviour
// includes a number of quirks that follow from the order in which that
// interpreter tries alternatives (for example "*" never hands the empty
// remainder of the subject to a following extglob group, and "*!(x)" at
// the very end of the subject always succeeds at top level). To reproduce
// the quirks exactly without exponential running time, the matcher here
// follows the same procedure but evaluates it in "ends" form: for a
// pattern position k and a subject position n it computes the set of all
// subject ends e such that bash's matcher, run on the subject range
// [n, e), would report success. Every decision bash makes by comparing a
// position with the end of the subject becomes a split of that set. The
// sets are memoized per (pattern position, subject position, flags), which
// bounds the work polynomially; patterns without extglob groups run in
// linear time thanks to the same "no backtracking past a later star" rule
// bash borrows from glibc.

// patternMode selects the matching rules.
type patternMode uint8

const (
	// patternExtglob enables ?(..) *(..) +(..) @(..) !(..) (shopt extglob).
	patternExtglob patternMode = 1 << iota
	// patternNoCase matches without regard to case (nocaseglob, nocasematch).
	patternNoCase
	// patternPathname selects pathname matching: *, ? and [..] never match
	// '/', and a leading '.' must be matched explicitly unless
	// patternDotglob is also set.
	patternPathname
	// patternDotglob, with patternPathname, lets wildcards match a leading
	// '.' but never the names "." and "..".
	patternDotglob
	// patternSlashOnly, with patternPathname, keeps the '/' rules but drops
	// the leading-dot rules (bash matches GLOBIGNORE patterns this way).
	patternSlashOnly
)

// patternMatcher is a compiled bash pattern. It is safe for concurrent use.
type patternMatcher struct {
	text string      // the pattern as given (backslash-escaped)
	mode patternMode // matching rules
	// wide holds the pattern as runes; it is nil when the pattern is not
	// valid UTF-8, in which case bash matches bytewise.
	wide []int32
	// bytes holds the pattern as bytes, used when the pattern or the subject
	// is not valid UTF-8.
	bytes []int32
	// wideBrackets and byteBrackets cache, for the bracket expressions of
	// wide and bytes, where matching continues after each ASCII character.
	wideBrackets, byteBrackets patternBrackets
}

// patternBrackets holds, at the index after each '[' of a pattern, the
// result of matching each ASCII character against the bracket expression
// there: the index to continue at, or -1 for no match.
type patternBrackets []*[utf8.RuneSelf]int32

// patternBracketTables evaluates the bracket expressions of pat for all
// ASCII characters. It gives up (returning nil) on patterns with so many
// brackets that this would cost more than it saves.
func patternBracketTables(pat []int32, mode patternMode) patternBrackets {
	count := 0
	for _, c := range pat {
		if c == '[' {
			count++
		}
	}
	if count == 0 || count*len(pat) > 1<<14 {
		return nil
	}
	var tables patternBrackets
	r := &patternRun{pat: pat, mode: mode}
	r.init()
	for i, c := range pat {
		if c != '[' {
			continue
		}
		p := int32(i + 1)
		var t [utf8.RuneSelf]int32
		for c := range int32(utf8.RuneSelf) {
			t[c] = -1
			if next, ok := r.bracket(p, c); ok {
				t[c] = next
			}
		}
		if tables == nil {
			tables = make(patternBrackets, len(pat)+1)
		}
		tables[p] = &t
	}
	return tables
}

// patternCompile compiles the backslash-escaped bash pattern pat. Every
// string is a valid pattern (malformed constructs match literally, as in
// bash), so the error is always nil today; it is kept for callers that
// may impose limits later.
func patternCompile(pat string, mode patternMode) (*patternMatcher, error) {
	m := &patternMatcher{text: pat, mode: mode}
	m.bytes = patternBytesUnits(pat)
	if utf8.ValidString(pat) {
		if patternIsASCII(pat) {
			m.wide = m.bytes
		} else {
			m.wide = patternRuneUnits(pat)
		}
	}
	m.byteBrackets = patternBracketTables(m.bytes, mode)
	if m.wide != nil {
		m.wideBrackets = m.byteBrackets
		if len(m.wide) != len(m.bytes) {
			m.wideBrackets = patternBracketTables(m.wide, mode)
		}
	}
	return m, nil
}

// match reports whether the pattern matches all of s.
func (m *patternMatcher) match(s string) bool {
	r := m.newRun(s)
	return r.matchAt(0).has(int32(len(r.subj)))
}

// matchPrefix returns the length in bytes of the shortest (or, if longest
// is set, the longest) prefix of s that the pattern matches, or -1 if
// none does. It serves ${x#p} and ${x##p} (bash does not apply
// nocasematch there).
func (m *patternMatcher) matchPrefix(s string, longest bool) int {
	if m.perSubstring(s) {
		// Bash tries each prefix separately, choosing the matching mode
		// for each.
		for k := 0; k <= len(s); k++ {
			i := k
			if longest {
				i = len(s) - k
			}
			if m.match(s[:i]) {
				return i
			}
		}
		return -1
	}
	r := m.newRun(s)
	ends := r.matchAt(0)
	if len(ends) == 0 {
		return -1
	}
	if longest {
		return r.offset(ends.max())
	}
	return r.offset(ends.min())
}

// matchSuffix returns the byte index at which the shortest (or, if
// longest is set, the longest) suffix of s that the pattern matches
// starts, or -1 if none does. It serves ${x%p} and ${x%%p} (bash does not
// apply nocasematch there).
func (m *patternMatcher) matchSuffix(s string, longest bool) int {
	if m.perSubstring(s) {
		for k := 0; k <= len(s); k++ {
			i := len(s) - k
			if longest {
				i = k
			}
			if m.match(s[i:]) {
				return i
			}
		}
		return -1
	}
	r := m.newRun(s)
	end := int32(len(r.subj))
	for k := int32(0); k <= end; k++ {
		i := end - k
		if longest {
			i = k
		}
		if r.matchAt(i).has(end) {
			return r.offset(i)
		}
	}
	return -1
}

// find returns the byte range of the leftmost match of the pattern that
// starts at or after byte index from, choosing the longest match at that
// start, or (-1, -1) if there is none. It is bash's match_pattern for
// ${x/p/r} applied to the remaining string s[from:]: an empty pattern
// never matches, an empty match at the very end counts only when the
// pattern starts with '*', and a pattern that bash considers fixed-length
// is only tried at that length. replace drives it the way bash does.
func (m *patternMatcher) find(s string, from int) (start, end int) {
	if from < 0 || from > len(s) {
		return -1, -1
	}
	start, end, ok := m.substMatch(s[from:], patternSubstFirst)
	if !ok {
		return -1, -1
	}
	return from + start, from + end
}

// patternSubstMode selects what patternMatcher.replace replaces.
type patternSubstMode uint8

const (
	patternSubstFirst  patternSubstMode = iota // ${x/p/r}: the first match
	patternSubstAll                            // ${x//p/r}: every match
	patternSubstPrefix                         // ${x/#p/r}: a match at the start
	patternSubstSuffix                         // ${x/%p/r}: a match at the end
)

// replace performs bash's ${s/p/r} family of substitutions (pat_subst):
// each match selected by how is replaced by rep(match). The caller turns
// the replacement word into rep, including the patsub_replacement
// handling of '&'. Case-insensitive matching applies here under
// nocasematch.
func (m *patternMatcher) replace(s string, how patternSubstMode, rep func(match string) string) string {
	if m.text == "" && (how == patternSubstPrefix || how == patternSubstSuffix) {
		if how == patternSubstPrefix {
			return rep("") + s
		}
		return s + rep("")
	}
	if s == "" {
		if _, _, ok := m.substMatch(s, how); ok {
			return rep("")
		}
		return s
	}
	// Bash matches against the remaining string each time. For valid
	// UTF-8 the subject is converted once and each step looks at what
	// remains of it.
	var whole *patternRun
	if how == patternSubstAll && !m.perSubstring(s) {
		whole = m.newRun(s)
	}
	var b strings.Builder
	i := 0
	for i < len(s) {
		var start, end int
		var ok bool
		if whole != nil {
			start, end, ok = m.substMatchRun(whole.suffix(i), s[i:], how)
		} else {
			start, end, ok = m.substMatch(s[i:], how)
		}
		if !ok {
			break
		}
		b.WriteString(s[i : i+start])
		b.WriteString(rep(s[i+start : i+end]))
		i += end
		if how != patternSubstAll {
			break
		}
		if start == end && i < len(s) {
			// Step over one character after an empty match.
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	b.WriteString(s[i:])
	return b.String()
}

// substMatch is bash's match_pattern: it finds the match of the pattern in
// str that ${x/p/r} (patternSubstFirst, patternSubstAll), ${x/#p/r} or
// ${x/%p/r} would replace, and returns its byte range.
func (m *patternMatcher) substMatch(str string, how patternSubstMode) (start, end int, ok bool) {
	if m.text == "" {
		return 0, 0, false
	}
	return m.substMatchRun(m.newRun(str), str, how)
}

// substMatchRun is substMatch with str already prepared as r.
func (m *patternMatcher) substMatchRun(r *patternRun, str string, how patternSubstMode) (start, end int, ok bool) {
	if m.text == "" {
		return 0, 0, false
	}
	n := int32(len(r.subj))
	// Bash first checks the pattern wrapped in stars against the whole
	// string; its bytewise code leaves out the star on an anchored side.
	leading, trailing := true, true
	if r.byteMode {
		leading, trailing = how != patternSubstPrefix, how != patternSubstSuffix
	}
	pre := &patternRun{pat: patternWrap(r.pat, r.extglob, leading, trailing),
		subj: r.subj, byteMode: r.byteMode, mode: r.mode}
	pre.init()
	if !pre.matchAt(0).has(n) {
		return 0, 0, false
	}
	fixed := int32(patternMatchLen(r.pat))
	if fixed > n {
		return 0, 0, false
	}
	perSub := m.perSubstring(str)
	matches := func(i, j int32) bool {
		if perSub {
			return m.match(str[i:j])
		}
		return r.matchAt(i).has(j)
	}
	switch how {
	case patternSubstPrefix:
		if !r.couldStart(0) {
			return 0, 0, false
		}
		if fixed >= 0 {
			return 0, r.offset(fixed), matches(0, fixed)
		}
		if perSub {
			for j := n; j >= 0; j-- {
				if matches(0, j) {
					return 0, int(j), true
				}
			}
			return 0, 0, false
		}
		if ends := r.matchAt(0); len(ends) > 0 {
			return 0, r.offset(ends.max()), true
		}
		return 0, 0, false
	case patternSubstSuffix:
		if fixed >= 0 {
			return r.offset(n - fixed), r.offset(n), matches(n-fixed, n)
		}
		for i := int32(0); i <= n; i++ {
			if matches(i, n) {
				return r.offset(i), r.offset(n), true
			}
		}
		return 0, 0, false
	}
	for i := int32(0); i <= n; i++ {
		if !r.couldStart(i) {
			continue
		}
		if fixed >= 0 {
			j := i + fixed
			if j > n {
				break
			}
			if matches(i, j) {
				return r.offset(i), r.offset(j), true
			}
			continue
		}
		if perSub {
			for j := n; j >= i; j-- {
				if matches(i, j) {
					return int(i), int(j), true
				}
			}
			continue
		}
		if ends := r.matchAt(i); len(ends) > 0 {
			return r.offset(i), r.offset(ends.max()), true
		}
	}
	return 0, 0, false
}

// perSubstring reports whether bash would match substrings of s one by
// one, each in the mode its own bytes call for: it does so when s is not
// valid UTF-8 but the pattern is.
func (m *patternMatcher) perSubstring(s string) bool {
	return m.wide != nil && !utf8.ValidString(s)
}

// couldStart is bash's match_pattern_char: a quick test of whether a match
// can start at subject unit i, judged on the first pattern character.
func (r *patternRun) couldStart(i int32) bool {
	c := r.pat[0]
	if int(i) == len(r.subj) {
		return c == '*' // only '*' may match the empty string here
	}
	sc := r.fold(r.subj[i])
	switch c {
	case '\\':
		return sc == r.fold(r.p(1))
	case '?', '*', '[':
		return true
	case '+', '!', '@':
		return r.p(1) == '(' || sc == r.fold(c)
	}
	return sc == r.fold(c)
}

// patternMatchLen is bash's matchlen: the number of characters every match
// of the pattern has, or -1 if that is not fixed. Its idea of where a
// bracket expression ends differs from the matcher's in corner cases
// (for example "[!]]"), and bash lives with the consequences, so this
// follows it exactly.
func patternMatchLen(pat []int32) int {
	at := func(i int) int32 {
		if i < len(pat) {
			return pat[i]
		}
		return 0
	}
	n := 0
	var inClass, inColl, inEquiv bool
	for i := 0; i < len(pat); {
		c := pat[i]
		i++
		switch c {
		default:
			n++
		case '\\':
			if i >= len(pat) {
				return n + 1
			}
			n++
			i++
		case '?', '+', '!', '@':
			if at(i) == '(' {
				return -1
			}
			n++
		case '*':
			return -1
		case '[':
			width := 1
			c = at(i)
			i++
			bad := false
			for {
				if c == 0 {
					bad = true
					break
				}
				switch {
				case c == '\\':
					width++
					if at(i) == 0 || at(i+1) == 0 {
						bad = true
					}
					i++
				case c == '[' && at(i) == ':':
					i++
					width++
					inClass = true
				case inClass && c == ':' && at(i) == ']':
					i++
					width++
					inClass = false
				case c == '[' && at(i) == '.':
					i++
					width++
					if at(i) == ']' {
						i++
						width++
					}
					inColl = true
				case inColl && c == '.' && at(i) == ']':
					i++
					width++
					inColl = false
				case c == '[' && at(i) == '=':
					i++
					width++
					if at(i) == ']' {
						i++
						width++
					}
					inEquiv = true
				case inEquiv && c == '=' && at(i) == ']':
					i++
					width++
					inEquiv = false
				default:
					width++
				}
				if bad {
					break
				}
				c = at(i)
				i++
				if c == ']' {
					break
				}
			}
			if bad {
				// An unterminated bracket counts as its characters.
				return n + width
			}
			n++
		}
	}
	return n
}

// newRun prepares the matching of s: it picks bash's wide-character or
// bytewise mode and converts the subject to units accordingly.
func (m *patternMatcher) newRun(s string) *patternRun {
	r := &patternRun{mode: m.mode}
	switch {
	case m.wide != nil && patternIsASCII(s):
		r.pat, r.brackets = m.wide, m.wideBrackets
		r.subj = patternBytesUnits(s)
		r.byteMode = patternIsASCII(m.text)
	case m.wide != nil && utf8.ValidString(s):
		r.pat, r.brackets = m.wide, m.wideBrackets
		r.subj, r.offsets = patternRuneUnitsOffsets(s)
	default:
		r.pat, r.brackets = m.bytes, m.byteBrackets
		r.subj = patternBytesUnits(s)
		r.byteMode = true
	}
	r.init()
	return r
}

// patternFlags are the per-call matching flags of bash's gmatch that vary
// during a match.
type patternFlags uint8

const (
	patternFlagPeriod patternFlags = 1 << iota // FNM_PERIOD is in effect for this call
	patternFlagDotdot                          // FNM_DOTDOT is in effect for this call
	patternFlagStart                           // the position is the start of the call's subject
)

// patternKey identifies a memoized sub-match.
type patternKey struct {
	k, pe, n int32
	fl       patternFlags
}

// patternRun holds the state of one matching operation.
type patternRun struct {
	pat      []int32         // pattern units (runes, or bytes in byte mode)
	brackets patternBrackets // precomputed bracket results for pat, if any
	subj     []int32         // subject units
	offsets  []int           // byte offset of each subject unit and of the end (nil: unit index == byte offset)
	base     int             // byte offset that offsets count from
	byteMode bool            // bytewise matching (affects character classes and case folding)
	mode     patternMode
	extglob  bool // mode has patternExtglob
	nocase   bool // mode has patternNoCase
	pathname bool // mode has patternPathname
	memo     map[patternKey]patternSet
}

// init derives the mode booleans from mode.
func (r *patternRun) init() {
	r.extglob = r.mode&patternExtglob != 0
	r.nocase = r.mode&patternNoCase != 0
	r.pathname = r.mode&patternPathname != 0
}

// initialFlags returns the flags for a match starting at the start of a
// subject.
func (r *patternRun) initialFlags() patternFlags {
	if !r.pathname || r.mode&patternSlashOnly != 0 {
		return 0
	}
	if r.mode&patternDotglob != 0 {
		return patternFlagDotdot | patternFlagStart
	}
	return patternFlagPeriod | patternFlagStart
}

// matchAt returns the ends of the matches of the whole pattern against the
// subject starting at unit n, as if the subject started there.
func (r *patternRun) matchAt(n int32) patternSet {
	return r.match(0, int32(len(r.pat)), n, r.initialFlags())
}

// offset converts a subject unit index to a byte offset.
func (r *patternRun) offset(i int32) int {
	if r.offsets == nil {
		return int(i)
	}
	return r.offsets[i] - r.base
}

// suffix returns a run for the part of the subject from byte offset off,
// which must start a character, sharing the converted subject.
func (r *patternRun) suffix(off int) *patternRun {
	v := &patternRun{pat: r.pat, brackets: r.brackets, byteMode: r.byteMode, mode: r.mode}
	v.init()
	if r.offsets == nil {
		v.subj = r.subj[off:]
		return v
	}
	i := sort.SearchInts(r.offsets, off+r.base)
	v.subj, v.offsets, v.base = r.subj[i:], r.offsets[i:], off+r.base
	return v
}

// p returns the pattern unit at i, or 0 past the end (bash's NUL).
func (r *patternRun) p(i int32) int32 {
	if i < 0 || int(i) >= len(r.pat) {
		return 0
	}
	return r.pat[i]
}

// s returns the subject unit at i, or 0 past the end (bash's NUL).
func (r *patternRun) s(i int32) int32 {
	if i < 0 || int(i) >= len(r.subj) {
		return 0
	}
	return r.subj[i]
}

// fold maps c to lower case when matching without regard to case.
func (r *patternRun) fold(c int32) int32 {
	if !r.nocase {
		return c
	}
	return patternFold(c, r.byteMode)
}

// leadingDot reports whether bash's FNM_PERIOD rule forbids a wildcard to
// match the '.' at subject position n.
func (r *patternRun) leadingDot(n int32, fl patternFlags) bool {
	if fl&patternFlagPeriod == 0 || r.s(n) != '.' {
		return false
	}
	return fl&patternFlagStart != 0 || (r.pathname && n > 0 && r.s(n-1) == '/')
}

// dotOrDotdot reports whether bash's FNM_DOTDOT rule forbids a wildcard at
// subject position n: the rest of the subject (or of the path component)
// is "." or "..".
func (r *patternRun) dotOrDotdot(n int32, fl patternFlags) bool {
	if fl&patternFlagDotdot == 0 {
		return false
	}
	if fl&patternFlagStart != 0 && r.wholeDots(n, false) {
		return true
	}
	return r.pathname && n > 0 && r.s(n-1) == '/' && r.wholeDots(n, true)
}

// wholeDots reports whether the subject at n is "." or ".." followed by
// its end (or by '/' if slash is set).
func (r *patternRun) wholeDots(n int32, slash bool) bool {
	end := func(c int32) bool { return c == 0 || (slash && c == '/') }
	if r.s(n) != '.' {
		return false
	}
	return end(r.s(n+1)) || (r.s(n+1) == '.' && end(r.s(n+2)))
}

// match is bash's gmatch in ends form: the set of subject ends e such that
// the pattern units [k, pe) match the subject units [n, e).
func (r *patternRun) match(k, pe, n int32, fl patternFlags) patternSet {
	if fl&(patternFlagPeriod|patternFlagDotdot) == 0 {
		fl = 0 // the start flag matters only with the leading-dot rules
	}
	key := patternKey{k, pe, n, fl}
	if res, ok := r.memo[key]; ok {
		return res
	}
	var res patternSet
	w := r.walk(k, pe, n, fl)
	switch w.kind {
	case patternWalkEnd:
		res = patternPoint(w.x)
	case patternWalkExt:
		lfl := fl
		if !w.atStart {
			lfl = 0 // past the start, the leading-dot rules no longer apply
		}
		res = r.ext(r.p(w.k), w.k+1, pe, w.x, lfl)
	case patternWalkStar:
		sfl := fl
		if !w.atStart {
			sfl &^= patternFlagStart
		}
		res = r.star(w.k, pe, w.x, sfl)
	}
	if r.memo == nil {
		r.memo = make(map[patternKey]patternSet)
	}
	r.memo[key] = res
	return res
}

// Kinds of walk results.
const (
	patternWalkFail = iota // the pattern cannot match here
	patternWalkEnd         // the pattern ended; it matches iff the subject ends at x
	patternWalkExt         // an extglob operator at k, reached at subject position x
	patternWalkStar        // a '*' at k, reached at subject position x
)

// patternWalk is the result of walking over the single-character items at
// the head of a pattern.
type patternWalk struct {
	kind    int
	k, x    int32
	atStart bool // x is still the start of the call's subject
}

// walk matches the pattern items that consume exactly one subject
// character (literals, escapes, '?', bracket expressions) starting at
// pattern unit k and subject unit n, and stops at the first '*', extglob
// operator, the end of the pattern, or a mismatch.
func (r *patternRun) walk(k, pe, n int32, fl patternFlags) patternWalk {
	atStart := fl&patternFlagStart != 0
	for {
		if k >= pe {
			return patternWalk{kind: patternWalkEnd, x: n}
		}
		c := r.fold(r.pat[k])
		k++
		if r.extglob && r.p(k) == '(' && patternIsExtOp(c) {
			return patternWalk{kind: patternWalkExt, k: k - 1, x: n, atStart: atStart}
		}
		cur := fl
		if !atStart {
			cur &^= patternFlagStart
		}
		sc := r.s(n)
		switch c {
		case '?':
			if sc == 0 || (r.pathname && sc == '/') || (cur != 0 && (r.leadingDot(n, cur) || r.dotOrDotdot(n, cur))) {
				return patternWalk{kind: patternWalkFail}
			}
		case '\\':
			if k == pe {
				// A trailing backslash matches a backslash that ends the
				// subject.
				if sc != '\\' {
					return patternWalk{kind: patternWalkFail}
				}
				break
			}
			c = r.fold(r.p(k))
			k++
			if sc == 0 || r.fold(sc) != c {
				return patternWalk{kind: patternWalkFail}
			}
		case '*':
			return patternWalk{kind: patternWalkStar, k: k - 1, x: n, atStart: atStart}
		case '[':
			if sc == 0 || (cur != 0 && (r.leadingDot(n, cur) || r.dotOrDotdot(n, cur))) {
				return patternWalk{kind: patternWalkFail}
			}
			next, ok := r.bracketAt(k, sc)
			if !ok {
				return patternWalk{kind: patternWalkFail}
			}
			k = next
		default:
			if sc == 0 || c != r.fold(sc) {
				return patternWalk{kind: patternWalkFail}
			}
		}
		n++
		atStart = false
	}
}

// star evaluates a '*' at pattern unit k reached at subject unit n, with
// bash's handling of runs of '*' and '?', of "*?(..)", "**(..)" and
// "*!(..)", and of the glibc rule that a match found for the text between
// two stars is never revisited.
func (r *patternRun) star(k, pe, n int32, fl patternFlags) patternSet {
	var res patternSetBuilder
	cur, hi := n, int32(len(r.subj)) // undecided ends are [cur, hi]
	if r.dotOrDotdot(n, fl) {
		return nil
	}
	if r.leadingDot(n, fl) {
		hi = n // only the empty subject can still match
	}
	p := k + 1
	if p == pe {
		res.add(cur, hi+1)
		return res.set()
	}
	var c int32
	for {
		c = r.p(p)
		p++
		if c != '?' && c != '*' {
			break
		}
		if r.pathname && cur < hi && r.s(cur) == '/' {
			hi = cur // a slash cannot be matched by a wildcard
		}
		switch {
		case r.extglob && c == '?' && r.p(p) == '(':
			// "*?(..)": try the group right here first.
			ends := r.ext('?', p, pe, cur, fl|patternFlagStart)
			res.addSet(ends.clip(cur, hi+1))
			p = r.skipGroup(p, pe)
		case c == '?':
			if cur >= hi {
				return res.set()
			}
			cur++
		}
		if r.extglob && c == '*' && r.p(p) == '(' {
			// "**(..)": try the group at each position that leaves at
			// least one character.
			for x := cur; x < hi; x++ {
				ends := r.ext('*', p, pe, x, fl|patternFlagStart)
				res.addSet(ends.clip(x+1, hi+1))
			}
			p = r.skipGroup(p, pe)
		}
		if p == pe {
			break
		}
	}
	if p == pe && (c == '?' || c == '*') {
		res.add(cur, hi+1)
		return res.set()
	}
	if r.extglob && c == '!' && r.p(p) == '(' {
		// Bash checks "*!(..)" at the very end of the subject by running
		// the extglob matcher on the '!' and inverting its answer.
		if cur <= hi {
			ends := r.ext('!', p-1, pe, cur, fl|patternFlagStart)
			if !ends.has(cur) {
				res.add(cur, cur+1)
			}
		}
		if cur == hi {
			return res.set()
		}
	}
	if c == '/' && r.pathname {
		slash := cur
		for slash < int32(len(r.subj)) && r.subj[slash] != '/' {
			slash++
		}
		if slash < hi {
			ends := r.match(p, pe, slash+1, fl&^patternFlagStart)
			res.addSet(ends.clip(slash+1, hi+1))
		}
		return res.set()
	}

	// The general case: try the rest of the pattern at each position,
	// leaving at least one character for it.
	k1 := p - 1 // the first item after the stars
	c1 := c
	if c == '\\' {
		c1 = r.p(p)
	}
	c1 = r.fold(c1)
	prefilter := c != '['
	if r.extglob && (r.p(k1+1) == '(' || patternIsExtOp(c)) {
		prefilter = false
	}
	limit := hi // positions must be below limit to be tried
	if r.pathname {
		for x := cur; x < limit; x++ {
			if r.subj[x] == '/' {
				limit = x
				break
			}
		}
	}
	low := cur
	if r.extglob && c == '!' && r.p(p) == '(' {
		low = cur + 1 // the end of the subject was decided above
	}
	top := hi + 1 // ends at or above top are decided
	for x := cur; x < limit && x+1 < top; x++ {
		lo := max(x+1, low)
		if res.covers(lo, top) {
			break // nothing left to decide
		}
		if prefilter && r.fold(r.subj[x]) != c1 {
			continue
		}
		w := r.walk(k1, pe, x, 0)
		switch w.kind {
		case patternWalkStar:
			if w.x < top {
				// The text up to the next star matched: bash continues
				// from there and never comes back to this star.
				ends := r.match(w.k, pe, w.x, fl&^patternFlagStart)
				res.addSet(ends.clip(max(w.x, lo), top))
				top = w.x
			}
		case patternWalkExt:
			ends := r.ext(r.p(w.k), w.k+1, pe, w.x, 0)
			res.addSet(ends.clip(lo, top))
		case patternWalkEnd:
			if w.x >= lo && w.x < top {
				res.add(w.x, w.x+1)
			}
		}
	}
	return res.set()
}

// skipGroup returns the position after the extglob group whose '(' is at
// p, or pe if the group is not terminated.
func (r *patternRun) skipGroup(p, pe int32) int32 {
	if next := r.scan(p+1, pe, 0); next >= 0 {
		return next
	}
	return pe
}

// ext is bash's extmatch in ends form: the extglob operator op applied at
// subject unit n, where p is the unit after the operator (normally the
// '('), followed by the rest of the pattern up to pe.
func (r *patternRun) ext(op int32, p, pe, n int32, fl patternFlags) patternSet {
	start := p
	if r.p(p) == '(' {
		start++
	}
	rest := r.scan(start, pe, 0)
	if rest < 0 {
		// Not a valid group: bash compares the text literally.
		lit := r.pat[p-1 : pe]
		if int(n)+len(lit) > len(r.subj) {
			return nil
		}
		for i, c := range lit {
			if r.subj[int(n)+i] != c {
				return nil
			}
		}
		return patternPoint(n + int32(len(lit)))
	}
	fl |= patternFlagStart
	next := func(srest int32) patternFlags {
		if srest > n {
			return 0 // past the start, the leading-dot rules no longer apply
		}
		return fl
	}
	var res patternSetBuilder
	end := int32(len(r.subj))
	switch op {
	case '*', '+':
		if op == '*' {
			res.addSet(r.match(rest, pe, n, fl))
		}
		r.alternatives(p, pe, rest, func(sub, subEnd int32) {
			r.match(sub, subEnd, n, fl).each(func(srest int32) bool {
				if res.covers(srest, end+1) {
					return false
				}
				res.addSet(r.match(rest, pe, srest, next(srest)))
				if srest > n {
					res.addSet(r.match(p-1, pe, srest, next(srest)))
				}
				return true
			})
		})
	case '?', '@':
		if op == '?' {
			res.addSet(r.match(rest, pe, n, fl))
		}
		r.alternatives(p, pe, rest, func(sub, subEnd int32) {
			r.match(sub, subEnd, n, fl).each(func(srest int32) bool {
				if res.covers(srest, end+1) {
					return false
				}
				res.addSet(r.match(rest, pe, srest, next(srest)))
				return true
			})
		})
	case '!':
		var any patternSetBuilder
		r.alternatives(p, pe, rest, func(sub, subEnd int32) {
			any.addSet(r.match(sub, subEnd, n, fl))
		})
		if fl&patternFlagPeriod != 0 && r.s(n) == '.' {
			return nil
		}
		if fl&patternFlagDotdot != 0 && (r.wholeDots(n, false) ||
			(r.pathname && n > 0 && r.s(n-1) == '/' && r.wholeDots(n, true))) {
			return nil
		}
		excluded := any.set()
		if rest == pe {
			return patternSet{{n, end + 1}}.minus(excluded)
		}
		for srest := n; srest <= end && !res.covers(srest, end+1); srest++ {
			if !excluded.has(srest) {
				res.addSet(r.match(rest, pe, srest, next(srest)))
			}
		}
	}
	return res.set()
}

// alternatives calls fn with the bounds of each '|'-separated alternative
// of the group whose operator precedes p and whose end is rest.
func (r *patternRun) alternatives(p, pe, rest int32, fn func(sub, subEnd int32)) {
	for sub := p + 1; ; {
		next := r.scan(sub, pe, '|')
		if next < 0 {
			return
		}
		fn(sub, next-1)
		if next == rest {
			return
		}
		sub = next
	}
}

// scan is bash's PATSCAN on the pattern; see patternScan.
func (r *patternRun) scan(start, end int32, delim int32) int32 {
	return patternScan(r.pat, start, end, delim)
}

// patternScan is bash's PATSCAN: starting at unit start of pat, it looks
// for the end of an extglob group (delim 0) or of an alternative (delim
// '|'), skipping escaped characters, nested groups and bracket
// expressions. It returns the index after the delimiter, end if it
// reaches end first, or -1 if the pattern ends first.
func patternScan(pat []int32, start, end int32, delim int32) int32 {
	if start == end {
		return -1
	}
	at := func(i int32) int32 {
		if i < 0 || int(i) >= len(pat) {
			return 0
		}
		return pat[i]
	}
	pnest, bnest := 0, 0
	skip := false
	var cchar int32
	bfirst := int32(-1)
	for s := start; int(s) < len(pat); s++ {
		if s >= end {
			return s
		}
		if skip {
			skip = false
			continue
		}
		switch pat[s] {
		case '\\':
			skip = true
		case '[':
			if bnest == 0 {
				bfirst = s + 1
				if c := at(bfirst); c == '!' || c == '^' {
					bfirst++
				}
				bnest++
			} else if c := at(s + 1); c == ':' || c == '.' || c == '=' {
				cchar = c
			}
		case ']':
			if bnest > 0 {
				if cchar != 0 && at(s-1) == cchar {
					cchar = 0
				} else if s != bfirst {
					bnest--
					bfirst = -1
				}
			}
		case '(':
			if bnest == 0 {
				pnest++
			}
		case ')':
			if bnest == 0 {
				if pnest <= 0 {
					return s + 1
				}
				pnest--
			}
		case '|':
			if bnest == 0 && pnest == 0 && delim == '|' {
				return s + 1
			}
		}
	}
	return -1
}

// patternCollInvalid marks an unknown collating symbol.
const patternCollInvalid = -1

// bracketAt is bracket, using the precomputed results for ASCII.
func (r *patternRun) bracketAt(p int32, test int32) (int32, bool) {
	if test < utf8.RuneSelf && int(p) < len(r.brackets) {
		if t := r.brackets[p]; t != nil {
			return t[test], t[test] >= 0
		}
	}
	return r.bracket(p, test)
}

// bracket is bash's BRACKMATCH: it matches the subject character test
// against the bracket expression whose '[' precedes pattern unit p and
// returns the position to continue at. An unterminated expression makes
// the '[' match itself, and matching continues right after it.
func (r *patternRun) bracket(p int32, test int32) (int32, bool) {
	orig := test
	test = r.fold(test)
	savep := p
	unterminated := func() (int32, bool) {
		if test == '[' {
			return savep, true
		}
		return 0, false
	}
	negate := false
	if c := r.p(p); c == '!' || c == '^' {
		negate = true
		p++
	}
	c := r.p(p)
	p++
	for {
		cstart := c
		if c == '[' && r.p(p) == '=' && r.p(p+2) == '=' && r.p(p+3) == ']' {
			// Equivalence class [=c=]: in C.UTF-8 only c itself.
			pc := r.fold(r.p(p + 1))
			p += 4
			if test == pc {
				p++
				return r.bracketSkip(p, test, negate, savep)
			}
			c = r.p(p)
			p++
			if c == 0 {
				return unterminated()
			}
			c = r.fold(c)
			continue
		}
		if c == '[' && r.p(p) == ':' {
			// Character class [:name:]; an unknown name matches nothing.
			matched := false
			end := p + 1
			for r.p(end) != 0 && !(r.p(end) == ':' && r.p(end+1) == ']') {
				end++
			}
			if r.p(end) != 0 {
				name := patternDequote(r.pat[p+1 : end])
				matched = patternClass(orig, name, r.byteMode) == 1
				p = end + 2
			}
			if matched {
				p++
				return r.bracketSkip(p, test, negate, savep)
			}
			c = r.p(p)
			p++
			if c == 0 {
				return unterminated()
			}
			if c == ']' {
				break
			}
			c = r.fold(c)
			continue
		}
		if c == '[' && r.p(p) == '.' {
			var sym int32
			p, sym = r.collsym(p)
			if sym == patternCollInvalid {
				cstart = test + 1
			} else {
				cstart = sym
			}
		}
		if c == '\\' {
			if r.p(p) == 0 {
				return 0, false
			}
			cstart = r.p(p)
			p++
		}
		cstart = r.fold(cstart)
		cend := cstart
		if c == 0 {
			return unterminated()
		}
		c = r.fold(r.p(p))
		p++
		if c == 0 {
			return unterminated()
		}
		if r.pathname && c == '/' {
			return 0, false
		}
		isRange := false
		if c == '-' && r.p(p) != ']' {
			cend = r.p(p)
			p++
			if cend == '\\' {
				cend = r.p(p)
				p++
			}
			if cend == 0 {
				return 0, false
			}
			if cend == '[' && r.p(p) == '.' {
				var sym int32
				p, sym = r.collsym(p)
				if sym == patternCollInvalid {
					cend = test - 1
				} else {
					cend = sym
				}
			}
			cend = r.fold(cend)
			c = r.p(p)
			p++
			if cstart > cend {
				// An inverted range matches nothing, but the rest of
				// the expression still counts.
				if c == ']' {
					break
				}
				c = r.fold(c)
				continue
			}
			isRange = true
		}
		if (!isRange && test == cstart) || (isRange && test >= cstart && test <= cend) {
			return r.bracketSkip(p, test, negate, savep)
		}
		if c == ']' {
			break
		}
	}
	if negate {
		return p, true
	}
	return 0, false
}

// bracketSkip skips the rest of a bracket expression after a member
// matched; p is one past the unit following the matching member.
func (r *patternRun) bracketSkip(p, test int32, negate bool, savep int32) (int32, bool) {
	p--
	c := r.p(p)
	depth := 1
	inner := int32(-1) // position of the char after an inner '['
	for depth > 0 {
		if c == 0 {
			if test == '[' {
				return savep, true
			}
			return 0, false
		}
		prev := c
		c = r.p(p)
		p++
		switch {
		case c == '[' && (r.p(p) == '=' || r.p(p) == ':' || r.p(p) == '.'):
			depth++
			inner = p
			p++
			c = r.p(p)
			if c == 0 {
				if test == '[' {
					return savep, true
				}
				return 0, false
			}
		case c == ']' && depth > 1 && inner >= 0 && prev == r.p(inner):
			depth--
			inner = -1
		case c == ']' && (inner < 0 || r.p(inner) != '.'):
			depth = 0
		case c == '\\':
			if r.p(p) == 0 {
				return 0, false
			}
			p++
		}
	}
	if negate {
		return 0, false
	}
	return p, true
}

// collsym parses a collating symbol [.name.] whose '.' is at p and returns
// the position after it and its character.
func (r *patternRun) collsym(p int32) (int32, int32) {
	p++
	n := p
	for r.p(n) != 0 && !(r.p(n) == '.' && r.p(n+1) == ']') {
		n++
	}
	if r.p(n) == 0 {
		return n, patternCollInvalid
	}
	name := r.pat[p:n]
	if c, ok := patternCollName(patternUnitsString(name)); ok {
		return n + 2, c
	}
	if len(name) == 1 {
		return n + 2, name[0]
	}
	return n + 2, patternCollInvalid
}

// patternIsExtOp reports whether c can introduce an extglob group.
func patternIsExtOp(c int32) bool {
	switch c {
	case '?', '*', '+', '@', '!':
		return true
	}
	return false
}

// patternDequote removes backslashes from a character class name.
func patternDequote(u []int32) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		if u[i] == '\\' && i+1 < len(u) {
			i++
		}
		b.WriteRune(u[i])
	}
	return b.String()
}

// patternUnitsString converts pattern units to a string.
func patternUnitsString(u []int32) string {
	var b strings.Builder
	for _, c := range u {
		b.WriteRune(c)
	}
	return b.String()
}

// patternWrap returns the pattern with '*' added at the start (if leading)
// and at the end (if trailing) where it does not have one already, as
// bash's match_pattern does before its quick check. A pattern that starts
// and ends with '*' (not counting "*(" with extglob) is left alone even
// if the final '*' is escaped.
func patternWrap(pat []int32, extglob, leading, trailing bool) []int32 {
	n := len(pat)
	if n == 0 {
		if leading || trailing {
			return []int32{'*'}
		}
		return pat
	}
	starts := pat[0] == '*' && !(extglob && n > 1 && pat[1] == '(')
	if starts && pat[n-1] == '*' {
		return pat
	}
	leading = leading && !starts
	if trailing && pat[n-1] == '*' {
		// A final '*' escaped by an odd number of backslashes is literal.
		odd := false
		for i := n - 2; i >= 0 && pat[i] == '\\'; i-- {
			odd = !odd
		}
		trailing = odd
	}
	out := make([]int32, 0, n+2)
	if leading {
		out = append(out, '*')
	}
	out = append(out, pat...)
	if trailing {
		out = append(out, '*')
	}
	return out
}

// patternIsASCII reports whether s is all ASCII.
func patternIsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// patternBytesUnits converts s to one unit per byte.
func patternBytesUnits(s string) []int32 {
	u := make([]int32, len(s))
	for i := 0; i < len(s); i++ {
		u[i] = int32(s[i])
	}
	return u
}

// patternRuneUnits converts the valid UTF-8 string s to runes.
func patternRuneUnits(s string) []int32 {
	u := make([]int32, 0, len(s))
	for _, c := range s {
		u = append(u, c)
	}
	return u
}

// patternRuneUnitsOffsets converts the valid UTF-8 string s to runes and
// records the byte offset of each, plus len(s) at the end.
func patternRuneUnitsOffsets(s string) ([]int32, []int) {
	u := make([]int32, 0, len(s))
	offs := make([]int, 0, len(s)+1)
	for i, c := range s {
		u = append(u, c)
		offs = append(offs, i)
	}
	offs = append(offs, len(s))
	return u, offs
}

// patternHasMeta reports whether the backslash-escaped pattern pat can match
// anything other than its own unescaped text, that is, whether it contains
// an unescaped '*', '?', a '[' followed later by ']', or, with extglob,
// one of "?(", "*(", "+(", "@(", "!(". When it reports false,
// patternUnescape(pat) == s decides a case-sensitive match. (Pathname
// expansion uses bash's own, slightly different, test internally.)
func patternHasMeta(pat string, extglob bool) bool {
	open := false
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			open = true
		case ']':
			if open {
				return true
			}
		case '+', '@', '!':
			if extglob && i+1 < len(pat) && pat[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

// patternUnescape returns the literal text of a pattern without
// metacharacters: each backslash is removed and the character after it
// kept. A trailing lone backslash stands for itself, as bash matches it.
func patternUnescape(pat string) string {
	if strings.IndexByte(pat, '\\') < 0 {
		return pat
	}
	var b strings.Builder
	b.Grow(len(pat))
	for i := 0; i < len(pat); i++ {
		if pat[i] == '\\' && i+1 < len(pat) {
			i++
		}
		b.WriteByte(pat[i])
	}
	return b.String()
}

// patternSpan is the half-open range [lo, hi) of subject positions.
type patternSpan struct{ lo, hi int32 }

// patternSet is a set of subject positions: sorted, disjoint, non-adjacent
// spans.
type patternSet []patternSpan

// patternPoint returns the set {x}.
func patternPoint(x int32) patternSet { return patternSet{{x, x + 1}} }

// has reports whether x is in the set.
func (s patternSet) has(x int32) bool {
	i := sort.Search(len(s), func(i int) bool { return s[i].hi > x })
	return i < len(s) && s[i].lo <= x
}

// min returns the smallest element of a non-empty set.
func (s patternSet) min() int32 { return s[0].lo }

// max returns the largest element of a non-empty set.
func (s patternSet) max() int32 { return s[len(s)-1].hi - 1 }

// each calls fn for every element in increasing order until fn returns
// false.
func (s patternSet) each(fn func(int32) bool) {
	for _, sp := range s {
		for x := sp.lo; x < sp.hi; x++ {
			if !fn(x) {
				return
			}
		}
	}
}

// clip returns the elements in [lo, hi).
func (s patternSet) clip(lo, hi int32) patternSet {
	if lo >= hi || len(s) == 0 {
		return nil
	}
	if s[0].lo >= lo && s[len(s)-1].hi <= hi {
		return s
	}
	var out patternSet
	for _, sp := range s {
		a, b := max(sp.lo, lo), min(sp.hi, hi)
		if a < b {
			out = append(out, patternSpan{a, b})
		}
	}
	return out
}

// minus returns the elements of s that are not in t.
func (s patternSet) minus(t patternSet) patternSet {
	var out patternSet
	j := 0
	for _, sp := range s {
		lo := sp.lo
		for j < len(t) && t[j].hi <= lo {
			j++
		}
		for k := j; k < len(t) && t[k].lo < sp.hi; k++ {
			if t[k].lo > lo {
				out = append(out, patternSpan{lo, t[k].lo})
			}
			lo = max(lo, t[k].hi)
		}
		if lo < sp.hi {
			out = append(out, patternSpan{lo, sp.hi})
		}
	}
	return out
}

// patternSetBuilder accumulates spans into a set.
type patternSetBuilder struct {
	spans  []patternSpan
	sorted bool
}

// add adds [lo, hi).
func (b *patternSetBuilder) add(lo, hi int32) {
	if lo >= hi {
		return
	}
	if n := len(b.spans); n > 0 {
		last := &b.spans[n-1]
		if lo >= last.lo && lo <= last.hi {
			last.hi = max(last.hi, hi)
			return
		}
		if lo < last.lo {
			b.sorted = false
		}
	} else {
		b.sorted = true
	}
	b.spans = append(b.spans, patternSpan{lo, hi})
}

// covers reports whether [lo, hi) is known to be in the set already. It
// only looks at the most recent span, which is where ascending additions
// end up, and may report false for a covered range.
func (b *patternSetBuilder) covers(lo, hi int32) bool {
	if lo >= hi {
		return true
	}
	n := len(b.spans)
	if n == 0 || !b.sorted {
		return false
	}
	last := b.spans[n-1]
	return last.lo <= lo && last.hi >= hi
}

// addSet adds every element of s.
func (b *patternSetBuilder) addSet(s patternSet) {
	for _, sp := range s {
		b.add(sp.lo, sp.hi)
	}
}

// set returns the accumulated set.
func (b *patternSetBuilder) set() patternSet {
	if len(b.spans) == 0 {
		return nil
	}
	if !b.sorted {
		sort.Slice(b.spans, func(i, j int) bool { return b.spans[i].lo < b.spans[j].lo })
	}
	out := b.spans[:1]
	for _, sp := range b.spans[1:] {
		last := &out[len(out)-1]
		if sp.lo <= last.hi {
			last.hi = max(last.hi, sp.hi)
			continue
		}
		out = append(out, sp)
	}
	return patternSet(out)
}

// patternFold maps c to lower case as bash does for case-insensitive
// matching: towlower for upper-case characters in C.UTF-8, or ASCII
// tolower for bytes.
func patternFold(c int32, byteMode bool) int32 {
	if byteMode || c < utf8.RuneSelf {
		if c >= 'A' && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	return unicode.ToLower(c)
}

// patternClass reports whether c is in the POSIX character class name as
// glibc's C.UTF-8 locale defines it (1), is not (0), or whether name is
// not a class (-1). In byte mode only ASCII characters are classified.
func patternClass(c int32, name string, byteMode bool) int {
	var in bool
	switch name {
	case "ascii":
		in = c < utf8.RuneSelf
	case "alnum":
		in = patternIsAlpha(c, byteMode) || patternIsDigit(c)
	case "alpha":
		in = patternIsAlpha(c, byteMode)
	case "blank":
		in = patternIsBlank(c, byteMode)
	case "cntrl":
		in = patternIsCntrl(c, byteMode)
	case "digit":
		in = patternIsDigit(c)
	case "graph":
		in = patternIsPrint(c, byteMode) && !patternIsSpace(c, byteMode)
	case "lower":
		in = patternIsLower(c, byteMode)
	case "print":
		in = patternIsPrint(c, byteMode)
	case "punct":
		in = patternIsPrint(c, byteMode) && !patternIsSpace(c, byteMode) &&
			!patternIsAlpha(c, byteMode) && !patternIsDigit(c)
	case "space":
		in = patternIsSpace(c, byteMode)
	case "upper":
		in = patternIsUpper(c, byteMode)
	case "word":
		in = patternIsAlpha(c, byteMode) || patternIsDigit(c) || c == '_'
	case "xdigit":
		in = patternIsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
	case "combining":
		if byteMode {
			return -1
		}
		in = unicode.In(c, unicode.Mn, unicode.Mc, unicode.Me)
	default:
		return -1
	}
	if in {
		return 1
	}
	return 0
}

// The classification below follows glibc's generator for its UTF-8
// locales (localedata/unicode-gen), which C.UTF-8 uses.

func patternIsDigit(c int32) bool { return c >= '0' && c <= '9' }

func patternIsAlpha(c int32, byteMode bool) bool {
	if c < utf8.RuneSelf || byteMode {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
	}
	// Alphabetic, plus the non-ASCII decimal digits (ISO C reserves the
	// digit class for 0-9).
	return unicode.IsLetter(c) || unicode.In(c, unicode.Nl, unicode.Other_Alphabetic, unicode.Nd)
}

func patternIsUpper(c int32, byteMode bool) bool {
	if c < utf8.RuneSelf || byteMode {
		return c >= 'A' && c <= 'Z'
	}
	return unicode.ToLower(c) != c || unicode.In(c, unicode.Lu, unicode.Other_Uppercase)
}

func patternIsLower(c int32, byteMode bool) bool {
	if c < utf8.RuneSelf || byteMode {
		return c >= 'a' && c <= 'z'
	}
	return unicode.ToUpper(c) != c || c == 0xdf || unicode.In(c, unicode.Ll, unicode.Other_Lowercase)
}

// patternNoBreak reports the spaces that glibc does not count as spaces.
func patternNoBreak(c int32) bool { return c == 0xa0 || c == 0x2007 || c == 0x202f }

func patternIsSpace(c int32, byteMode bool) bool {
	if c < utf8.RuneSelf || byteMode {
		return c == ' ' || (c >= '\t' && c <= '\r')
	}
	return unicode.In(c, unicode.Zl, unicode.Zp, unicode.Zs) && !patternNoBreak(c)
}

func patternIsBlank(c int32, byteMode bool) bool {
	if c < utf8.RuneSelf || byteMode {
		return c == ' ' || c == '\t'
	}
	return unicode.Is(unicode.Zs, c) && !patternNoBreak(c)
}

func patternIsCntrl(c int32, byteMode bool) bool {
	if c < utf8.RuneSelf || byteMode {
		return c < ' ' || c == 0x7f
	}
	return unicode.In(c, unicode.Cc, unicode.Zl, unicode.Zp)
}

func patternIsPrint(c int32, byteMode bool) bool {
	if c < utf8.RuneSelf || byteMode {
		return c >= ' ' && c < 0x7f
	}
	// Assigned, and neither a control nor a line or paragraph separator.
	return unicode.In(c, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S,
		unicode.Zs, unicode.Cf, unicode.Co)
}

// patternCollName returns the character named by the POSIX name of a
// member of the portable character set, as usable in a collating symbol
// [.name.].
func patternCollName(name string) (int32, bool) {
	const controls = "NUL SOH STX ETX EOT ENQ ACK alert BS HT LF VT FF CR SO SI " +
		"DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC IS4 IS3 IS2 IS1"
	for i, c := range strings.Fields(controls) {
		if c == name {
			return int32(i), true
		}
	}
	switch name {
	case "backspace":
		return '\b', true
	case "tab":
		return '\t', true
	case "newline":
		return '\n', true
	case "vertical-tab":
		return '\v', true
	case "form-feed":
		return '\f', true
	case "carriage-return":
		return '\r', true
	case "FS":
		return 28, true
	case "GS":
		return 29, true
	case "RS":
		return 30, true
	case "US":
		return 31, true
	case "space":
		return ' ', true
	case "exclamation-mark":
		return '!', true
	case "quotation-mark":
		return '"', true
	case "number-sign":
		return '#', true
	case "dollar-sign":
		return '$', true
	case "percent-sign":
		return '%', true
	case "ampersand":
		return '&', true
	case "apostrophe":
		return '\'', true
	case "left-parenthesis":
		return '(', true
	case "right-parenthesis":
		return ')', true
	case "asterisk":
		return '*', true
	case "plus-sign":
		return '+', true
	case "comma":
		return ',', true
	case "hyphen", "hyphen-minus", "minus", "dash":
		return '-', true
	case "period", "full-stop":
		return '.', true
	case "slash", "solidus":
		return '/', true
	case "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine":
		for i, d := range strings.Fields("zero one two three four five six seven eight nine") {
			if d == name {
				return '0' + int32(i), true
			}
		}
	case "colon":
		return ':', true
	case "semicolon":
		return ';', true
	case "less-than-sign":
		return '<', true
	case "equals-sign":
		return '=', true
	case "greater-than-sign":
		return '>', true
	case "question-mark":
		return '?', true
	case "commercial-at":
		return '@', true
	case "left-square-bracket":
		return '[', true
	case "backslash", "reverse-solidus":
		return '\\', true
	case "right-square-bracket":
		return ']', true
	case "circumflex", "circumflex-accent":
		return '^', true
	case "underscore":
		return '_', true
	case "grave-accent":
		return '`', true
	case "left-brace", "left-curly-bracket":
		return '{', true
	case "vertical-line":
		return '|', true
	case "right-brace", "right-curly-bracket":
		return '}', true
	case "tilde":
		return '~', true
	case "DEL":
		return 0x7f, true
	}
	return 0, false
}
