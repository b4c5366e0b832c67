package posixre

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pat  string
		opts Options
		in   string
		want bool
	}{
		{`a*b`, Options{}, "xaab", true},
		{`*a`, Options{}, "*a", true},
		{`^*a`, Options{}, "*a", true},
		{`a\{2\}`, Options{}, "aa", true},
		{`a\{2\}`, Options{}, "ab", false},
		{`a{2}`, Options{}, "a{2}", true},
		{`a{2}`, Options{Extended: true}, "aa", true},
		{`a{1`, Options{Extended: true}, "a{1", true},
		{`a+b`, Options{}, "a+b", true},
		{`a\+b`, Options{}, "aab", true},
		{`a|b`, Options{}, "a|b", true},
		{`a\|b`, Options{}, "b", true},
		{`(a)`, Options{}, "(a)", true},
		{`\(a\)\1`, Options{}, "aa", true},
		{`\(a\)\1`, Options{}, "ab", false},
		{`(ab|cd)\1`, Options{Extended: true}, "cdcd", true},
		{`(ab|cd)\1`, Options{Extended: true}, "abcd", false},
		{`\(a*\)b\1$`, Options{}, "aabaa", true},
		{`\(a*\)b\1$`, Options{}, "aaba", true},
		{`^\(.*\)\1$`, Options{}, "abcabc", true},
		{`^\(.*\)\1$`, Options{}, "abcab", false},
		{`\(A\)\1`, Options{IgnoreCase: true}, "aA", true},
		{`[[:digit:]]\+`, Options{}, "x12", true},
		{`[]a]`, Options{}, "]", true},
		{`[^]a]`, Options{}, "]", false},
		{`[a\]`, Options{}, `\`, true},
		{`[a-c]x`, Options{}, "bx", true},
		{`x$y`, Options{}, "x$y", true},
		{`a^b`, Options{}, "a^b", true},
		{`^ab$`, Options{Extended: true}, "ab", true},
		{`\<foo\>`, Options{}, "a foo b", true},
		{`\<foo\>`, Options{}, "afoo", false},
		{`\<[.]`, Options{}, "a .b", false},
		{`\<`, Options{}, "  ", false},
		{`\bfoo`, Options{}, "a foo", true},
		{`\w\+`, Options{}, "--", false},
		{`\s`, Options{}, "a b", true},
		{`a.c`, Options{Fixed: true}, "abc", false},
		{`a.c`, Options{Fixed: true}, "xa.c", true},
		{`foo`, Options{Word: true}, "foobar foo", true},
		{`foo`, Options{Word: true}, "foobar", false},
		{`ab*`, Options{Word: true}, "abbbc ab", true},
		{`\(a\)\1`, Options{Word: true}, "aaa aa", true},
		{`\(a\)\1`, Options{Word: true}, "aaa", false},
		{`a.`, Options{Line: true}, "ab", true},
		{`a.`, Options{Line: true}, "abc", false},
		{`HELLO`, Options{IgnoreCase: true}, "hello", true},
		{`x\{1001\}`, Options{}, strings.Repeat("x", 1001), true},
		{``, Options{}, "anything", true},
	}
	for _, tc := range tests {
		re, err := Compile([]string{tc.pat}, tc.opts)
		if err != nil {
			t.Errorf("Compile(%q): %v", tc.pat, err)
			continue
		}
		got, err := re.Match([]byte(tc.in))
		if err != nil || got != tc.want {
			t.Errorf("%q %+v on %q = %v, %v; want %v", tc.pat, tc.opts, tc.in, got, err, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		pat string
		ere bool
		err error
	}{
		{`[a`, false, ErrBrack},
		{`x[`, false, ErrInvalid},
		{`\(a`, false, ErrParen},
		{`a\)`, false, ErrRParen},
		{`(a`, true, ErrParen},
		{`\1`, false, ErrBackref},
		{`\(a\2\)`, false, ErrBackref},
		{`a\`, false, ErrEscape},
		{`a\{1`, false, ErrBrace},
		{`a\{2,1\}`, false, ErrBadBrace},
		{`[[:foo:]]`, false, ErrCtype},
		{`[:space:]`, false, ErrClassSyntax},
		{`[z-a]`, false, ErrRange},
		{`\{1\}`, false, ErrBadRepeat},
	}
	for _, tc := range tests {
		_, err := Compile([]string{tc.pat}, Options{Extended: tc.ere})
		if !errors.Is(err, tc.err) {
			t.Errorf("Compile(%q) error %v, want %v", tc.pat, err, tc.err)
		}
	}
}

func TestFindAll(t *testing.T) {
	tests := []struct {
		pat  string
		opts Options
		in   string
		want string
	}{
		{`a*`, Options{}, "baaac aa", "[1,4) [6,8)"},
		{`^a`, Options{}, "aaa", "[0,1)"},
		{`\(ab\)\1`, Options{}, "ababxabab", "[0,4) [5,9)"},
		{`foo`, Options{Word: true}, "foo foo xfoo foo", "[0,3) [4,7) [13,16)"},
		{`o[a-z]`, Options{}, "fox over", "[1,3) [4,6)"},
		{`x\|xy`, Options{}, "xy", "[0,2)"},
		{`\(x\)\1*`, Options{}, "xxxy", "[0,3)"},
	}
	for _, tc := range tests {
		re, err := Compile([]string{tc.pat}, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if err := re.FindAll([]byte(tc.in), func(s, e int) bool {
			got = append(got, fmt.Sprintf("[%d,%d)", s, e))
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("FindAll(%q, %q) = %s, want %s", tc.pat, tc.in, g, tc.want)
		}
	}
}

func TestMultiplePatterns(t *testing.T) {
	re, err := Compile([]string{`\(a\)\1`, `zz`}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]bool{"xaa": true, "zz": true, "az": false} {
		if got, _ := re.Match([]byte(in)); got != want {
			t.Errorf("Match(%q) = %v", in, got)
		}
	}
}

// A catastrophic pattern must give up with ErrTooComplex, not hang (the
// subject holds the b every match needs, so no prefilter answers first).
func TestBudget(t *testing.T) {
	re, err := Compile([]string{`\(\(a*\)*\)*b\1`}, Options{Budget: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = re.Match([]byte(strings.Repeat("a", 40) + "b"))
	if !errors.Is(err, ErrTooComplex) {
		t.Errorf("Match error %v, want ErrTooComplex", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}
