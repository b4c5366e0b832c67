package fmt

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
		{args: []string{"fmt"}, stdin: "a\nb\n", stdout: "a b\n"},
		{args: []string{"fmt", "-w", "5"}, stdin: "aa bb cc\n", stdout: "aa\nbb\ncc\n"},
		{args: []string{"fmt"}, stdin: "one.\ntwo\n", stdout: "one.  two\n"},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
