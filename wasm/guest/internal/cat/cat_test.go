package cat

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	tests := []struct {
		args   []string
		stdin  string
		stdout string
		stderr string
		code   int
	}{
		{args: []string{"cat"}, stdin: "a\nb", stdout: "a\nb"},
		{args: []string{"cat", "-n"}, stdin: "a\n\nb", stdout: "     1\ta\n     2\t\n     3\tb"},
		{args: []string{"cat", "-b"}, stdin: "a\n\nb\n", stdout: "     1\ta\n\n     2\tb\n"},
		{args: []string{"cat", "-s"}, stdin: "a\n\n\n\nb\n", stdout: "a\n\nb\n"},
		{args: []string{"cat", "-A"}, stdin: "\t\x01\x7f\xe9\n", stdout: "^I^A^?M-i$\n"},
		{args: []string{"cat", "-E", "-", "-"}, stdin: "x\n", stdout: "x$\n"},
		{args: []string{"cat", "/nonexistent/x"}, stderr: "cat: /nonexistent/x: No such file or directory\n", code: 1},
		{args: []string{"cat", "-z"}, stderr: "cat: invalid option -- 'z'\nTry 'cat --help' for more information.\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
