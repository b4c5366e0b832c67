package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestWithTimeout(t *testing.T) {
	sb := newTest(t, Options{Timeout: 30 * time.Second})
	start := time.Now()
	res, err := sb.Run(context.Background(), "while :; do :; done", WithTimeout(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 124 || !res.Metrics.TimedOut || !strings.Contains(string(res.Stderr), "timed out after 200ms") {
		t.Fatalf("got %d %q", res.ExitCode, res.Stderr)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
	// It only lowers the sandbox's limit, and lasts one Run.
	sb = newTest(t, Options{Timeout: 300 * time.Millisecond})
	res, _ = sb.Run(context.Background(), "while :; do :; done", WithTimeout(time.Hour))
	if res.ExitCode != 124 || !strings.Contains(string(res.Stderr), "timed out after 300ms") {
		t.Fatalf("raised: got %d %q", res.ExitCode, res.Stderr)
	}
	res, _ = sb.Run(context.Background(), "sleep 0.1; echo ok")
	if res.ExitCode != 0 {
		t.Fatalf("next run: %d %q", res.ExitCode, res.Stderr)
	}
}
