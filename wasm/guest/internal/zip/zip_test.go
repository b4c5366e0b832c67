package zip

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestWild(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"dir/*.txt", "dir/a.txt", true},
		{"dir/*.txt", "dir/sub/c.txt", true},
		{"*.log", "dir/b.log", true},
		{"?.txt", "a.txt", true},
		{"[ab].txt", "c.txt", false},
		{"a", "ab", false},
	}
	for _, tc := range tests {
		if got := wild(tc.pattern, tc.name); got != tc.want {
			t.Errorf("wild(%q, %q) = %v", tc.pattern, tc.name, got)
		}
	}
}

func TestSafeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a/b", "a/b"},
		{"../x", "x"},
		{"/etc/passwd", "etc/passwd"},
		{"a/../../b", "a/b"},
		{"./a", "a"},
		{"d/", "d/"},
	}
	for _, tc := range tests {
		u := &unzipper{env: &tool.Env{Args: []string{"unzip"}, Stdout: discard{}, Stderr: discard{}}}
		if got := u.safeName(tc.in); got != tc.want {
			t.Errorf("safeName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
