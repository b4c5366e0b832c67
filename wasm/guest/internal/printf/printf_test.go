package printf

import (
	"bytes"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestPrintf(t *testing.T) {
	tests := []struct {
		args   []string
		out    string
		errOut string
		status int
	}{
		{[]string{"printf", "%s-%d\\n", "a", "1", "b", "2"}, "a-1\nb-2\n", "", 0},
		{[]string{"printf", "%05.1f|%x|%q\\n", "3.14159", "255", "a b"}, "003.1|ff|a\\ b\n", "", 0},
		{[]string{"printf", "%d\\n", "abc"}, "0\n", "printf: abc: invalid number\n", 1},
		{[]string{"printf"}, "", "printf: missing operand\nTry 'printf --help' for more information.\n", 1},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		env := &tool.Env{Args: tt.args, Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
		status := tool.Run(Main, env)
		if out.String() != tt.out || errOut.String() != tt.errOut || status != tt.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", tt.args, out.String(), errOut.String(), status, tt.out, tt.errOut, tt.status)
		}
	}
}
