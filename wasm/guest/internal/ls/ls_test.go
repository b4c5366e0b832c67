package ls

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	dir := t.TempDir()
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	testutil.WriteTree(t, dir, map[string]string{"b": "12345", "a": "1", ".hid": "", "d/x": "", "d/y": "yy", "e/": ""}, old)
	if err := os.Chtimes(dir+"/a", old.Add(time.Hour), old.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("TZ", "UTC")
	tests := []struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		{args: []string{"ls"}, stdout: "a\nb\nd\ne\n"},
		{args: []string{"ls", "-A"}, stdout: ".hid\na\nb\nd\ne\n"},
		{args: []string{"ls", "-a", "e"}, stdout: ".\n..\n"},
		{args: []string{"ls", "-r"}, stdout: "e\nd\nb\na\n"},
		{args: []string{"ls", "-S", "a", "b"}, stdout: "b\na\n"},
		{args: []string{"ls", "-t", "a", "b"}, stdout: "a\nb\n"},
		{args: []string{"ls", "-F", "d", "a"}, stdout: "a\n\nd:\nx\ny\n"},
		{args: []string{"ls", "-dF", "d", "a"}, stdout: "a\nd/\n"},
		{args: []string{"ls", "-R", "d"}, stdout: "d:\nx\ny\n"},
		{args: []string{"ls", "-l", "b"}, stdout: "-rw-r--r-- 1 user user 5 Jan  2  2020 b\n"},
		{args: []string{"ls", "-l", "--time-style=long-iso", "d"}, stdout: "total 4\n-rw-r--r-- 1 user user 0 2020-01-02 03:04 x\n-rw-r--r-- 1 user user 2 2020-01-02 03:04 y\n"},
		{args: []string{"ls", "nope", "a"}, stdout: "a\n", stderr: "ls: cannot access 'nope': No such file or directory\n", code: 2},
		{args: []string{"ls", "-y"}, stderr: "ls: invalid option -- 'y'\nTry 'ls --help' for more information.\n", code: 2},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, "", tc.args...)
		// Block counts depend on the file system: compare the rest.
		if strings.HasPrefix(out, "total ") && strings.HasPrefix(tc.stdout, "total ") {
			out = firstLine(tc.stdout) + out[len(firstLine(out)):]
		}
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func TestHumanSize(t *testing.T) {
	l := &lister{}
	for n, want := range map[int64]string{0: "0", 1023: "1023", 1024: "1.0K", 1536: "1.5K", 1025: "1.1K", 10240: "10K", 10241: "11K", 1048575: "1.0M", 5 << 30: "5.0G"} {
		if got := l.humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %s, want %s", n, got, want)
		}
	}
}

func TestModeString(t *testing.T) {
	for m, want := range map[os.FileMode]string{
		0o644:                              "-rw-r--r--",
		os.ModeDir | 0o755:                 "drwxr-xr-x",
		os.ModeSymlink | 0o777:             "lrwxrwxrwx",
		os.ModeSetuid | 0o755:              "-rwsr-xr-x",
		os.ModeDir | os.ModeSticky | 0o777: "drwxrwxrwt",
		os.ModeSetgid | 0o644:              "-rw-r-Sr--",
	} {
		if got := modeString(m); got != want {
			t.Errorf("modeString(%v) = %s, want %s", m, got, want)
		}
	}
}
