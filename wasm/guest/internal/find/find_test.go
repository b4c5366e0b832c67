package find

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestFnmatch(t *testing.T) {
	tests := []struct {
		pat, name string
		fold      bool
		want      bool
	}{
		{"*", ".hidden", false, true},
		{"*.txt", "a.txt", false, true},
		{"*.txt", "a.txt.bak", false, false},
		{"a?c", "abc", false, true},
		{"a?c", "ac", false, false},
		{"[ab]*", "bee", false, true},
		{"[!ab]*", "bee", false, false},
		{"[^ab]*", "cee", false, true},
		{"[a-c]x", "bx", false, true},
		{"[[:digit:]]*", "7up", false, true},
		{"*/b", "a/x/b", false, true},
		{`\*`, "*", false, true},
		{`\*`, "a", false, false},
		{"*.TXT", "a.txt", true, true},
		{"É*", "éa", true, true},
		{"caf?", "café", false, true},
		{"[", "[", false, true},
		{"*a*b*c", "xaybzc", false, true},
		{"*a*b*c", "xaybz", false, false},
	}
	for _, tt := range tests {
		if got := fnmatch(tt.pat, tt.name, tt.fold); got != tt.want {
			t.Errorf("fnmatch(%q, %q, %v) = %v, want %v", tt.pat, tt.name, tt.fold, got, tt.want)
		}
	}
}

func TestEmacsToERE(t *testing.T) {
	tests := map[string]string{
		`.*\.txt`:     `.*\.txt`,
		`\(a\|b\)+`:   `(a|b)+`,
		`(x)`:         `\(x\)`,
		`a{2}`:        `a\{2\}`,
		`[(|)]`:       `[(|)]`,
		`[[:alpha:]]`: `[[:alpha:]]`,
	}
	for in, want := range tests {
		if got := emacsToERE(in); got != want {
			t.Errorf("emacsToERE(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	testutil.WriteTree(t, dir, map[string]string{
		"d/a.txt": "alpha\n", "d/b.md": "", "d/sub/c.txt": "gamma gamma\n", "d/empty/": "",
	}, old)
	for _, p := range []string{"d", "d/sub", "d/empty"} {
		os.Chtimes(filepath.Join(dir, p), old, old)
	}
	t.Chdir(dir)
	t.Setenv("TZ", "UTC")
	tests := []struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		{args: []string{"find", "d"}, stdout: "d\nd/a.txt\nd/b.md\nd/empty\nd/sub\nd/sub/c.txt\n"},
		{args: []string{"find", "d", "-name", "*.txt"}, stdout: "d/a.txt\nd/sub/c.txt\n"},
		{args: []string{"find", "d", "-type", "d", "-empty"}, stdout: "d/empty\n"},
		{args: []string{"find", "d", "-type", "f", "-empty"}, stdout: "d/b.md\n"},
		{args: []string{"find", "d", "-maxdepth", "1", "-type", "f"}, stdout: "d/a.txt\nd/b.md\n"},
		{args: []string{"find", "d", "-mindepth", "2"}, stdout: "d/sub/c.txt\n"},
		{args: []string{"find", "d", "-name", "sub", "-prune", "-o", "-type", "f", "-print"}, stdout: "d/a.txt\nd/b.md\n"},
		{args: []string{"find", "d", "-size", "+6c"}, stdout: "d\nd/empty\nd/sub\nd/sub/c.txt\n"},
		{args: []string{"find", "d", "-type", "f", "-size", "-1k"}, stdout: "d/b.md\n"},
		{args: []string{"find", "d", "-mtime", "+100", "-name", "a*"}, stdout: "d/a.txt\n"},
		{args: []string{"find", "d", "-mmin", "-1"}},
		{args: []string{"find", "d", "-path", "*sub*"}, stdout: "d/sub\nd/sub/c.txt\n"},
		{args: []string{"find", "d", "-regex", `.*/[ab]\..*`}, stdout: "d/a.txt\nd/b.md\n"},
		{args: []string{"find", "d", "!", "-type", "d", "-a", "!", "-name", "*.txt"}, stdout: "d/b.md\n"},
		{args: []string{"find", "d", "(", "-name", "a.txt", "-o", "-name", "b.md", ")", "-print0"}, stdout: "d/a.txt\x00d/b.md\x00"},
		{args: []string{"find", "d", "-type", "f", "-printf", "%f %s %d %TY-%Tm-%Td %h\\n"},
			stdout: "a.txt 6 1 2020-01-02 d\nb.md 0 1 2020-01-02 d\nc.txt 12 2 2020-01-02 d/sub\n"},
		{args: []string{"find", "d", "-name", "a.txt", "-printf", "[%-6f][%6s][%P][%H]\\n"}, stdout: "[a.txt ][     6][a.txt][d]\n"},
		{args: []string{"find", "d", "-print", "-quit"}, stdout: "d\n"},
		{args: []string{"find", "d", "-depth", "-path", "d/sub*"}, stdout: "d/sub/c.txt\nd/sub\n"},
		{args: []string{"find", "nope"}, stderr: "find: 'nope': No such file or directory\n", code: 1},
		{args: []string{"find", "d", "-bogus"}, stderr: "find: unknown predicate `-bogus'\n", code: 1},
		{args: []string{"find", "d", "-name"}, stderr: "find: missing argument to `-name'\n", code: 1},
		{args: []string{"find", "d", "-type", "q"}, stderr: "find: Unknown argument to -type: q\n", code: 1},
		{args: []string{"find", "d", "("}, stderr: "find: invalid expression; I was expecting to find a ')' somewhere but did not see one.\n", code: 1},
		{args: []string{"find", "d", "-o"}, stderr: "find: invalid expression; you have used a binary operator '-o' with nothing before it.\n", code: 1},
	}
	for _, tt := range tests {
		out, errOut, code := tool.Exec(Main, "", tt.args...)
		if out != tt.stdout || errOut != tt.stderr || code != tt.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tt.args, out, errOut, code, tt.stdout, tt.stderr, tt.code)
		}
	}
}

