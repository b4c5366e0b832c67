package cut

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
		{args: []string{"cut", "-d,", "-f2"}, stdin: "a,b,c\n", stdout: "b\n"},
		{args: []string{"cut", "-c", "2-"}, stdin: "abc\n", stdout: "bc\n"},
		{args: []string{"cut", "-f1", "-s"}, stdin: "nodelim\na\tb\n", stdout: "a\n"},
		{args: []string{"cut", "-d,", "-f1,3", "--output-delimiter=:"}, stdin: "a,b,c\n", stdout: "a:c\n"},
		{args: []string{"cut", "--complement", "-b1"}, stdin: "abc\n", stdout: "bc\n"},
		{args: []string{"cut", "-f0"}, stderr: "cut: fields are numbered from 1\nTry 'cut --help' for more information.\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
