package join

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
		{args: []string{"join", "a"}, stderr: "join: missing operand after 'a'\nTry 'join --help' for more information.\n", code: 1},
		{args: []string{"join", "-a", "3", "x", "y"}, stderr: "join: invalid file number: '3'\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
