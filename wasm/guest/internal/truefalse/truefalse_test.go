package truefalse

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	tests := []struct {
		args   []string
		stdin  string
		stdout string
		stderr string
		code   int
	}{
		{args: []string{"true", "--nope"}},
		{args: []string{"true", "--version"}, stdout: "true (GNU coreutils) 9.1\nwasmsand " + tool.Version + ": a reimplementation in Go, not the upstream program.\n"},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(True, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}

func TestFalse(t *testing.T) {
	if _, _, code := tool.Exec(False, "", "false", "x"); code != 1 {
		t.Errorf("false exited %d", code)
	}
}
