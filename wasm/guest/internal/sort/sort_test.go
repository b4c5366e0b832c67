package sort

import (
	"os"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	t.Chdir(setup(t))
	tests := []struct {
		args   []string
		stdin  string
		stdout string
		stderr string
		code   int
	}{
		{args: []string{"sort"}, stdin: "b\na\nc", stdout: "a\nb\nc\n"},
		{args: []string{"sort", "-r"}, stdin: "b\na\nc\n", stdout: "c\nb\na\n"},
		{args: []string{"sort", "-n"}, stdin: "10\n9\n-1\n1.5\nx\n", stdout: "-1\nx\n1.5\n9\n10\n"},
		{args: []string{"sort", "-k2,2n", "-k1,1"}, stdin: "b 2\na 10\nc 2\n", stdout: "b 2\nc 2\na 10\n"},
		{args: []string{"sort", "-t:", "-k2"}, stdin: "x:b\ny:a\n", stdout: "y:a\nx:b\n"},
		{args: []string{"sort", "-u"}, stdin: "a\nb\na\n", stdout: "a\nb\n"},
		{args: []string{"sort", "-f"}, stdin: "b\nA\na\nB\n", stdout: "A\na\nB\nb\n"},
		{args: []string{"sort", "-fs"}, stdin: "b\nA\na\nB\n", stdout: "A\na\nb\nB\n"},
		{args: []string{"sort", "-h"}, stdin: "1G\n2K\n3M\n1\n", stdout: "1\n2K\n3M\n1G\n"},
		{args: []string{"sort", "-V"}, stdin: "v1.10\nv1.9\nv1.2\n", stdout: "v1.2\nv1.9\nv1.10\n"},
		{args: []string{"sort", "-M"}, stdin: "Mar\nJan\nxyz\n", stdout: "xyz\nJan\nMar\n"},
		{args: []string{"sort", "-g"}, stdin: "1e3\n5\nnan\n-inf\n", stdout: "nan\n-inf\n5\n1e3\n"},
		{args: []string{"sort", "-s", "-k1,1"}, stdin: "a 2\nb 1\na 1\n", stdout: "a 2\na 1\nb 1\n"},
		{args: []string{"sort", "-c"}, stdin: "a\nc\nb\n", stderr: "sort: -:3: disorder: b\n", code: 1},
		{args: []string{"sort", "-C"}, stdin: "a\nb\n"},
		{args: []string{"sort", "-cu"}, stdin: "a\na\n", stderr: "sort: -:2: disorder: a\n", code: 1},
		{args: []string{"sort", "--check=quiet"}, stdin: "b\na\n", code: 1},
		{args: []string{"sort", "--check"}, stdin: "a\nb\n"},
		{args: []string{"sort", "-z"}, stdin: "b\x00a\x00", stdout: "a\x00b\x00"},
		{args: []string{"sort", "nope"}, stderr: "sort: cannot read: nope: No such file or directory\n", code: 2},
		{args: []string{"sort", "-k", "0"}, stderr: "sort: field number is zero: invalid field specification '0'\n", code: 2},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}

func setup(t *testing.T) string { return t.TempDir() }

func TestOutputOverInput(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("f", []byte("b\na\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := tool.Exec(Main, "", "sort", "-o", "f", "f"); code != 0 {
		t.Fatalf("sort -o: %d %s", code, errOut)
	}
	if data, _ := os.ReadFile("f"); string(data) != "a\nb\n" {
		t.Errorf("f = %q", data)
	}
}

// TestReadInputRoom checks that readInput ends the input with its
// terminator and leaves splitLines' pad, whatever the input's size around
// its buffer's, so neither grows the buffer past tool.CheckMemory.
func TestReadInputRoom(t *testing.T) {
	for _, n := range []int{0, 1, 64<<10 - 10, 64<<10 - 9, 64<<10 - 8, 64 << 10, 64<<10 + 1, 300 << 10} {
		in := strings.Repeat("a", n)
		data, err := readInput(nil, strings.NewReader(in), '\n')
		if err != nil {
			t.Fatal(err)
		}
		want := in
		if n > 0 {
			want += "\n"
		}
		if string(data) != want || cap(data)-len(data) < prefixPad {
			t.Errorf("%d bytes: got %d bytes with %d spare, want %d with %d", n, len(data), cap(data)-len(data), len(want), prefixPad)
		}
	}
}
