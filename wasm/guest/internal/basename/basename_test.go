package basename

import "testing"

func TestBase(t *testing.T) {
	tests := []struct{ in, suffix, want string }{
		{"/usr/lib/", "", "lib"}, {"/", "", "/"}, {"a.txt", ".txt", "a"}, {".txt", ".txt", ".txt"},
		{"", "", ""}, {"//a//", "", "a"}, {"a/b.c", "c", "b."},
	}
	for _, tc := range tests {
		if got := Base(tc.in, tc.suffix); got != tc.want {
			t.Errorf("Base(%q, %q) = %q, want %q", tc.in, tc.suffix, got, tc.want)
		}
	}
}
