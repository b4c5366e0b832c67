package sandbox

import (
	"bytes"
	"context"
	"testing"
)

// benchRun runs cmd b.N times. Besides wall time it reports the process's
// CPU time per run (cpu-ns/op), which stays meaningful on a busy machine.
func benchRun(b *testing.B, sb *Sandbox, cmd string) {
	b.Helper()
	ctx := context.Background()
	cpu0 := cpuTime()
	for b.Loop() {
		res, err := sb.Run(ctx, cmd)
		if err != nil || res.ExitCode != 0 {
			b.Fatalf("%q: %v %+v", cmd, err, res)
		}
	}
	if cpu0 >= 0 {
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkEchoBuiltin is the floor: a Run that starts no guest.
func BenchmarkEchoBuiltin(b *testing.B) {
	sb := newTest(b, Options{})
	benchRun(b, sb, "echo hi")
}

// BenchmarkCatWc is two guests joined by a pipe over a 1 MiB file.
func BenchmarkCatWc(b *testing.B) {
	sb := newTest(b, Options{})
	if err := sb.WriteFile("/tmp/f", bytes.Repeat([]byte("0123456789abcdef\n"), 1<<16), 0o644); err != nil {
		b.Fatal(err)
	}
	benchRun(b, sb, "cat /tmp/f | wc -l")
}

// BenchmarkGuestSpawn is a 200-step loop starting a guest each time;
// ns/op divided by 200 is the warm cost of one guest.
func BenchmarkGuestSpawn(b *testing.B) {
	sb := newTest(b, Options{})
	if _, err := sb.Run(context.Background(), "/bin/true"); err != nil { // compile once
		b.Fatal(err)
	}
	benchRun(b, sb, "for i in $(seq 200); do /bin/true; done")
}

// BenchmarkTrLoop is a 200-step loop of a two-guest pipeline; ns/op
// divided by 200 is the warm cost of one step of two processes.
func BenchmarkTrLoop(b *testing.B) {
	sb := newTest(b, Options{})
	if _, err := sb.Run(context.Background(), "echo a | tr a b"); err != nil { // compile once
		b.Fatal(err)
	}
	benchRun(b, sb, "for i in $(seq 200); do echo a | tr a b; done > /dev/null")
}
