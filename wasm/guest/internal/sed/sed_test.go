package sed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestScripts(t *testing.T) {
	tests := []struct {
		args       []string
		in, want   string
		code       int
		stderrPart string
	}{
		{[]string{"s/a/b/"}, "aaa\n", "baa\n", 0, ""},
		{[]string{"s/a/b/g"}, "aaa\nxa\n", "bbb\nxb\n", 0, ""},
		{[]string{"s/a/b/2"}, "aaa\n", "aba\n", 0, ""},
		{[]string{"s/a/b/2g"}, "aaaa\n", "abbb\n", 0, ""},
		{[]string{"s/x*/-/g"}, "abc\n", "-a-b-c-\n", 0, ""},
		{[]string{"s/a*/x/g"}, "baaac\n", "xbxcx\n", 0, ""},
		{[]string{`s/\(a\)\(b\)/\2\1/`}, "xab\n", "xba\n", 0, ""},
		{[]string{"-E", `s/(a+)(b+)/<\2\1>/`}, "aabbb\n", "<bbbaa>\n", 0, ""},
		{[]string{`s/\(.\)\1/[&]/g`}, "aabcc\n", "[aa]b[cc]\n", 0, ""},
		{[]string{`s/.*/\U&/`}, "héllo\n", "HÉLLO\n", 0, ""},
		{[]string{`s/\w\+/\u&/g`}, "ab cd\n", "Ab Cd\n", 0, ""},
		{[]string{`s/A/x/I`}, "aA\n", "xA\n", 0, ""},
		{[]string{`N;s/^b/B/M`}, "a\nb\n", "a\nB\n", 0, ""},
		{[]string{`N;s/^b/B/`}, "a\nb\n", "a\nb\n", 0, ""},
		{[]string{"s/x/y/;s//z/"}, "xxx\n", "yzx\n", 0, ""},
		{[]string{"-n", "2p"}, "a\nb\nc\n", "b\n", 0, ""},
		{[]string{"-n", "$p"}, "a\nb\nc\n", "c\n", 0, ""},
		{[]string{"-n", "/b/,/c/p"}, "a\nb\nc\nd\n", "b\nc\n", 0, ""},
		{[]string{"0,/a/d"}, "a\nb\na\n", "b\na\n", 0, ""},
		{[]string{"1,/a/d"}, "a\nb\na\nc\n", "c\n", 0, ""},
		{[]string{"-n", "0~2p"}, "1\n2\n3\n4\n", "2\n4\n", 0, ""},
		{[]string{"-n", "2,+1p"}, "1\n2\n3\n4\n", "2\n3\n", 0, ""},
		{[]string{"-n", "5,~4p"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "5\n6\n7\n8\n", 0, ""},
		{[]string{"2!d"}, "a\nb\nc\n", "b\n", 0, ""},
		{[]string{"$!N;P;D"}, "a\nb\nc\n", "a\nb\nc\n", 0, ""},
		{[]string{":a;N;$!ba;s/\\n/,/g"}, "a\nb\nc\n", "a,b,c\n", 0, ""},
		{[]string{"1!G;h;$!d"}, "a\nb\nc\n", "c\nb\na\n", 0, ""},
		{[]string{"y/abc/xyz/"}, "cab\n", "zxy\n", 0, ""},
		{[]string{"y/é/e/"}, "café\n", "cafe\n", 0, ""},
		{[]string{"2i\\\nnew"}, "a\nb\n", "a\nnew\nb\n", 0, ""},
		{[]string{"1a after"}, "a\nb\n", "a\nafter\nb\n", 0, ""},
		{[]string{"2c\\\nX"}, "a\nb\nc\n", "a\nX\nc\n", 0, ""},
		{[]string{"1,2c X"}, "a\nb\nc\n", "X\nc\n", 0, ""},
		{[]string{"="}, "a\nb\n", "1\na\n2\nb\n", 0, ""},
		{[]string{"-n", "l"}, "a\tb\x01\n", "a\\tb\\001$\n", 0, ""},
		{[]string{"-n", "l 5"}, "abcdefgh\n", "abcd\\\nefgh$\n", 0, ""},
		{[]string{"2q"}, "a\nb\nc\n", "a\nb\n", 0, ""},
		{[]string{"2q5"}, "a\nb\nc\n", "a\nb\n", 5, ""},
		{[]string{"2Q3"}, "a\nb\nc\n", "a\n", 3, ""},
		{[]string{"n;d"}, "1\n2\n3\n", "1\n3\n", 0, ""},
		{[]string{"s/x/X/;T;s/$/!/"}, "x\ny\n", "X!\ny\n", 0, ""},
		{[]string{"s/x/X/;ta;s/$/?/;:a"}, "x\ny\n", "X\ny?\n", 0, ""},
		{[]string{"p"}, "no newline", "no newline\nno newline", 0, ""},
		{[]string{"-n", "p"}, "no newline", "no newline", 0, ""},
		{[]string{"-z", "s/^/>/"}, "a\x00b\x00", ">a\x00>b\x00", 0, ""},
		{[]string{"#n\np"}, "a\n", "a\n", 0, ""},
		{[]string{"s/b/x"}, "", "", 1, "-e expression #1, char 5: unterminated `s' command"},
		{[]string{`s/\(/x/`}, "", "", 1, "Unmatched ( or \\("},
		{[]string{"k"}, "", "", 1, "unknown command: `k'"},
		{[]string{"b nowhere"}, "", "", 4, "can't find label for jump to `nowhere'"},
		{[]string{"p", "/nonexistent/file"}, "", "", 2, "can't read /nonexistent/file"},
		{[]string{"--bogus"}, "", "", 1, "unrecognized option '--bogus'"},
		{[]string{}, "", "", 1, "Usage: sed"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errOut, code := tool.Exec(Main, tt.in, append([]string{"sed"}, tt.args...)...)
			if out != tt.want || code != tt.code {
				t.Errorf("got %q exit %d, want %q exit %d (stderr %q)", out, code, tt.want, tt.code, errOut)
			}
			if !strings.Contains(errOut, tt.stderrPart) {
				t.Errorf("stderr %q lacks %q", errOut, tt.stderrPart)
			}
		})
	}
}

