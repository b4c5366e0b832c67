package du

import "testing"

func TestHuman(t *testing.T) {
	tests := []struct {
		n    int64
		base int
		want string
	}{
		{0, 1024, "0"}, {1023, 1024, "1023"}, {1024, 1024, "1.0K"}, {1025, 1024, "1.1K"},
		{10 * 1024, 1024, "10K"}, {10*1024 + 1, 1024, "11K"}, {1024*1024 - 1, 1024, "1.0M"},
		{5000000, 1024, "4.8M"}, {5000000, 1000, "5.0M"}, {1500, 1000, "1.5k"},
	}
	for _, tc := range tests {
		if got := Human(tc.n, tc.base); got != tc.want {
			t.Errorf("Human(%d, %d) = %q, want %q", tc.n, tc.base, got, tc.want)
		}
	}
}
