package sandbox

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// TestToolsFS runs tools handed over as an fs.FS, as the js/wasm build
// does, and checks that Tools takes precedence over ToolsDir.
func TestToolsFS(t *testing.T) {
	dir := guesttest.Dir(t)
	sb := newTest(t, Options{Tools: os.DirFS(dir), ToolsDir: t.TempDir()})
	res := run(t, sb, "seq 10 | grep 1 | wc -l")
	if got := string(res.Stdout); got != "2\n" || res.ExitCode != 0 {
		t.Fatalf("got %q (exit %d, stderr %q), want \"2\\n\"", got, res.ExitCode, res.Stderr)
	}
}

func TestToolsFSLayout(t *testing.T) {
	tests := []struct {
		name    string
		fsys    fstest.MapFS
		want    []string // commands listed in /bin
		wantErr string
	}{
		{
			name: "manifest and loose module",
			fsys: fstest.MapFS{
				"manifest.json": {Data: []byte(`{"multi.wasm": ["a", "b"]}`)},
				"multi.wasm":    {Data: []byte("\x00asm")},
				"solo.wasm":     {Data: []byte("\x00asm")},
				"README":        {Data: []byte("not a tool")},
			},
			want: []string{"a", "b", "solo"},
		},
		{
			name:    "bad manifest",
			fsys:    fstest.MapFS{"manifest.json": {Data: []byte("{")}},
			wantErr: "tools manifest Options.Tools/manifest.json",
		},
		{name: "empty", fsys: fstest.MapFS{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, err := loadToolSet(context.Background(), Options{Tools: tt.fsys}, testPlatform)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(ts.names(), " "); got != strings.Join(tt.want, " ") {
				t.Fatalf("commands = %q, want %q", got, strings.Join(tt.want, " "))
			}
			for _, c := range tt.want {
				b, ok, err := ts.moduleBytes(c)
				if !ok || err != nil || string(b) != "\x00asm" {
					t.Fatalf("moduleBytes(%q) = %q, %v, %v", c, b, ok, err)
				}
			}
		})
	}
}

func TestToolsDirMissing(t *testing.T) {
	_, err := New(context.Background(), Options{ToolsDir: "/nonexistent/wasmsand-tools"})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/wasmsand-tools") {
		t.Fatalf("err = %v, want one naming the directory", err)
	}
}
