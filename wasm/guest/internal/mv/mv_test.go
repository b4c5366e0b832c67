package mv

import (
	"os"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteTree(t, dir, map[string]string{"f": "F", "g": "G", "h": "H", "d/a": "A", "t/": ""}, time.Now())
	t.Chdir(dir)
	tests := []struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		{args: []string{"mv", "-v", "f", "f2"}, stdout: "renamed 'f' -> 'f2'\n"},
		{args: []string{"mv", "f2", "g", "t"}},
		{args: []string{"mv", "-n", "h", "t/g"}},
		{args: []string{"mv", "d", "d/x"}, stderr: "mv: cannot move 'd' to a subdirectory of itself, 'd/x'\n", code: 1},
		{args: []string{"mv", "nope", "x"}, stderr: "mv: cannot stat 'nope': No such file or directory\n", code: 1},
		{args: []string{"mv", "h", "t"}},
		{args: []string{"mv", "d", "e"}},
		{args: []string{"mv"}, stderr: "mv: missing file operand\nTry 'mv --help' for more information.\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, "", tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
	for name, want := range map[string]string{"t/f2": "F", "t/g": "G", "t/h": "H", "e/a": "A"} {
		if got, err := os.ReadFile(name); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
}
