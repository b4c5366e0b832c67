package uniq

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
		{args: []string{"uniq"}, stdin: "a\na\nb\na\n", stdout: "a\nb\na\n"},
		{args: []string{"uniq", "-c"}, stdin: "a\na\nb\n", stdout: "      2 a\n      1 b\n"},
		{args: []string{"uniq", "-d"}, stdin: "a\na\nb\n", stdout: "a\n"},
		{args: []string{"uniq", "-u"}, stdin: "a\na\nb\n", stdout: "b\n"},
		{args: []string{"uniq", "-i"}, stdin: "a\nA\n", stdout: "a\n"},
		{args: []string{"uniq", "-f1"}, stdin: "x a\ny a\n", stdout: "x a\n"},
		{args: []string{"uniq", "-D"}, stdin: "a\na\nb\n", stdout: "a\na\n"},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
