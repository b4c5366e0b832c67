package uniq

import (
	"bytes"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
	"slices"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	tests := []struct {
		args           []string
		stdin          string
		stdout, stderr string
		code           int
	}{
		{args: []string{"uniq"}, stdin: "a\na\nb\na\n", stdout: "a\nb\na\n"},
		{args: []string{"uniq", "-c"}, stdin: "a\na\nb\n", stdout: "      2 a\n      1 b\n"},
		{args: []string{"uniq", "-d"}, stdin: "a\na\nb\n", stdout: "a\n"},
		{args: []string{"uniq", "-u"}, stdin: "a\na\nb\n", stdout: "b\n"},
		{args: []string{"uniq", "-i"}, stdin: "a\nA\n", stdout: "a\n"},
		{args: []string{"uniq", "-f1"}, stdin: "x a\ny a\n", stdout: "x a\n"},
		{args: []string{"uniq", "-D"}, stdin: "a\na\nb\n", stdout: "a\na\n"},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}

// sortedRecords is 200,000 records sorted, with runs of equal dates.
func sortedKeys(b *testing.B) []byte {
	b.Helper()
	lines := bytes.SplitAfter(testutil.Records(200000), []byte("\n"))
	for i, l := range lines {
		lines[i] = l[:11] // the date
	}
	slices.SortFunc(lines, bytes.Compare)
	return bytes.Join(lines, []byte("\n"))
}

func BenchmarkUniqCount(b *testing.B) {
	testutil.Bench(b, Main, testutil.Records(200000), "uniq", "-c")
}

func BenchmarkUniqCountRuns(b *testing.B) {
	testutil.Bench(b, Main, sortedKeys(b), "uniq", "-c")
}
