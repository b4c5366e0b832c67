package mkdir

import (
	"os"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	t.Chdir(t.TempDir())
	tests := []struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		{args: []string{"mkdir", "a"}},
		{args: []string{"mkdir", "a"}, stderr: "mkdir: cannot create directory 'a': File exists\n", code: 1},
		{args: []string{"mkdir", "x/y"}, stderr: "mkdir: cannot create directory 'x/y': No such file or directory\n", code: 1},
		{args: []string{"mkdir", "-pv", "a/b/c"}, stdout: "mkdir: created directory 'a/b'\nmkdir: created directory 'a/b/c'\n"},
		{args: []string{"mkdir", "-p", "a/b"}},
		{args: []string{"mkdir", "-m", "700", "m"}},
		{args: []string{"mkdir", "-m", "bad", "n"}, stderr: "mkdir: invalid mode 'bad'\n", code: 1},
		{args: []string{"mkdir"}, stderr: "mkdir: missing operand\nTry 'mkdir --help' for more information.\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, "", tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
	if fi, err := os.Stat("m"); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("mkdir -m 700: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Stat("a/b/c"); err != nil || !fi.IsDir() {
		t.Errorf("a/b/c: %v", err)
	}
}
