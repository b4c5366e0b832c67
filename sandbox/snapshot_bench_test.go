package sandbox

import (
	"context"
	"fmt"
	"testing"
)

// bigSandbox holds 100 MB in 10,000 files of 10,000 bytes, in 100
// directories.
func bigSandbox(b *testing.B) *Sandbox {
	b.Helper()
	sb, err := New(context.Background(), Options{FSLimit: 200 << 20})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sb.Close() })
	data := make([]byte, 10_000)
	rnd := newPRNG(1)
	for d := range 100 {
		dir := fmt.Sprintf("/home/user/d%02d", d)
		if err := sb.fs.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			rnd.Read(data)
			if err := sb.fs.WriteFile(fmt.Sprintf("%s/f%03d", dir, f), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return sb
}

// BenchmarkFork100MB forks a sandbox holding 100 MB in 10,000 files.
func BenchmarkFork100MB(b *testing.B) {
	sb := bigSandbox(b)
	ctx := context.Background()
	cpu0 := cpuTime()
	for b.Loop() {
		c, err := sb.Fork(ctx)
		if err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
	reportCPU(b, cpu0)
}

// reportCPU reports the process's CPU time per op since cpu0, which
// stays meaningful on a busy machine (it includes the garbage
// collector's work).
func reportCPU(b *testing.B, cpu0 int64) {
	if cpu0 >= 0 {
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkSnapshot100MB snapshots the same sandbox.
func BenchmarkSnapshot100MB(b *testing.B) {
	sb := bigSandbox(b)
	b.SetBytes(100e6)
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := sb.Snapshot(); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}

// BenchmarkRestore100MB restores its snapshot.
func BenchmarkRestore100MB(b *testing.B) {
	snap, err := bigSandbox(b).Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(100e6)
	cpu0 := cpuTime()
	for b.Loop() {
		r, err := Restore(ctx, snap, Options{})
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
	reportCPU(b, cpu0)
}
