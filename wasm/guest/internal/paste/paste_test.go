package paste

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
		{args: []string{"paste", "-s"}, stdin: "a\nb\nc\n", stdout: "a\tb\tc\n"},
		{args: []string{"paste", "-s", "-d", ",;"}, stdin: "a\nb\nc\n", stdout: "a,b;c\n"},
		{args: []string{"paste", "-", "-"}, stdin: "a\nb\nc\n", stdout: "a\tb\nc\t\n"},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
