package sleep

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
		{args: []string{"sleep", "0.001", "0.001s"}},
		{args: []string{"sleep"}, stderr: "sleep: missing operand\nTry 'sleep --help' for more information.\n", code: 1},
		{args: []string{"sleep", "1x"}, stderr: "sleep: invalid time interval '1x'\nTry 'sleep --help' for more information.\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
