package fold

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
		{args: []string{"fold", "-w", "3"}, stdin: "abcdefg\n", stdout: "abc\ndef\ng\n"},
		{args: []string{"fold", "-s", "-w", "6"}, stdin: "ab cd ef gh\n", stdout: "ab cd \nef gh\n"},
		{args: []string{"fold", "-w", "x"}, stderr: "fold: invalid number of columns: 'x'\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
