package cmp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCmp(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	files := map[string]string{"a": "abc\ndef\n", "b": "abc\nxyz\n", "c": "abc", "d": "abc\n", "e": "", "h1": "\x80", "h2": "\xff"}
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args           []string
		stdin          string
		stdout, stderr string
		code           int
	}{
		{args: []string{"cmp", "a", "a"}},
		{args: []string{"cmp", "a", "b"}, stdout: "a b differ: char 5, line 2\n", code: 1},
		{args: []string{"cmp", "-b", "a", "b"}, stdout: "a b differ: byte 5, line 2 is 144 d 170 x\n", code: 1},
		{args: []string{"cmp", "-l", "a", "b"}, stdout: "5 144 170\n6 145 171\n7 146 172\n", code: 1},
		{args: []string{"cmp", "-lb", "a", "b"}, stdout: "5 144 d    170 x\n6 145 e    171 y\n7 146 f    172 z\n", code: 1},
		{args: []string{"cmp", "-s", "a", "b"}, code: 1},
		{args: []string{"cmp", "-n", "4", "a", "b"}},
		{args: []string{"cmp", "-i", "4", "a", "b"}, stdout: "a b differ: char 1, line 1\n", code: 1},
		{args: []string{"cmp", "a", "b", "8", "8"}},
		{args: []string{"cmp", "a", "c"}, stderr: "cmp: EOF on c after byte 3, in line 1\n", code: 1},
		{args: []string{"cmp", "d", "a"}, stderr: "cmp: EOF on d after byte 4, line 1\n", code: 1},
		{args: []string{"cmp", "-l", "a", "c"}, stderr: "cmp: EOF on c after byte 3\n", code: 1},
		{args: []string{"cmp", "e", "a"}, stderr: "cmp: EOF on e which is empty\n", code: 1},
		{args: []string{"cmp", "-b", "h1", "h2"}, stdout: "h1 h2 differ: byte 1, line 1 is 200 M-^@ 377 M-^?\n", code: 1},
		{args: []string{"cmp", "a"}, stdin: "abc\ndef\n"},
		{args: []string{"cmp", "-", "b"}, stdin: "abc\ndef\n", stdout: "- b differ: char 5, line 2\n", code: 1},
		{args: []string{"cmp", "a", "nope"}, stderr: "cmp: nope: No such file or directory\n", code: 2},
		{args: []string{"cmp", "-n", "-1", "a", "b"}, stderr: "cmp: invalid --bytes value '-1'\ncmp: Try 'cmp --help' for more information.\n", code: 2},
		{args: []string{"cmp", "a", "b", "1", "2", "3"}, stderr: "cmp: extra operand '3'\ncmp: Try 'cmp --help' for more information.\n", code: 2},
		{args: []string{"cmp", "-x", "a", "b"}, stderr: "cmp: invalid option -- 'x'\ncmp: Try 'cmp --help' for more information.\n", code: 2},
		{args: []string{"cmp"}, stderr: "cmp: missing operand after 'cmp'\ncmp: Try 'cmp --help' for more information.\n", code: 2},
	}
	for _, tt := range tests {
		out, errOut, code := tool.Exec(Main, tt.stdin, tt.args...)
		if out != tt.stdout || errOut != tt.stderr || code != tt.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tt.args, out, errOut, code, tt.stdout, tt.stderr, tt.code)
		}
	}
}
