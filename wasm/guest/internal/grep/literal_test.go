package grep

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
)

func TestRequiredLiteral(t *testing.T) {
	tests := []struct {
		pat   string
		opts  posixre.Options
		lit   string
		exact bool
	}{
		{"foo", posixre.Options{}, "foo", true},
		{"fo*ba", posixre.Options{}, "ba", false},
		{"a.c", posixre.Options{}, "a", false},
		{"abc\\.def", posixre.Options{}, "abc.def", false},
		{"x+yz", posixre.Options{}, "x+yz", true},
		{"x+yz", posixre.Options{Extended: true}, "yz", false},
		{"ab|cd", posixre.Options{Extended: true}, "", false},
		{"ab\\|cd", posixre.Options{}, "", false},
		{"\\(ab\\)*cde", posixre.Options{}, "cde", false},
		{"(ab)?cd", posixre.Options{Extended: true}, "cd", false},
		{"[[:alpha:]]xyz[a-]", posixre.Options{}, "xyz", false},
		{"^hello$", posixre.Options{}, "hello", false},
		{"a\\{2\\}bb", posixre.Options{}, "bb", false},
		{"a{2}bb", posixre.Options{Extended: true}, "bb", false},
		{"héllo*", posixre.Options{}, "héll", false},
		{"foo", posixre.Options{IgnoreCase: true}, "", false},
		{"foo", posixre.Options{Word: true}, "foo", false},
		{"a.b", posixre.Options{Fixed: true}, "a.b", true},
		{"\\bfoo", posixre.Options{}, "foo", false},
	}
	for _, tc := range tests {
		lit, exact := requiredLiteral([]string{tc.pat}, tc.opts)
		if lit != tc.lit || exact != tc.exact {
			t.Errorf("requiredLiteral(%q, %+v) = %q, %v; want %q, %v", tc.pat, tc.opts, lit, exact, tc.lit, tc.exact)
		}
	}
}

func TestRequiredLiteralPrefersRare(t *testing.T) {
	lit, exact := requiredLiteral([]string{"[0-9]+ [A-Z][0-9]X"}, posixre.Options{Extended: true})
	if lit != "X" || exact {
		t.Errorf("got %q, %v; want \"X\", false", lit, exact)
	}
}
