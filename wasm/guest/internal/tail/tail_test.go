package tail

import (
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
		{args: []string{"tail", "-n", "2"}, stdin: "a\nb\nc\n", stdout: "b\nc\n"},
		{args: []string{"tail", "-n", "+2"}, stdin: "a\nb\nc\n", stdout: "b\nc\n"},
		{args: []string{"tail", "-c", "3"}, stdin: "abcdef", stdout: "def"},
		{args: []string{"tail", "-1"}, stdin: "a\nb", stdout: "b"},
		{args: []string{"tail", "-f"}, stdin: "x\n", stdout: "x\n"},
		{args: []string{"tail", "-n", "x"}, stderr: "tail: invalid number of lines: 'x'\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
