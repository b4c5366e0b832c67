package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// benchLine is repeated into the 50 MB benchmark input.
const benchLine = "alpha beta gamma banana data xyz lorem ipsum sed awk\n"

// TestBenchSubst times `sed s/a/b/g` over 50 MB inside the sandbox and
// with the host's GNU sed, and logs the ratio. It runs only with
// SED_BENCH=1 (it takes seconds and wants an idle machine).
func TestBenchSubst(t *testing.T) {
	if os.Getenv("SED_BENCH") == "" {
		t.Skip("set SED_BENCH=1 to run")
	}
	const size = 50_000_000
	ctx := context.Background()
	cache, _ := os.UserCacheDir()
	sb, err := sandbox.New(ctx, sandbox.Options{
		ToolsDir: guesttest.Dir(t),
		CacheDir: filepath.Join(cache, "wasmsand-test", "modules"),
		FSLimit:  4 * size,
		Timeout:  5 * time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if res, err := sb.Run(ctx, "yes '"+strings.TrimSuffix(benchLine, "\n")+"' | head -c 50000000 > big"); err != nil || res.ExitCode != 0 {
		t.Fatalf("making input: %v %+v", err, res)
	}
	host := filepath.Join(t.TempDir(), "big")
	data := []byte(strings.Repeat(benchLine, size/len(benchLine)+1)[:size])
	if err := os.WriteFile(host, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if extra := os.Getenv("SED_BENCH_CMD"); extra != "" {
		res, err := sb.Run(ctx, extra)
		t.Logf("%s: %v %v exit %d", extra, err, res.ExecutionTime, res.ExitCode)
	}
	for _, script := range []string{"s/a/b/g", "s/a[lm]/X/g", "/xyz.*sed/d", "s/\\(al\\)\\(pha\\)/\\2\\1/"} {
		res, err := sb.Run(ctx, "sed '"+script+"' big > out")
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("sed %s: %v %+v", script, err, res)
		}
		start := time.Now()
		cmd := exec.Command("sh", "-c", "sed '"+script+"' "+host+" > "+host+".out")
		cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		gnu := time.Since(start)
		t.Logf("sed %-28q sandbox %v  GNU %v  ratio %.2f", script, res.ExecutionTime.Round(time.Millisecond), gnu.Round(time.Millisecond), float64(res.ExecutionTime)/float64(gnu))
	}
}