func TestInPlace(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	if err := os.WriteFile(f, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := tool.Exec(Main, "", "sed", "-i.bak", "-e", "s/o/0/g", "-e", "w "+filepath.Join(dir, "w"), f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for name, want := range map[string]string{"f": "0ne\ntw0\n", "f.bak": "one\ntwo\n", "w": "0ne\ntw0\n"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("left %d files behind, want 3 (no temporary file)", len(entries))
	}
}

func TestBackupName(t *testing.T) {
	tests := []struct{ name, suffix, want string }{
		{"f", ".bak", "f.bak"},
		{"d/f", "~", "d/f~"},
		{"d/f", "old_*", "d/old_f"},
		{"d/f", "bak/*.1", "bak/f.1"},
	}
	for _, tt := range tests {
		if got := backupName(tt.name, tt.suffix); got != tt.want {
			t.Errorf("backupName(%q, %q) = %q, want %q", tt.name, tt.suffix, got, tt.want)
		}
	}
}

func TestRegex(t *testing.T) {
	tests := []struct {
		pat        string
		ere, icase bool
		in         string
		want       string // the first match, or "-" for none
		err        string
	}{
		{pat: `a\+b`, in: "xaab", want: "aab"},
		{pat: `a|b`, in: "a|b", want: "a|b"},
		{pat: `a|b`, ere: true, in: "xb", want: "b"},
		{pat: `\(ab\)*`, in: "ababx", want: "abab"},
		{pat: `\(a\)\1`, in: "xaa", want: "aa"},
		{pat: `(a|ab)(c|bcd)`, ere: true, in: "abcd", want: "abcd"},
		{pat: `[[:digit:]]\{2\}`, in: "a123", want: "12"},
		{pat: `[]a]`, in: "x]", want: "]"},
		{pat: `[^[:space:]]*`, in: "ab c", want: "ab"},
		{pat: `\<b`, in: "ab b", want: "b"},
		{pat: `x`, icase: true, in: "aX", want: "X"},
		{pat: `é.`, in: "café!", want: "é!"},
		{pat: `\n`, in: "a\nb", want: "\n"},
		{pat: `^*a`, in: "*a", want: "*a"},
		{pat: `a\{1`, err: "Unmatched \\{"},
		{pat: `\(a`, err: "Unmatched ( or \\("},
		{pat: `a\)`, err: "Unmatched ) or \\)"},
		{pat: `[a`, err: "Unmatched [, [^, [:, [., or [="},
		{pat: `\1`, err: "Invalid back reference"},
		{pat: `*a`, ere: true, err: "Invalid preceding regular expression"},
		{pat: `[[:nope:]]`, err: "Invalid character class name"},
	}
	for _, tt := range tests {
		re, err := compileRegex(tt.pat, tt.ere, tt.icase, false)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: err = %v, want %q", tt.pat, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.pat, err)
			continue
		}
		caps := make([]int, 2*(re.NumSubexp()+1))
		ok, err := re.FindSubmatch([]byte(tt.in), caps)
		got := "-"
		if ok {
			got = tt.in[caps[0]:caps[1]]
		}
		if err != nil || got != tt.want {
			t.Errorf("%q on %q = %q, %v; want %q", tt.pat, tt.in, got, err, tt.want)
		}
	}
}

// TestBacktrackBudget checks that a catastrophic pattern fails instead of
// hanging.
func TestBacktrackBudget(t *testing.T) {
	in := strings.Repeat("a", 40) + "!\n"
	_, errOut, code := tool.Exec(Main, in, "sed", `s/\(a*\)*\1\(b\|c\)/x/`)
	if code != 4 || !strings.Contains(errOut, "too complex") {
		t.Fatalf("exit %d stderr %q; want exit 4 and a complexity error", code, errOut)
	}
}
