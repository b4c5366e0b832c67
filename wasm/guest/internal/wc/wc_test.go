package wc

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
		{args: []string{"wc"}, stdin: "a b\nc\n", stdout: "      2       3       6\n"},
		{args: []string{"wc", "-l"}, stdin: "a b\nc\n", stdout: "2\n"},
		{args: []string{"wc", "-w"}, stdin: " a\tb \x01 \n", stdout: "3\n"},
		{args: []string{"wc", "-L"}, stdin: "ab\tc\nxyz\n", stdout: "9\n"},
		{args: []string{"wc", "-c", "-l"}, stdin: "abc", stdout: "      0       3\n"},
		{args: []string{"wc", "-m"}, stdin: "\xc3\xa9", stdout: "2\n"},
		{args: []string{"wc", "/nonexistent"}, stderr: "wc: /nonexistent: No such file or directory\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
