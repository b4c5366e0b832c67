package rm

import (
	"os"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteTree(t, dir, map[string]string{"f": "", "g": "x", "d/a": "", "d/s/b": "", "e/": "", "k": ""}, time.Now())
	t.Chdir(dir)
	tests := []struct {
		args           []string
		stdin          string
		stdout, stderr string
		code           int
	}{
		{args: []string{"rm", "f"}},
		{args: []string{"rm", "f"}, stderr: "rm: cannot remove 'f': No such file or directory\n", code: 1},
		{args: []string{"rm", "-f", "f"}},
		{args: []string{"rm", "-f"}},
		{args: []string{"rm"}, stderr: "rm: missing operand\nTry 'rm --help' for more information.\n", code: 1},
		{args: []string{"rm", "d"}, stderr: "rm: cannot remove 'd': Is a directory\n", code: 1},
		{args: []string{"rm", "-d", "d"}, stderr: "rm: cannot remove 'd': Directory not empty\n", code: 1},
		{args: []string{"rm", "-dv", "e"}, stdout: "removed directory 'e'\n"},
		{args: []string{"rm", "-rv", "d"}, stdout: "removed 'd/a'\nremoved 'd/s/b'\nremoved directory 'd/s'\nremoved directory 'd'\n"},
		{args: []string{"rm", "-r", "."}, stderr: "rm: refusing to remove '.' or '..' directory: skipping '.'\n", code: 1},
		{args: []string{"rm", "-i", "g"}, stdin: "n\n", stderr: "rm: remove regular file 'g'? "},
		{args: []string{"rm", "-i", "k"}, stdin: "y\n", stderr: "rm: remove regular empty file 'k'? "},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
	if _, err := os.Stat("g"); err != nil {
		t.Error("rm -i removed g after 'n'")
	}
	if _, err := os.Stat("k"); err == nil {
		t.Error("rm -i kept k after 'y'")
	}
}
