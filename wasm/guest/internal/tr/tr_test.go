package tr

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
		{args: []string{"tr", "a-z", "A-Z"}, stdin: "hello\n", stdout: "HELLO\n"},
		{args: []string{"tr", "-d", "l"}, stdin: "hello\n", stdout: "heo\n"},
		{args: []string{"tr", "-s", "l"}, stdin: "hello\n", stdout: "helo\n"},
		{args: []string{"tr", "-cd", "[:digit:]"}, stdin: "a1b2\n", stdout: "12"},
		{args: []string{"tr", "[:lower:]", "[:upper:]"}, stdin: "ab\n", stdout: "AB\n"},
		{args: []string{"tr", "é", "e"}, stdin: "café\n", stdout: "cafe\n"},
		{args: []string{"tr", "abc", "x"}, stdin: "abcd", stdout: "xxxd"},
		{args: []string{"tr", "a"}, stderr: "tr: missing operand after 'a'\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
