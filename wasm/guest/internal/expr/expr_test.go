package expr

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestExpr(t *testing.T) {
	tests := []struct {
		args []string
		out  string
		code int
	}{
		{[]string{"1", "+", "2"}, "3\n", 0},
		{[]string{"2", "*", "(", "3", "+", "4", ")"}, "14\n", 0},
		{[]string{"5", "/", "0"}, "", 2},
		{[]string{"0"}, "0\n", 1},
		{[]string{"", "|", "x"}, "x\n", 0},
		{[]string{"abc", ":", "a\\(.\\)"}, "b\n", 0},
		{[]string{"abc", ":", "b"}, "0\n", 1},
		{[]string{"length", "héllo"}, "5\n", 0},
		{[]string{"substr", "hello", "2", "3"}, "ell\n", 0},
		{[]string{"index", "hello", "l"}, "3\n", 0},
		{[]string{"10", "<", "9"}, "0\n", 1},
		{[]string{"a", "<", "b"}, "1\n", 0},
		{[]string{"1", "2"}, "", 2},
		{[]string{"123456789012345678901234567890", "*", "10"}, "1234567890123456789012345678900\n", 0},
	}
	for _, tc := range tests {
		out, _, code := tool.Exec(Main, "", append([]string{"expr"}, tc.args...)...)
		if out != tc.out || code != tc.code {
			t.Errorf("expr %q = %q, %d; want %q, %d", tc.args, out, code, tc.out, tc.code)
		}
	}
}
