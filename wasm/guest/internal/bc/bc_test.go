package bc

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestBC(t *testing.T) {
	tests := []struct{ args, in, want string }{
		{"", "1+2\n", "3\n"},
		{"", "scale=3; 10/3\n", "3.333\n"},
		{"", "-7 % 3\n", "-1\n"},
		{"", "obase=16; 255\n", "FF\n"},
		{"", "ibase=2; 1010\n", "10\n"},
		{"", "2^-1; scale=2; 2^-1\n", "0\n.50\n"},
		{"", "sqrt(16); scale=3; sqrt(2)\n", "4\n1.414\n"},
		{"", "define f(n) { if (n < 2) return n; return f(n-1)+f(n-2) }\nf(20)\n", "6765\n"},
		{"", "for (i = 0; i < 3; i++) { if (i == 1) continue; i }\n", "0\n2\n"},
		{"", "3; quit; 4\n", ""},
		{"-l", "e(1)\n", "2.71828182845904523536\n"},
		{"-l", "scale=5; l(10); s(0); c(0); a(1)\n", "2.30258\n0\n1.00000\n.78539\n"},
		{"", "x[3] = 5; x[3] + x[2]\n", "5\n"},
		{"", "\"a\\nb\"; print 1, \"\\n\"\n", "a\\nb1\n"},
	}
	for _, tc := range tests {
		args := []string{"bc"}
		if tc.args != "" {
			args = append(args, tc.args)
		}
		got, errOut, _ := tool.Exec(Main, tc.in, args...)
		if got != tc.want {
			t.Errorf("bc %s <<< %q = %q (stderr %q), want %q", tc.args, tc.in, got, errOut, tc.want)
		}
	}
}

func TestFormatWraps(t *testing.T) {
	got, _, _ := tool.Exec(Main, "2^300\n", "bc")
	if len(got) < 70 || got[68] != '\\' {
		t.Errorf("2^300 not wrapped at 68 digits: %q", got)
	}
}
