package expand

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
		{args: []string{"expand"}, stdin: "\ta\n", stdout: "        a\n"},
		{args: []string{"expand", "-t", "4"}, stdin: "a\tb\n", stdout: "a   b\n"},
		{args: []string{"unexpand", "-a"}, stdin: "        a\n", stdout: "\ta\n"},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(map[string]tool.MainFunc{"expand": Expand, "unexpand": Unexpand}[tc.args[0]], tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
