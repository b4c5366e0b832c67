package shuf

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
		{args: []string{"shuf", "-n", "0", "-e", "a"}, stdout: ""},
		{args: []string{"shuf", "-e", "a"}, stdout: "a\n"},
		{args: []string{"shuf", "-i", "3-3"}, stdout: "3\n"},
		{args: []string{"shuf", "-i", "5-1"}, stderr: "shuf: invalid input range: '5-1'\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
