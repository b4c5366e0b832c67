package tar

import (
	"bytes"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestSafeName(t *testing.T) {
	tests := []struct {
		in    string
		strip int
		want  string
		ok    bool
	}{
		{"a/b", 0, "a/b", true},
		{"/etc/passwd", 0, "etc/passwd", true},
		{"../x", 0, "", false},
		{"a/../../x", 0, "", false},
		{"a/b/c", 1, "b/c", true},
		{"a/", 1, "", false},
		{"./a/b", 0, "a/b", true},
	}
	for _, tc := range tests {
		var errOut bytes.Buffer
		tc2 := &tarCmd{env: &tool.Env{Args: []string{"tar"}, Stdout: &bytes.Buffer{}, Stderr: &errOut}, strip: tc.strip, warned: map[string]bool{}}
		got, ok := tc2.safeName(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("safeName(%q, strip %d) = %q, %v; want %q, %v", tc.in, tc.strip, got, ok, tc.want, tc.ok)
		}
	}
}

func TestOldStyle(t *testing.T) {
	got := oldStyle([]string{"tar", "czvf", "a.tgz", "d"})
	want := []string{"tar", "-c", "-z", "-v", "-f", "a.tgz", "d"}
	if len(got) != len(want) {
		t.Fatalf("%q", got)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%q, want %q", got, want)
		}
	}
}
