package nl

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
		{args: []string{"nl"}, stdin: "a\n\nb\n", stdout: "     1\ta\n       \n     2\tb\n"},
		{args: []string{"nl", "-ba", "-nrz", "-w3"}, stdin: "a\n\n", stdout: "001\ta\n002\t\n"},
		{args: []string{"nl", "-n", "ln", "-s", ":"}, stdin: "x\n", stdout: "1     :x\n"},
		{args: []string{"nl", "-b", "x"}, stderr: "nl: invalid body numbering style: 'x'\nTry 'nl --help' for more information.\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
