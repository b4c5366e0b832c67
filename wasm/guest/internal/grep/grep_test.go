package grep

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	t.Chdir(setup(t))
	tests := []struct {
		args   []string
		stdin  string
		stdout string
		stderr string
		code   int
	}{
		{args: []string{"grep", "b"}, stdin: "abc\nxyz\nb\n", stdout: "abc\nb\n"},
		{args: []string{"grep", "-v", "b"}, stdin: "abc\nxyz\n", stdout: "xyz\n"},
		{args: []string{"grep", "-c", "b"}, stdin: "abc\nxyz\nb", stdout: "2\n"},
		{args: []string{"grep", "-n", "-i", "B"}, stdin: "abc\nxyz\nb", stdout: "1:abc\n3:b\n"},
		{args: []string{"grep", "-o", "-E", "[0-9]+"}, stdin: "a1b22\n", stdout: "1\n22\n"},
		{args: []string{"grep", "-x", "-F", "a.c"}, stdin: "a.c\nabc\n", stdout: "a.c\n"},
		{args: []string{"grep", "-w", "foo"}, stdin: "foobar\nfoo bar\n", stdout: "foo bar\n"},
		{args: []string{"grep", `\(.\)\1`}, stdin: "abc\nabbc\n", stdout: "abbc\n"},
		{args: []string{"grep", "-e", "x", "-e", "y"}, stdin: "x\ny\nz\n", stdout: "x\ny\n"},
		{args: []string{"grep", "-A1", "-n", "m"}, stdin: "a\nm\nb\nc\nm\n", stdout: "2:m\n3-b\n--\n5:m\n"},
		{args: []string{"grep", "-B1", "m"}, stdin: "a\nm\nb\n", stdout: "a\nm\n"},
		{args: []string{"grep", "-m1", "m"}, stdin: "m1\nm2\n", stdout: "m1\n"},
		{args: []string{"grep", "-q", "m"}, stdin: "m\n"},
		{args: []string{"grep", "z"}, stdin: "m\n", code: 1},
		{args: []string{"grep", "-l", "alpha", "a.txt", "b.txt"}, stdout: "a.txt\n"},
		{args: []string{"grep", "-L", "alpha", "a.txt", "b.txt"}, stdout: "b.txt\n"},
		{args: []string{"grep", "-r", "beta", "."}, stdout: "./b.txt:beta\n./d/c.txt:beta gamma\n"},
		{args: []string{"grep", "-r", "beta"}, stdout: "b.txt:beta\nd/c.txt:beta gamma\n"},
		{args: []string{"grep", "-h", "a", "a.txt", "b.txt"}, stdout: "alpha\nbeta\n"},
		{args: []string{"grep", "x", "nope"}, stderr: "grep: nope: No such file or directory\n", code: 2},
		{args: []string{"grep", "-s", "x", "nope"}, code: 2},
		{args: []string{"grep", "x", "d"}, stderr: "grep: d: Is a directory\n", code: 2},
		{args: []string{"grep", "a", "bin"}, stderr: "grep: bin: binary file matches\n"},
		{args: []string{"grep", "["}, stderr: "grep: Invalid regular expression\n", code: 2},
		{args: []string{"grep"}, stderr: "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", code: 2},
		{args: []string{"grep", "-Z"}, stderr: "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", code: 2},
		{args: []string{"grep", "--bogus", "x"}, stderr: "grep: unrecognized option '--bogus'\nTry 'grep --help' for more information.\n", code: 2},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}

func setup(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "d/c.txt": "beta gamma\n", "bin": "a\x00b\n"}
	for name, data := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCountInPieces checks the counting of whole buffers against package
// regexp line by line, over input that arrives in odd pieces, with lines
// the automaton declines (non-ASCII under a pattern that can match it) and
// a last line without its end.
func TestCountInPieces(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "line %d %s\n", i, []string{"alpha", "béta", "gamma x", ""}[i%4])
	}
	b.WriteString("last a")
	in := b.String()
	lines := strings.Split(in, "\n")
	for _, tc := range []struct {
		args []string
		re   string
	}{
		{[]string{"-c", "a$"}, "a$"},
		{[]string{"-cv", "a$"}, "a$"},
		{[]string{"-c", "."}, "."},
		{[]string{"-cE", "[0-9]+ (b.ta|x)"}, "[0-9]+ (b.ta|x)"},
		{[]string{"-cE", "9 g|7 b"}, "9 g|7 b"},
		{[]string{"-c", "ine 1"}, "ine 1"},
		{[]string{"-cv", "gamma"}, "gamma"},
		{[]string{"-c", "béta"}, "béta"},
		{[]string{"-cF", "a"}, "a"},
		{[]string{"-c", "-e", "ine 1", "-e", "gamma"}, "ine 1|gamma"},
		{[]string{"-cv", "-F", "-e", "alpha", "-e", "x", "-e", "9 "}, "alpha|x|9 "},
		{[]string{"-cE", "-e", "99", "-e", "ine 2", "-e", "0 a", "-e", "lpha"}, "99|ine 2|0 a|lpha"},
	} {
		re := regexp.MustCompile(tc.re)
		n := 0
		for _, l := range lines {
			if re.MatchString(l) != (tc.args[0] == "-cv") {
				n++
			}
		}
		var out bytes.Buffer
		env := &tool.Env{Args: append([]string{"grep"}, tc.args...), Stdin: iotest.HalfReader(strings.NewReader(in)), Stdout: &out, Stderr: io.Discard}
		tool.Run(Main, env)
		if want := fmt.Sprintf("%d\n", n); out.String() != want {
			t.Errorf("grep %q: got %q, want %q", tc.args, out.String(), want)
		}
	}
}

// TestPrintInPieces checks the printing of whole buffers against package
// regexp line by line, where the automaton cannot decide the lines with a
// byte past ASCII and they are tested one by one.
func TestPrintInPieces(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "line %d %s\n", i, []string{"alpha", "béta", "gamma x", "", "b\xffta"}[i%5])
	}
	b.WriteString("last béta")
	in := b.String()
	for _, expr := range []string{"b.ta", "9 b.ta|1 a", "[0-9] .*a$"} {
		re := regexp.MustCompile(expr)
		var want strings.Builder
		for _, l := range strings.SplitAfter(in, "\n") {
			if re.MatchString(strings.TrimSuffix(l, "\n")) {
				want.WriteString(strings.TrimSuffix(l, "\n") + "\n")
			}
		}
		var out bytes.Buffer
		env := &tool.Env{Args: []string{"grep", "-aE", expr}, Stdin: iotest.HalfReader(strings.NewReader(in)), Stdout: &out, Stderr: io.Discard}
		tool.Run(Main, env)
		if out.String() != want.String() {
			t.Errorf("grep -E %q: got %d bytes, want %d", expr, out.Len(), want.Len())
		}
	}
}
