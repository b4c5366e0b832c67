package posixre

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestDFAAgainstRegexp(t *testing.T) {
	exprs := []string{`(?s)(?:^|\W)(foo)(?:\W|$)`, `(?s)(?:[0-9]+ [A-Z][0-9]X)`, `(?s)^(?:a|b)$`, `(?s)(?:x*)`, `(?s)^$`, `(?s)a$`, `(?s)\Aab`, `(?si)(?:k)`, `(?s)(?:(?:north)|(?:K7)|(?:2024-13))`, `(?s)a.c`, `(?s)[^a]b`}
	subjects := []string{"", "foo", "foo bar", "xfoo", "a foo.", "12 K7X", "1 A1X", "a", "b", "ab", "c", "xa", "\u212a", "k", "K", "north", "aéc", "abc", "éb", "\xffb", "2024-13"}
	for _, e := range exprs {
		d := newDFA(e, false)
		if d == nil {
			t.Errorf("%s: no DFA", e)
			continue
		}
		re := regexp.MustCompile(e)
		for _, s := range subjects {
			m, ok := d.match([]byte(s))
			if !ok {
				continue
			}
			if want := re.MatchString(s); m != want {
				t.Errorf("%s on %q: got %v, want %v", e, s, m, want)
			}
		}
	}
}

// TestDFARandom compares the automaton with package regexp over random
// expressions and subjects.
func TestDFARandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	atoms := []string{"a", "b", "ab", ".", "[ab]", "[^a]", "[0-9]", "\\W", "^", "$", "(a|bc)", "x", "(?i:k)", "é"}
	ops := []string{"", "", "*", "+", "?", "{2}", "{1,3}"}
	alphabet := []string{"a", "b", "c", "x", "0", " ", "é", "K", "\xff"}
	for range 3000 {
		var e strings.Builder
		e.WriteString("(?s)")
		for range 1 + r.IntN(4) {
			e.WriteString("(?:" + atoms[r.IntN(len(atoms))] + ")" + ops[r.IntN(len(ops))])
			if r.IntN(5) == 0 {
				e.WriteString("|")
			}
		}
		re, err := regexp.Compile(e.String())
		if err != nil {
			continue
		}
		d := newDFA(e.String(), false)
		if d == nil {
			t.Fatalf("%s: no DFA", e.String())
		}
		for range 20 {
			var s strings.Builder
			for range r.IntN(14) {
				s.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			m, ok := d.match([]byte(s.String()))
			if ok && m != re.MatchString(s.String()) {
				t.Fatalf("%s on %q: got %v", e.String(), s.String(), m)
			}
		}
	}
}

// randomExpr returns a random expression in Go syntax (with (?s)) and a
// random subject maker, for the automata's random tests.
func randomCase(r *rand.Rand) (string, func(nl bool) string) {
	atoms := []string{"a", "b", "ab", ".", "[ab]", "[^a]", "[0-9]", "^", "$", "(a|bc)", "x", "(?i:k)", "é", "(a*)", "(b|)"}
	ops := []string{"", "", "*", "+", "?", "{2}", "{1,3}"}
	alphabet := []string{"a", "b", "c", "x", "0", " ", "K", "bc"}
	var e strings.Builder
	e.WriteString("(?s)")
	for range 1 + r.IntN(4) {
		e.WriteString("(?:" + atoms[r.IntN(len(atoms))] + ")" + ops[r.IntN(len(ops))])
		if r.IntN(5) == 0 {
			e.WriteString("|")
		}
	}
	return e.String(), func(nl bool) string {
		var s strings.Builder
		for range r.IntN(14) {
			if nl && r.IntN(5) == 0 {
				s.WriteByte('\n')
			}
			s.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return s.String()
	}
}

// TestCountLinesRandom compares the one-pass line counter with matching
// the lines one by one.
func TestCountLinesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		e, subject := randomCase(r)
		re, err := regexp.Compile(e)
		if err != nil {
			continue
		}
		d := newDFA(e, false)
		d.setEOL('\n')
		for range 10 {
			s := subject(true)
			m, n, ok := d.countLines([]byte(s), '\n')
			if !ok {
				continue
			}
			wm, wn := 0, 0
			if s != "" {
				for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
					wn++
					if re.MatchString(line) {
						wm++
					}
				}
			}
			if m != wm || n != wn {
				t.Fatalf("%s on %q: %d of %d lines, want %d of %d", e, s, m, n, wm, wn)
			}
		}
	}
}

