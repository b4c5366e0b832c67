package echo

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
		{args: []string{"echo", "a", "b"}, stdout: "a b\n"},
		{args: []string{"echo", "-n", "a"}, stdout: "a"},
		{args: []string{"echo", "-e", `a\tb\x41\0101\c`, "z"}, stdout: "a\tbAA"},
		{args: []string{"echo", "-E", `a\tb`}, stdout: "a\\tb\n"},
		{args: []string{"echo", "-nx"}, stdout: "-nx\n"},
		{args: []string{"echo", "--help", "x"}, stdout: "--help x\n"},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
