package cut

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	tests := []struct {
		args           []string
		stdin          string
		stdout, stderr string
		code           int
	}{
		{args: []string{"cut", "-d,", "-f2"}, stdin: "a,b,c\n", stdout: "b\n"},
		{args: []string{"cut", "-c", "2-"}, stdin: "abc\n", stdout: "bc\n"},
		{args: []string{"cut", "-f1", "-s"}, stdin: "nodelim\na\tb\n", stdout: "a\n"},
		{args: []string{"cut", "-d,", "-f1,3", "--output-delimiter=:"}, stdin: "a,b,c\n", stdout: "a:c\n"},
		{args: []string{"cut", "--complement", "-b1"}, stdin: "abc\n", stdout: "bc\n"},
		{args: []string{"cut", "-f0"}, stderr: "cut: fields are numbered from 1\nTry 'cut --help' for more information.\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}

// TestCharsUTF8 checks -c in a UTF-8 locale, where ASCII lines are cut by
// byte slices and the others character by character.
func TestCharsUTF8(t *testing.T) {
	for _, tc := range []struct{ args, in, want string }{
		{"2-3", "héllo\nabcd\n", "él\nbc\n"},
		{"1,4", "héllo\nabcd\nx\n", "hl\nad\nx\n"},
		{"3-", "日本語です\nabc", "語です\nc\n"},
	} {
		var out, errOut bytes.Buffer
		env := &tool.Env{Args: []string{"cut", "-c", tc.args}, Stdin: strings.NewReader(tc.in), Stdout: &out, Stderr: &errOut,
			Getenv: func(k string) string {
				if k == "LANG" {
					return "C.UTF-8"
				}
				return ""
			}}
		if code := tool.Run(Main, env); code != 0 || out.String() != tc.want {
			t.Errorf("cut -c %s on %q: got %q (%d, %q), want %q", tc.args, tc.in, out.String(), code, errOut.String(), tc.want)
		}
	}
}
