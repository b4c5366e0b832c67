package tac

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
		{args: []string{"tac"}, stdin: "a\nb\nc\n", stdout: "c\nb\na\n"},
		{args: []string{"tac"}, stdin: "a\nb", stdout: "ba\n"},
		{args: []string{"tac", "-s", ","}, stdin: "1,2,3,", stdout: "3,2,1,"},
		{args: []string{"tac", "-b", "-s", ","}, stdin: ",1,2", stdout: ",2,1"},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
