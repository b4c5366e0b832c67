package bashprintf

import "testing"

// TestEcho: bash's echo builtin and GNU echo, as bash 5.2 and coreutils
// 9.1 print these words.
func TestEcho(t *testing.T) {
	for _, c := range []struct {
		args       []string
		bash, gnu  string
		xpgEscapes bool
	}{
		{[]string{"a", "b"}, "a b\n", "a b\n", false},
		{[]string{"-n", "a"}, "a", "a", false},
		{[]string{"-neE", `a\tb`}, `a\tb`, `a\tb`, false},
		{[]string{"-e", "-n", `a\tb`}, "a\tb", "a\tb", false},
		{[]string{"-x", "a"}, "-x a\n", "-x a\n", false},
		{[]string{"-", "a"}, "- a\n", "- a\n", false},
		{[]string{"-e", `\E`}, "\033\n", "\\E\n", false},
		{[]string{"-e", `\u41`}, "A\n", "\\u41\n", false},
		{[]string{"-e", `\1018`}, "\\1018\n", "A8\n", false},
		{[]string{"-e", `\0101`, `\08`}, "A \x008\n", "A \x008\n", false},
		{[]string{"-e", `\x41\x`, `\"\'\?`}, "A\\x \\\"\\'\\?\n", "A\\x \\\"\\'\\?\n", false},
		{[]string{"-e", `x\\c`, `a\cb`, "c"}, "x\\c a", "x\\c a", false},
		{[]string{`a\tb`}, "a\tb\n", "a\tb\n", true},
		{[]string{"-E", `a\tb`}, "a\\tb\n", "a\\tb\n", true},
	} {
		var o Options
		if got := o.Echo(c.args, c.xpgEscapes, false); got != c.bash {
			t.Errorf("bash echo %q: got %q, want %q", c.args, got, c.bash)
		}
		if got := o.Echo(c.args, c.xpgEscapes, true); got != c.gnu {
			t.Errorf("GNU echo %q: got %q, want %q", c.args, got, c.gnu)
		}
	}
}
