package diff

import (
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestDiff(t *testing.T) {
	dir := t.TempDir()
	mtime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	testutil.WriteTree(t, dir, map[string]string{
		"a": "1\n2\n3\n4\n", "b": "1\ntwo\n3\n4\n5\n", "c": "1\n2", "n": "x\x00y\n",
		"A/f": "old\n", "B/f": "new\n", "A/gone": "g\n", "B/new": "n\n", "A/same": "s\n", "B/same": "s\n",
	}, mtime)
	t.Chdir(dir)
	t.Setenv("TZ", "UTC")
	tests := []struct {
		args           []string
		stdin          string
		stdout, stderr string
		code           int
	}{
		{args: []string{"diff", "a", "a"}},
		{args: []string{"diff", "a", "b"}, stdout: "2c2\n< 2\n---\n> two\n4a5\n> 5\n", code: 1},
		{args: []string{"diff", "-u", "a", "b"}, code: 1,
			stdout: "--- a\t2020-01-02 03:04:05.000000000 +0000\n+++ b\t2020-01-02 03:04:05.000000000 +0000\n@@ -1,4 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n+5\n"},
		{args: []string{"diff", "-U0", "--label", "x", "--label", "y", "a", "b"}, code: 1,
			stdout: "--- x\n+++ y\n@@ -2 +2 @@\n-2\n+two\n@@ -4,0 +5 @@\n+5\n"},
		{args: []string{"diff", "-c", "a", "c"}, code: 1,
			stdout: "*** a\tThu Jan  2 03:04:05 2020\n--- c\tThu Jan  2 03:04:05 2020\n***************\n*** 1,4 ****\n  1\n! 2\n! 3\n! 4\n--- 1,2 ----\n  1\n! 2\n\\ No newline at end of file\n"},
		{args: []string{"diff", "-q", "a", "b"}, stdout: "Files a and b differ\n", code: 1},
		{args: []string{"diff", "-s", "a", "a"}, stdout: "Files a and a are identical\n"},
		{args: []string{"diff", "a", "n"}, stdout: "Binary files a and n differ\n", code: 1},
		{args: []string{"diff", "-", "a"}, stdin: "1\n2\n3\n4\n"},
		{args: []string{"diff", "-r", "A", "B"}, code: 1,
			stdout: "diff -r A/f B/f\n1c1\n< old\n---\n> new\nOnly in A: gone\nOnly in B: new\n"},
		{args: []string{"diff", "-qrN", "A", "B"}, code: 1,
			stdout: "Files A/f and B/f differ\nFiles A/gone and B/gone differ\nFiles A/new and B/new differ\n"},
		{args: []string{"diff", "a", "nope"}, stderr: "diff: nope: No such file or directory\n", code: 2},
		{args: []string{"diff", "a"}, stderr: "diff: missing operand after 'a'\ndiff: Try 'diff --help' for more information.\n", code: 2},
		{args: []string{"diff", "-U", "x", "a", "b"}, stderr: "diff: invalid context length 'x'\ndiff: Try 'diff --help' for more information.\n", code: 2},
	}
	for _, tt := range tests {
		out, errOut, code := tool.Exec(Main, tt.stdin, tt.args...)
		if out != tt.stdout || errOut != tt.stderr || code != tt.code {
			t.Errorf("%q: got (%q, %q, %d)\nwant (%q, %q, %d)", tt.args, out, errOut, code, tt.stdout, tt.stderr, tt.code)
		}
	}
}

// TestCompareMinimal checks that the edit scripts are minimal on inputs
// small enough to verify by dynamic programming.
func TestCompareMinimal(t *testing.T) {
	seqs := [][]int32{{1, 2, 3, 1, 2, 3}, {3, 2, 1}, {1, 1, 1, 2}, {2, 1, 1, 1}, {}, {4, 1, 4, 2, 4, 3}}
	for _, a := range seqs {
		for _, b := range seqs {
			script := compare(append([]int32(nil), a...), append([]int32(nil), b...), 5, true)
			cost := 0
			for _, c := range script {
				cost += c.deleted + c.inserted
			}
			if want := len(a) + len(b) - 2*lcs(a, b); cost != want {
				t.Errorf("%v -> %v: cost %d, want %d", a, b, cost, want)
			}
		}
	}
}

func lcs(a, b []int32) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}
