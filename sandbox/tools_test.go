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

// printModule returns a WASI command module that writes msg to stdout.
func printModule(msg string) []byte {
	section := func(id byte, body ...byte) []byte {
		return append([]byte{id, byte(len(body))}, body...)
	}
	str := func(s string) []byte { return append([]byte{byte(len(s))}, s...) }
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	const i32 = 0x7f
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, section(1, 2, 0x60, 4, i32, i32, i32, i32, 1, i32, 0x60, 0, 0)...)
	m = append(m, section(2, cat([]byte{1}, str("wasi_snapshot_preview1"), str("fd_write"), []byte{0, 0})...)...)
	m = append(m, section(3, 1, 1)...)
	m = append(m, section(5, 1, 0, 1)...)
	m = append(m, section(7, cat([]byte{2}, str("memory"), []byte{2, 0}, str("_start"), []byte{0, 1})...)...)
	// _start: fd_write(1, iovs=0, 1, nwritten=8), the iovec at 0 naming msg at 16.
	body := []byte{0, 0x41, 1, 0x41, 0, 0x41, 1, 0x41, 8, 0x10, 0, 0x1a, 0x0b}
	m = append(m, section(10, cat([]byte{1, byte(len(body))}, body)...)...)
	iov := []byte{16, 0, 0, 0, byte(len(msg)), 0, 0, 0}
	m = append(m, section(11, cat([]byte{2, 0, 0x41, 0, 0x0b, byte(len(iov))}, iov,
		[]byte{0, 0x41, 16, 0x0b}, str(msg))...)...)
	return m
}

// TestToolsKeyedByContent checks that sandboxes in one process share a
// compiled tool only when their tools hold the same bytes under its name:
// a directory, the same directory after the module changed, and an FS
// that is not comparable (named by a hash of the bytes) each run their
// own module.
func TestToolsKeyedByContent(t *testing.T) {
	dirA, dirB := t.TempDir(), t.TempDir()
	write := func(dir, msg string) {
		if err := os.WriteFile(dir+"/hello.wasm", printModule(msg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(dirA, "from A\n")
	write(dirB, "from B\n")
	cache := testCacheDir(t)
	hello := func(opts Options, want string) {
		t.Helper()
		opts.CacheDir = cache
		sb := newTest(t, opts)
		res := run(t, sb, "hello; hello")
		if got := string(res.Stdout); got != want+want || res.ExitCode != 0 {
			t.Fatalf("hello = %q (exit %d, stderr %q), want %q twice", got, res.ExitCode, res.Stderr, want)
		}
	}
	hello(Options{ToolsDir: dirA}, "from A\n")
	hello(Options{ToolsDir: dirB}, "from B\n")
	hello(Options{ToolsDir: dirA}, "from A\n")
	write(dirA, "from A, rebuilt\n")
	hello(Options{ToolsDir: dirA}, "from A, rebuilt\n")
	hello(Options{Tools: fstest.MapFS{"hello.wasm": {Data: printModule("from a map\n")}}}, "from a map\n")
	hello(Options{Tools: fstest.MapFS{"hello.wasm": {Data: printModule("from another map\n")}}}, "from another map\n")
}