// TestLocateRandom compares the anchored automaton's leftmost-longest
// search with package regexp's.
func TestLocateRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 3000 {
		e, subject := randomCase(r)
		re, err := regexp.Compile(e)
		if err != nil {
			continue
		}
		re.Longest()
		rx := &Regexp{expr: e, dfa: newDFA(e, false), ngrp: []int{0}}
		for k := range 20 {
			s := subject(false)
			if k%2 == 1 { // past ASCII: what the automaton declines
				s += []string{"é", "\xff", "ü"}[k%3] + subject(false)
			}
			st, en, ok := rx.locate([]byte(s), 0)
			if !ok {
				continue
			}
			want := re.FindStringIndex(s)
			if want == nil && st >= 0 || want != nil && (st != want[0] || en != want[1]) {
				t.Fatalf("%s on %q: [%d %d], want %v", e, s, st, en, want)
			}
		}
	}
}

// TestSubmatchRandom compares the submatch searches (the automata locate
// each match, Go's regexp finds its groups on the match alone) with Go's
// regexp run on the whole subject, over random EREs with groups.
func TestSubmatchRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	atoms := []string{"a", "b", "ab", ".", "[ab]", "[^a]", "[0-9]", "(a|bc)", "(a*)", "(b|)", "(x+)", "([0-9]+)-"}
	ops := []string{"", "", "*", "+", "?", "{2}", "{1,3}"}
	alphabet := []string{"a", "b", "c", "x", "0", "12", "-", " ", "bc"}
	for range 2000 {
		var e strings.Builder
		for range 1 + r.IntN(4) {
			a := atoms[r.IntN(len(atoms))]
			op := ops[r.IntN(len(ops))]
			if op != "" && !strings.HasPrefix(a, "(") && len(a) > 1 && a[0] != '[' {
				a = "(" + a + ")"
			}
			e.WriteString(a + op)
		}
		re, err := Compile([]string{e.String()}, Options{Extended: true, Sed: true})
		if err != nil || re.re == nil {
			continue
		}
		for range 10 {
			var s strings.Builder
			for range r.IntN(12) {
				s.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			b := []byte(s.String())
			var got [][]int
			if err := re.ForEachSubmatch(b, 2*(re.NumSubexp()+1), func(caps []int) bool {
				got = append(got, append([]int(nil), caps...))
				return true
			}); err != nil {
				t.Fatal(err)
			}
			want := re.re.FindAllSubmatchIndex(b, -1)
			if len(got) != len(want) {
				t.Fatalf("%s on %q: %v, want %v", e.String(), b, got, want)
			}
			for i := range got {
				if !slices.Equal(got[i], want[i]) {
					t.Fatalf("%s on %q: %v, want %v", e.String(), b, got, want)
				}
			}
			caps := make([]int, 2*(re.NumSubexp()+1))
			ok, _ := re.FindSubmatch(b, caps)
			if ok != (len(want) > 0) || ok && !slices.Equal(caps, want[0]) {
				t.Fatalf("%s on %q: first %v %v, want %v", e.String(), b, ok, caps, want)
			}
		}
	}
}

// TestFirstLineRandom walks random buffers of lines with FirstLine,
// testing the lines it cannot decide (bytes past ASCII) one by one, and
// compares the lines found with matching every line on its own.
func TestFirstLineRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	alphabet := []string{"a", "b", "c", "x", "0", " ", "K", "é", "\xff", "\n"}
	for range 3000 {
		e, _ := randomCase(r)
		re, err := regexp.Compile(e)
		if err != nil {
			continue
		}
		rx := &Regexp{expr: e, re: re, dfa: newDFA(e, false), ngrp: []int{0}}
		for range 10 {
			var s strings.Builder
			for range r.IntN(30) {
				s.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			b := []byte(s.String())
			var want, got []int // starts of matching lines
			for ls := 0; ls < len(b); {
				le := lineEnd(b, ls, '\n')
				if re.Match(bytes.TrimSuffix(b[ls:le], []byte("\n"))) {
					want = append(want, ls)
				}
				ls = le
			}
			for pos := 0; pos < len(b); {
				st, en, _, ok := rx.FirstLine(b[pos:], '\n')
				if s2, e2, ok2 := rx.NextLine(b[pos:], '\n'); s2 != st || e2 != en || ok2 != ok {
					t.Fatalf("%s on %q: NextLine %d %d %v, FirstLine %d %d %v", e, b[pos:], s2, e2, ok2, st, en, ok)
				}
				if !ok && st < 0 {
					t.Fatalf("%s on %q: cannot tell", e, b)
				}
				if st < 0 {
					break
				}
				if ok || re.Match(bytes.TrimSuffix(b[pos+st:pos+en], []byte("\n"))) {
					got = append(got, pos+st)
				}
				pos += en
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s on %q: lines at %v, want %v", e, b, got, want)
			}
		}
	}
}
