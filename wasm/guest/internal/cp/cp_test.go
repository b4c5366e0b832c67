package cp

import (
	"os"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	dir := t.TempDir()
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	testutil.WriteTree(t, dir, map[string]string{"f": "data", "g": "other", "d/a": "A", "d/s/b": "B", "t/": ""}, old)
	if err := os.Symlink("f", dir+"/ln"); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	tests := []struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		{args: []string{"cp", "f", "f2"}},
		{args: []string{"cp", "-v", "f", "g", "t"}, stdout: "'f' -> 't/f'\n'g' -> 't/g'\n"},
		{args: []string{"cp", "f", "f"}, stderr: "cp: 'f' and 'f' are the same file\n", code: 1},
		{args: []string{"cp", "d", "d2"}, stderr: "cp: -r not specified; omitting directory 'd'\n", code: 1},
		{args: []string{"cp", "-r", "d", "d2"}},
		{args: []string{"cp", "-r", "d", "d/s"}, stderr: "cp: cannot copy a directory, 'd', into itself, 'd/s/d'\n", code: 1},
		{args: []string{"cp", "-n", "g", "f2"}},
		{args: []string{"cp", "-p", "f", "p"}},
		{args: []string{"cp", "-a", "ln", "ln2"}},
		{args: []string{"cp", "nope", "x"}, stderr: "cp: cannot stat 'nope': No such file or directory\n", code: 1},
		{args: []string{"cp", "f", "g", "f2"}, stderr: "cp: target 'f2': Not a directory\n", code: 1},
		{args: []string{"cp", "f"}, stderr: "cp: missing destination file operand after 'f'\nTry 'cp --help' for more information.\n", code: 1},
		{args: []string{"cp", "-t", "t", "d/a"}},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, "", tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
	for name, want := range map[string]string{"f2": "data", "t/f": "data", "t/g": "other", "d2/a": "A", "d2/s/b": "B", "p": "data", "t/a": "A"} {
		if got, err := os.ReadFile(name); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	if fi, err := os.Stat("p"); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("cp -p did not keep the time: %v", err)
	}
	if target, err := os.Readlink("ln2"); err != nil || target != "f" {
		t.Errorf("cp -a of a symlink: %q, %v", target, err)
	}
}
