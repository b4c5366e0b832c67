package posixre

import (
	"math/rand/v2"
	"regexp"
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
