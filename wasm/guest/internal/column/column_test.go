package column

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
		{args: []string{"column", "-t"}, stdin: "a bb\nccc d\n", stdout: "a    bb\nccc  d\n"},
		{args: []string{"column", "-t", "-s", ":", "-o", "|"}, stdin: "a:b\n", stdout: "a|b\n"},
		{args: []string{"column", "-c", "20"}, stdin: "1\n2\n3\n", stdout: "1\t3\n2\n"},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
