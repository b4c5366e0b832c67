package touch

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
	testutil.WriteTree(t, dir, map[string]string{"ref": "", "f": ""}, old)
	t.Chdir(dir)
	t.Setenv("TZ", "UTC")
	time.Local = time.UTC
	tests := []struct {
		args   []string
		stderr string
		code   int
		file   string
		mtime  time.Time
	}{
		{args: []string{"touch", "new"}, file: "new"},
		{args: []string{"touch", "-c", "none"}},
		{args: []string{"touch", "-d", "2021-03-04 05:06:07", "f"}, file: "f", mtime: time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)},
		{args: []string{"touch", "-t", "199901020304.05", "f"}, file: "f", mtime: time.Date(1999, 1, 2, 3, 4, 5, 0, time.UTC)},
		{args: []string{"touch", "-r", "ref", "f"}, file: "f", mtime: old},
		{args: []string{"touch", "-d", "@0", "f"}, file: "f", mtime: time.Unix(0, 0)},
		{args: []string{"touch", "-d", "bogus", "f"}, stderr: "touch: invalid date format 'bogus'\n", code: 1},
		{args: []string{"touch", "-t", "2020", "f"}, stderr: "touch: invalid date format '2020'\n", code: 1},
		{args: []string{"touch", "no/such"}, stderr: "touch: cannot touch 'no/such': No such file or directory\n", code: 1},
		{args: []string{"touch"}, stderr: "touch: missing file operand\nTry 'touch --help' for more information.\n", code: 1},
	}
	for _, tc := range tests {
		_, errOut, code := tool.Exec(Main, "", tc.args...)
		if errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %d), want (%q, %d)", tc.args, errOut, code, tc.stderr, tc.code)
		}
		if tc.file != "" {
			fi, err := os.Stat(tc.file)
			if err != nil {
				t.Errorf("%q: %v", tc.args, err)
			} else if !tc.mtime.IsZero() && !fi.ModTime().Equal(tc.mtime) {
				t.Errorf("%q: mtime %v, want %v", tc.args, fi.ModTime(), tc.mtime)
			}
		}
	}
	if _, err := os.Stat("none"); err == nil {
		t.Error("touch -c created a file")
	}
}
