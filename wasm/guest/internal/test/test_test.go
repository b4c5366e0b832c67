package test

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestTest(t *testing.T) {
	tests := []struct {
		args []string
		code int
	}{
		{nil, 1},
		{[]string{"a"}, 0},
		{[]string{""}, 1},
		{[]string{"-n", ""}, 1},
		{[]string{"-z", ""}, 0},
		{[]string{"a", "=", "a"}, 0},
		{[]string{"a", "!=", "a"}, 1},
		{[]string{"10", "-gt", "9"}, 0},
		{[]string{"1", "-eq", "x"}, 2},
		{[]string{"!", "a", "=", "b"}, 0},
		{[]string{"(", "a", ")"}, 0},
		{[]string{"a", "-a", "", "-o", "b"}, 0},
		{[]string{"-d", "."}, 0},
		{[]string{"-f", "."}, 1},
		{[]string{"a", "b"}, 2},
	}
	for _, tc := range tests {
		_, _, code := tool.Exec(Main, "", append([]string{"test"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("test %q = %d, want %d", tc.args, code, tc.code)
		}
	}
	if _, errOut, code := tool.Exec(Bracket, "", "[", "a"); code != 2 || errOut != "[: missing ']'\n" {
		t.Errorf("[ a: %d %q", code, errOut)
	}
	if _, _, code := tool.Exec(Bracket, "", "[", "a", "]"); code != 0 {
		t.Errorf("[ a ]: %d", code)
	}
}
