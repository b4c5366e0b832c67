package seq

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
		{args: []string{"seq", "3"}, stdout: "1\n2\n3\n"},
		{args: []string{"seq", "-s", ",", "2", "4"}, stdout: "2,3,4\n"},
		{args: []string{"seq", "5", "-2", "1"}, stdout: "5\n3\n1\n"},
		{args: []string{"seq", "0.1", "0.1", "0.3"}, stdout: "0.1\n0.2\n0.3\n"},
		{args: []string{"seq", "-w", "9", "10"}, stdout: "09\n10\n"},
		{args: []string{"seq", "-f", "%.1e", "1", "2"}, stdout: "1.0e+00\n2.0e+00\n"},
		{args: []string{"seq", "-1", "1"}, stdout: "-1\n0\n1\n"},
		{args: []string{"seq", "2", "1"}},
		{args: []string{"seq"}, stderr: "seq: missing operand\nTry 'seq --help' for more information.\n", code: 1},
		{args: []string{"seq", "1", "0", "2"}, stderr: "seq: invalid Zero increment value: '0'\nTry 'seq --help' for more information.\n", code: 1},
		{args: []string{"seq", "-f", "%d", "1"}, stderr: "seq: format '%d' has unknown %d directive\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
