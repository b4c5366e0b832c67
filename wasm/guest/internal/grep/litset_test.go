package grep

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
)

// TestLitSetIndex checks index and successive scans against a plain
// search for each string, over random text from a small alphabet (so
// strings overlap, share anchors and recur), with and without folding.
func TestLitSetIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcAB-1\n"
	word := func(n int) string {
		var b strings.Builder
		for range n {
			c := alphabet[rng.IntN(len(alphabet)-1)] // no line ends in strings
			b.WriteByte(c)
		}
		return b.String()
	}
	for round := range 2000 {
		fold := round%2 == 1
		n := 1 + rng.IntN(maxNeedles)
		if fold {
			n = 1 + rng.IntN(maxNeedles/2)
		}
		pats := make([]string, n)
		for i := range pats {
			pats[i] = word(1 + rng.IntN(4))
		}
		text := []byte(word(rng.IntN(200)) + "\n" + word(rng.IntN(200)))
		for i := range text {
			if rng.IntN(10) == 0 {
				text[i] = '\n'
			}
		}
		s := newLitSet(pats, posixre.Options{Fixed: true, IgnoreCase: fold}, '\n')
		if s == nil {
			t.Fatalf("no set for %q", pats)
		}
		if !s.exact {
			t.Errorf("%q: fixed strings not exact", pats)
		}
		hay := text
		if fold {
			hay = bytes.ToLower(text)
		}
		// Every line start, searched in order through one scan.
		sc := s.scan(text)
		for from := 0; from <= len(text); {
			want := -1
			for _, p := range pats {
				if fold {
					p = strings.ToLower(p)
				}
				if k := bytes.Index(hay[from:], []byte(p)); k >= 0 && (want < 0 || from+k < want) {
					want = from + k
				}
			}
			got := sc.index(from)
			if (got < 0) != (want < 0) || got >= 0 && lineOf(text, got) != lineOf(text, want) {
				t.Fatalf("%q fold %v in %q from %d: got %d, want %d (its line)", pats, fold, text, from, got, want)
			}
			k := bytes.IndexByte(text[from:], '\n')
			if k < 0 {
				break
			}
			from += k + 1
		}
	}
}

// lineOf returns the start of the line holding b[i].
func lineOf(b []byte, i int) int { return bytes.LastIndexByte(b[:i], '\n') + 1 }

func TestLitSetDeclines(t *testing.T) {
	tests := []struct {
		pats []string
		opts posixre.Options
		ok   bool
	}{
		{[]string{"a", "b", "c", "d"}, posixre.Options{Fixed: true}, true},
		{[]string{"a", "b", "c", "d", "e"}, posixre.Options{Fixed: true}, false},
		{[]string{"a", "b", "c"}, posixre.Options{Fixed: true, IgnoreCase: true}, false},
		{[]string{"ab", "x"}, posixre.Options{Fixed: true, IgnoreCase: true}, true},
		{[]string{"ask"}, posixre.Options{Fixed: true, IgnoreCase: true}, false}, // k folds to U+212A
		{[]string{"é"}, posixre.Options{Fixed: true, IgnoreCase: true}, false},
		{[]string{"a", ""}, posixre.Options{Fixed: true}, false},
		{[]string{"a.c", "xy+"}, posixre.Options{Extended: true}, true},
		{[]string{"a.c", "x|y"}, posixre.Options{Extended: true}, false},
	}
	for _, tc := range tests {
		if s := newLitSet(tc.pats, tc.opts, '\n'); (s != nil) != tc.ok {
			t.Errorf("newLitSet(%q, %+v) = %v, want a set: %v", tc.pats, tc.opts, s, tc.ok)
		}
	}
	s := newLitSet([]string{"ab", "cd"}, posixre.Options{Fixed: true, Word: true}, '\n')
	if s == nil || s.exact {
		t.Errorf("-w set: got %+v, want an inexact set", s)
	}
}
