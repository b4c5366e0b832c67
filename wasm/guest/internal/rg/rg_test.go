package rg

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestIgnoreRules(t *testing.T) {
	rs := parseIgnore("# comment\n*.log\n!keep.log\nbuild/\n/top.txt\ndocs/*.md\n\\#hash\n")
	for _, c := range []struct {
		path  string
		isDir bool
		want  int
	}{
		{"a.log", false, matchIgnore},
		{"sub/b.log", false, matchIgnore},
		{"keep.log", false, matchWhitelist},
		{"build", true, matchIgnore},
		{"build", false, matchNone},
		{"x/build", true, matchIgnore},
		{"top.txt", false, matchIgnore},
		{"sub/top.txt", false, matchNone},
		{"docs/a.md", false, matchIgnore},
		{"docs/sub/a.md", false, matchNone},
		{"#hash", false, matchIgnore},
		{"main.go", false, matchNone},
	} {
		if got := rs.match(c.path, c.isDir); got != c.want {
			t.Errorf("match(%q, %v) = %d, want %d", c.path, c.isDir, got, c.want)
		}
	}
}

func TestGlobRegexp(t *testing.T) {
	for glob, want := range map[string]string{
		"*.go":     `^[^/]*\.go$`,
		"**/a":     `^(?:.*/)?a$`,
		"a/**":     `^a/.*$`,
		"[!ab]?":   `^[^ab][^/]$`,
		"*.{c,h}":  `^[^/]*\.(?:c|h)$`,
		`\*x`:      `^\*x$`,
		"a/**/b.x": `^a/(?:.*/)?b\.x$`,
	} {
		if got := globRegexp(glob); got != want {
			t.Errorf("globRegexp(%q) = %q, want %q", glob, got, want)
		}
	}
}

func TestSmartCase(t *testing.T) {
	for _, c := range []struct {
		pat  string
		want bool
	}{{"hello", false}, {"Hello", true}, {`\Shello`, false}, {`\W+x`, false}, {"ÉTÉ", true}} {
		if got := anyUpper([]string{c.pat}, false); got != c.want {
			t.Errorf("anyUpper(%q) = %v, want %v", c.pat, got, c.want)
		}
	}
}

func TestStdin(t *testing.T) {
	for _, c := range []struct {
		args []string
		in   string
		out  string
		code int
	}{
		{[]string{"rg", "b"}, "a\nb\nab\n", "b\nab\n", 0},
		{[]string{"rg", "-n", "-w", "b"}, "a\nb\nab\n", "2:b\n", 0},
		{[]string{"rg", "-c", "x"}, "a\n", "", 1},
		{[]string{"rg", "-o", "-r", "<$0>", "a+"}, "baab\n", "<aa>\n", 0},
		{[]string{"rg", "("}, "", "", 2},
		{[]string{"rg", "--bogus", "x"}, "", "", 2},
	} {
		out, _, code := tool.Exec(Main, c.in, c.args...)
		if out != c.out || code != c.code {
			t.Errorf("%q: got (%d) %q, want (%d) %q", c.args, code, out, c.code, c.out)
		}
	}
}
