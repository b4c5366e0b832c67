package gzip

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestRoundTrip(t *testing.T) {
	for _, in := range []string{"", "hello\n", string(make([]byte, 100000)), "\xff\xfe binary \x00"} {
		comp, _, code := tool.Exec(Main, in, "gzip", "-c")
		if code != 0 {
			t.Fatalf("gzip: %d", code)
		}
		out, _, code := tool.Exec(Zcat, comp, "zcat")
		if code != 0 || out != in {
			t.Errorf("round trip of %d bytes: %d bytes, status %d", len(in), len(out), code)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stdin  string
		stderr string
		code   int
	}{
		{[]string{"zcat"}, "not gzip", "\ngzip: stdin: not in gzip format\n", 1},
		{[]string{"gunzip", "-c"}, "\x1f\x8b\x08\x00", "gzip: stdin: unexpected end of file\n", 1},
		{[]string{"gzip", "/nonexistent"}, "", "gzip: /nonexistent: No such file or directory\n", 1},
	}
	for _, tc := range tests {
		_, errOut, code := tool.Exec(run0(tc.args[0]), tc.stdin, tc.args...)
		if errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %d), want (%q, %d)", tc.args, errOut, code, tc.stderr, tc.code)
		}
	}
}

func run0(name string) tool.MainFunc {
	switch name {
	case "zcat":
		return Zcat
	case "gunzip":
		return Gunzip
	}
	return Main
}
