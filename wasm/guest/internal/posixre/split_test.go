package posixre

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSplitterAgrees compares the groups the splitter finds with those of
// the path it stands in for (Go's regexp on the located match), over
// random patterns built of parts of its shape and random text in which
// they often match.
func TestSplitterAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	parts := []string{"[0-9]+", "[0-9]*", "[a-c]{1,2}", "[^,]*", "-", ",", "x", ".", "a", "[[:alpha:]]+", "^", "$", "A*"}
	const alphabet = "0123456789-,xabcA é"
	tried := 0
	for range 3000 {
		var pat strings.Builder
		for range 1 + rng.IntN(5) {
			p := parts[rng.IntN(len(parts))]
			if rng.IntN(2) == 0 && p != "^" && p != "$" {
				p = "(" + p + ")"
			}
			pat.WriteString(p)
		}
		icase := rng.IntN(4) == 0
		opts := Options{Extended: true, Sed: true, IgnoreCase: icase}
		re, err := Compile([]string{pat.String()}, opts)
		if err != nil || re.NumSubexp() == 0 {
			continue
		}
		sp := newSplitter(re.trees[0], re.ngrp[0], icase, true)
		if sp == nil {
			continue
		}
		tried++
		// The same pattern without the splitter: Go's regexp finds the
		// groups.
		plain, _ := Compile([]string{pat.String()}, opts)
		plain.splitTried = true
		for range 20 {
			var text strings.Builder
			for range rng.IntN(12) {
				text.WriteByte(alphabet[rng.IntN(len(alphabet))])
			}
			b := []byte(text.String())
			n := 2 * (re.NumSubexp() + 1)
			got, want := make([]int, n), make([]int, n)
			okGot, err1 := re.FindSubmatch(b, got)
			okWant, err2 := plain.FindSubmatch(b, want)
			if err1 != nil || err2 != nil || okGot != okWant || okGot && !slices.Equal(got, want) {
				t.Fatalf("%q (icase %v) on %q: got %v %v %v, want %v %v %v", pat.String(), icase, b, okGot, got, err1, okWant, want, err2)
			}
		}
	}
	if tried < 500 {
		t.Errorf("only %d patterns had the splitter's shape", tried)
	}
}

func TestSplitterShape(t *testing.T) {
	tests := []struct {
		pat string
		ok  bool
	}{
		{`([0-9]+)-([0-9]+)-([0-9]+)`, true},
		{`^([^,]*),(.*)$`, true},
		{`(ab)c`, true},
		{`([0-9]*)5`, false},   // the repeat may give up a 5
		{`([a-z]+)x*y`, false}, // what follows may be empty
		{`(a|b)c`, false},
		{`((a)b)`, false},
		{`(ab)+`, false},
		{`(a)\1`, false},
	}
	for _, tc := range tests {
		re, err := Compile([]string{tc.pat}, Options{Extended: true})
		if err != nil {
			t.Fatal(err)
		}
		if sp := newSplitter(re.trees[0], re.ngrp[0], false, false); (sp != nil) != tc.ok {
			t.Errorf("%q: splitter %v, want one: %v", tc.pat, sp != nil, tc.ok)
		}
	}
}
