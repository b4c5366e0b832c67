package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// TestMemoryCap checks awk under a small memory cap: an array bomb ends
// with GNU's one line and status 2, not the Go runtime's fatal error, and
// a program that fits runs to its end.
func TestMemoryCap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm modules")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sb, err := sandbox.New(context.Background(), sandbox.Options{
		ToolsDir: guesttest.Dir(t), CacheDir: filepath.Join(cache, "wasmsand-test", "modules"),
		Timeout: 2 * time.Minute, MemoryLimit: 32 << 20,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	for _, tc := range []struct {
		cmd            string
		stdout, stderr string
		code           int
	}{
		{cmd: `awk 'BEGIN { while (1) a[i++] = i }'`, stderr: "awk: memory exhausted\n", code: 2},
		{cmd: `yes | awk '{ a[NR] = $0 NR }'`, stderr: "awk: memory exhausted\n", code: 2},
		{cmd: `seq 100000 | awk '{ a[$1] = $0 } END { print length(a) }'`, stdout: "100000\n"},
	} {
		res, err := sb.Run(context.Background(), tc.cmd)
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Stdout) != tc.stdout || string(res.Stderr) != tc.stderr || res.ExitCode != tc.code {
			t.Errorf("%s: got (%q, %.200q, %d), want (%q, %q, %d)", tc.cmd, res.Stdout, res.Stderr, res.ExitCode, tc.stdout, tc.stderr, tc.code)
		}
	}
}
