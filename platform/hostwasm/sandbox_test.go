//go:build js && wasm

package hostwasm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
)

// toolsDir is the built guest tools: $WASMSAND_TOOLS_DIR, or build/tools
// (make tools). The js/wasm test binary reads it through Node's fs.
func toolsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("WASMSAND_TOOLS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "build", "tools")
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		t.Skipf("no built tools in %s (run make tools or set WASMSAND_TOOLS_DIR): %v", dir, err)
	}
	return dir
}

func newSandbox(t *testing.T) *sandbox.Sandbox {
	t.Helper()
	sb, err := sandbox.New(context.Background(), sandbox.Options{
		Platform: Platform, Tools: os.DirFS(toolsDir(t)), Timeout: 20 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

func TestSandboxCommands(t *testing.T) {
	sb := newSandbox(t)
	tests := []struct {
		cmd, stdin, stdout string
		code               int
		jspi               bool // needs JSPI (an infinite producer)
	}{
		{cmd: "echo hi", stdout: "hi\n"},
		{cmd: "/bin/true"},
		{cmd: "false", code: 1},
		{cmd: "seq 3", stdout: "1\n2\n3\n"},
		{cmd: "cat", stdin: "in", stdout: "in"},
		{cmd: "seq 100 | grep 7 | wc -l", stdout: "19\n"},
		{cmd: "printf 'b\\na\\n' | sort", stdout: "a\nb\n"},
		{cmd: "seq 3 | while read x; do echo $x | wc -c; done", stdout: "2\n2\n2\n"},
		{cmd: "echo x > f; cat f; rm f", stdout: "x\n"},
		{cmd: "nosuch", code: 127},
		{cmd: "yes | head -1", stdout: "y\n", jspi: true},
	}
	for _, tt := range tests {
		if tt.jspi && !HasJSPI() {
			continue
		}
		var opts []sandbox.RunOption
		if tt.stdin != "" {
			opts = append(opts, sandbox.WithStdin(strings.NewReader(tt.stdin)))
		}
		r, err := sb.Run(context.Background(), tt.cmd, opts...)
		if err != nil {
			t.Fatalf("%s: %v", tt.cmd, err)
		}
		if string(r.Stdout) != tt.stdout || r.ExitCode != tt.code {
			t.Errorf("%s = %q, exit %d; want %q, exit %d (stderr %q)", tt.cmd, r.Stdout, r.ExitCode, tt.stdout, tt.code, r.Stderr)
		}
	}
}

// TestSecondSandboxReusesModules checks that a second sandbox in the
// process compiles nothing: sandboxes share the engine, so its module
// cache, and the engine shares compiled modules.
func TestSecondSandboxReusesModules(t *testing.T) {
	first := newSandbox(t)
	if _, err := first.Run(context.Background(), "seq 1"); err != nil {
		t.Fatal(err)
	}
	before := compiles.Load()
	second := newSandbox(t)
	start := time.Now()
	r, err := second.Run(context.Background(), "seq 1")
	if err != nil || string(r.Stdout) != "1\n" {
		t.Fatalf("seq 1 in the second sandbox = %q, %v", r.Stdout, err)
	}
	t.Logf("first command of a second sandbox: %v", time.Since(start))
	if n := compiles.Load() - before; n != 0 {
		t.Errorf("the second sandbox compiled %d modules; want 0", n)
	}
}

// TestTimeout stops a guest that spins: fuel slices reach the deadline on
// every engine mode.
func TestTimeout(t *testing.T) {
	sb, err := sandbox.New(context.Background(), sandbox.Options{
		Platform: Platform, Tools: os.DirFS(toolsDir(t)), Timeout: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	// A spinning guest, and a shell loop that starts no guest (it must
	// yield, or under js the timer never fires).
	for _, cmd := range []string{"yes > /dev/null", "while true; do :; done"} {
		start := time.Now()
		r, err := sb.Run(context.Background(), cmd)
		if err != nil {
			t.Fatal(err)
		}
		if r.ExitCode != 124 {
			t.Errorf("%q: exit %d, want 124 (stderr %q)", cmd, r.ExitCode, r.Stderr)
		}
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("%q: stopped after %v, limit 300ms", cmd, took)
		}
	}
}