func TestFindDeleteAndExec(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteTree(t, dir, map[string]string{"d/x.tmp": "x", "d/keep": "k", "d/s/y.tmp": "y"}, time.Now())
	t.Chdir(dir)
	if out, errOut, code := tool.Exec(Main, "", "find", "d", "-name", "*.tmp", "-delete"); out != "" || errOut != "" || code != 0 {
		t.Fatalf("-delete: %q %q %d", out, errOut, code)
	}
	out, _, _ := tool.Exec(Main, "", "find", "d")
	if out != "d\nd/keep\nd/s\n" {
		t.Errorf("after -delete: %q", out)
	}
	out, errOut, code := tool.Exec(Main, "", "find", "d", "-type", "f", "-exec", "echo", "got", "{}", ";")
	if out != "got d/keep\n" || code != 0 {
		t.Errorf("-exec ;: %q %q %d", out, errOut, code)
	}
	out, errOut, code = tool.Exec(Main, "", "find", "d", "-exec", "echo", "{}", "+")
	if out != "d d/keep d/s\n" || code != 0 {
		t.Errorf("-exec +: %q %q %d", out, errOut, code)
	}
	out, errOut, code = tool.Exec(Main, "", "find", "d/s", "-execdir", "echo", "{}", ";")
	if out != "./s\n" || code != 0 {
		t.Errorf("-execdir: %q %q %d", out, errOut, code)
	}
}

func TestReadDirChildren(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b", "a", "c.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	var l listing
	if err := readDir(dir, &l); err != nil {
		t.Fatal(err)
	}
	fd := &finder{}
	for _, parent := range []string{dir, dir + "/"} {
		kids := fd.children(&file{path: parent, start: parent, depth: 2}, &l)
		var got []string
		for _, k := range kids {
			if k.depth != 3 || k.start != parent || k.f != fd {
				t.Errorf("%s: depth %d start %q", k.path, k.depth, k.start)
			}
			got = append(got, k.path+" "+k.name()+" "+k.typ.String())
		}
		want := []string{dir + "/a a ----------", dir + "/b b ----------", dir + "/c.txt c.txt ----------", dir + "/sub sub d---------"}
		if !slices.Equal(got, want) {
			t.Errorf("children of %q = %q, want %q", parent, got, want)
		}
	}
}

// TestMatcherAgreesWithFnmatch checks the fast matcher of star-and-ASCII
// patterns against fnmatch over every pattern of up to five characters
// (enough for two parts between stars) and every name of up to five from
// small alphabets, with multibyte and invalid UTF-8 in the names.
func TestMatcherAgreesWithFnmatch(t *testing.T) {
	patChars := []string{"*", "a", "b", "/"}
	nameChars := []string{"a", "b", "/", "é", "\xff", "\xc3"}
	var words func(chars []string, n int) []string
	words = func(chars []string, n int) []string {
		if n == 0 {
			return []string{""}
		}
		out := []string{""}
		for _, w := range words(chars, n-1) {
			for _, c := range chars {
				out = append(out, w+c)
			}
		}
		return slices.Compact(slices.Sorted(slices.Values(out)))
	}
	pats, names := words(patChars, 5), words(nameChars, 5)
	fast := 0
	for _, p := range pats {
		if starsAndASCII(p) {
			fast++
		}
		m := matcher(p, false)
		for _, n := range names {
			if got, want := m(n), fnmatch(p, n, false); got != want {
				t.Fatalf("matcher(%q)(%q) = %v, fnmatch says %v", p, n, got, want)
			}
		}
	}
	if fast != len(pats) {
		t.Fatalf("%d of %d patterns took the fast way", fast, len(pats))
	}
	// Patterns the fast way must leave to fnmatch.
	for _, p := range []string{"a?", "[ab]*", `\*`, "é*", "*.TXT"} {
		if starsAndASCII(p) && p != "*.TXT" {
			t.Errorf("starsAndASCII(%q) = true", p)
		}
	}
	if m := matcher("*.TXT", true); !m("a.txt") {
		t.Errorf("matcher(*.TXT, fold) does not match a.txt")
	}
}

// BenchmarkNameMatch matches the bench table's find pattern against a
// tree's worth of names.
func BenchmarkNameMatch(b *testing.B) {
	names := make([]string, 0, 10000)
	for i := range 10000 {
		names = append(names, "f"+strings.Repeat("0", 4-len(strconv.Itoa(i)))+strconv.Itoa(i)+".txt")
	}
	for _, bc := range []struct {
		name  string
		match func(string) bool
	}{
		{"fnmatch", func(n string) bool { return fnmatch("*7*", n, false) }},
		{"matcher", matcher("*7*", false)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				k := 0
				for _, n := range names {
					if bc.match(n) {
						k++
					}
				}
				if k != 3439 {
					b.Fatalf("%d matches", k)
				}
			}
		})
	}
}
