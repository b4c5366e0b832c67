package head

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
		{args: []string{"head", "-n", "2"}, stdin: "1\n2\n3\n", stdout: "1\n2\n"},
		{args: []string{"head", "-2"}, stdin: "1\n2\n3\n", stdout: "1\n2\n"},
		{args: []string{"head", "-n", "-1"}, stdin: "1\n2\n3\n", stdout: "1\n2\n"},
		{args: []string{"head", "-c", "3"}, stdin: "abcdef", stdout: "abc"},
		{args: []string{"head", "-c", "-2"}, stdin: "abcdef", stdout: "abcd"},
		{args: []string{"head", "-c", "1k"}, stdin: "ab", stdout: "ab"},
		{args: []string{"head", "-v", "-n1"}, stdin: "x\ny\n", stdout: "==> standard input <==\nx\n"},
		{args: []string{"head", "-z", "-n1"}, stdin: "a\x00b\x00", stdout: "a\x00"},
		{args: []string{"head", "-n", "x"}, stderr: "head: invalid number of lines: 'x'\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
