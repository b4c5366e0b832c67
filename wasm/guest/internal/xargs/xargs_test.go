package xargs

import (
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestReader(t *testing.T) {
	tests := []struct {
		in   string
		c    config
		want []string
	}{
		{"a b\n c\n", config{delim: -1}, []string{"a", "b", "c"}},
		{`a "b c" 'd e' f\ g`, config{delim: -1}, []string{"a", "b c", "d e", "f g"}},
		{"a\x00b c\x00", config{delim: 0}, []string{"a", "b c"}},
		{"a:b:c\n", config{delim: ':'}, []string{"a", "b", "c\n"}},
		{"a b\nEND\nc\n", config{delim: -1, eof: "END"}, []string{"a", "b"}},
		{"  x y\n\nz\n", config{delim: -1, hasReplace: true}, []string{"x y", "z"}},
	}
	for _, tt := range tests {
		r := newReader(strings.NewReader(tt.in), &tt.c)
		var got []string
		for {
			item, _, ok := r.next()
			if !ok {
				break
			}
			got = append(got, item)
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestXargs(t *testing.T) {
	tests := []struct {
		args           []string
		stdin          string
		stdout, stderr string
		code           int
	}{
		{args: []string{"xargs"}, stdin: "a b\nc\n", stdout: "a b c\n"},
		{args: []string{"xargs", "-n", "2", "echo"}, stdin: "1 2 3 4 5\n", stdout: "1 2\n3 4\n5\n"},
		{args: []string{"xargs", "-L", "1", "echo"}, stdin: "1 2\n3\n", stdout: "1 2\n3\n"},
		{args: []string{"xargs", "-I{}", "echo", "<{}>"}, stdin: "a b\nc\n", stdout: "<a b>\n<c>\n"},
		{args: []string{"xargs", "-0", "echo"}, stdin: "a b\x00c\x00", stdout: "a b c\n"},
		{args: []string{"xargs", "-d", ",", "-n1", "echo"}, stdin: "x,y", stdout: "x\ny\n"},
		{args: []string{"xargs", "echo", "x"}, stdout: "x\n"},
		{args: []string{"xargs", "-r", "echo", "x"}},
		{args: []string{"xargs", "-s", "10", "echo"}, stdin: "a b c\n", stdout: "a b\nc\n"},
		{args: []string{"xargs", "-t", "echo"}, stdin: "a\n", stdout: "a\n", stderr: "echo a\n"},
		{args: []string{"xargs", "false"}, stdin: "a\n", code: 123},
		{args: []string{"xargs", "sh", "-c", "exit 255"}, stdin: "a\n", stderr: "xargs: sh: exited with status 255; aborting\n", code: 124},
		{args: []string{"xargs", "no-such-command-xyz"}, stdin: "a\n", stderr: "xargs: no-such-command-xyz: No such file or directory\n", code: 127},
		{args: []string{"xargs", "echo"}, stdin: "it's\n", stderr: "xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n", code: 1},
		{args: []string{"xargs", "-n", "0"}, stdin: "a\n", stderr: "xargs: value 0 for -n option should be >= 1\nTry 'xargs --help' for more information.\n", code: 1},
	}
	for _, tt := range tests {
		out, errOut, code := tool.Exec(Main, tt.stdin, tt.args...)
		if out != tt.stdout || errOut != tt.stderr || code != tt.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tt.args, out, errOut, code, tt.stdout, tt.stderr, tt.code)
		}
	}
}

func TestParallel(t *testing.T) {
	out, errOut, code := tool.Exec(Main, "1 2 3 4 5 6 7 8\n", "xargs", "-P", "4", "-n", "1", "echo")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Fields(out)
	if len(lines) != 8 {
		t.Fatalf("got %q, want 8 lines", out)
	}
}
