package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
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

// toolCases are the tool cases of issue 14's table, over 200,000 records.
var toolCases = []struct{ name, cmd string }{
	{"uniq-c", "uniq -c d"},
	{"cut", "cut -d' ' -f2 d"},
	{"tr", "tr a-z A-Z < d"},
	{"sort", "sort d"},
	{"sort-u", "sort -u d"},
	{"sort-n-k3", "sort -n -k3 d"},
	{"cut-sort-uniq", "cut -d' ' -f2 d | sort | uniq -c | sort -rn"},
	{"grep-cE", "grep -cE '[0-9]+ [A-Z][0-9]X' d"},
	{"grep-F", "grep -cF -e north -e K7 -e 2024-13 d"},
	{"wc-w", "wc -w d"},
	{"cat-grep-wc", "cat d | grep xray | wc -l"},
	{"tail-1", "tail -1 d"},
	{"awk-sum", "awk '{s+=$3} END{print s}' d"},
	{"awk-group", "awk '{n[$2]+=$3} END{for(k in n) print k, n[k]}' d"},
	{"sed-re", `sed -E 's/([0-9]+)-([0-9]+)-([0-9]+)/\3.\2.\1/' d`},
	{"jq", "jq -c 'select(.amount > 50000) | .region' j"},
	{"find", "find t -name '*7*' -type f"},
	{"tar-czf", "tar czf /tmp/t.tgz t"},
	{"yes-head", "yes | head -1"},
}

// benchTree writes 10,000 small files in 100 directories under t, through
// write (the sandbox's or the host's), for find and tar.
func benchTree(b testing.TB, mkdir func(string) error, write func(string, []byte) error) {
	for i := range 100 {
		d := fmt.Sprintf("t/d%02d", i)
		if err := mkdir(d); err != nil {
			b.Fatal(err)
		}
		for j := range 100 {
			if err := write(fmt.Sprintf("%s/f%04d.txt", d, i*100+j), fmt.Appendf(nil, "file %d %d\n", i, j)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkTools runs each tool case in the sandbox and reports, besides
// its CPU time, the fuel it used (deterministic: the figure to watch), the
// largest linear memory of its guests (peak-MiB) and, when bash is
// installed, the CPU time of bash with the host's GNU tools over the same
// file and the ratio of the two (x-gnu).
func BenchmarkTools(b *testing.B) {
	data := guesttest.Records(200000)
	sb := newTest(b, Options{})
	js := guesttest.JSONRecords(data, 20000)
	dir := b.TempDir()
	for name, content := range map[string][]byte{"d": data, "j": js} {
		if err := sb.WriteFile("/home/user/"+name, content, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	benchTree(b, func(d string) error { return sb.Mkdir("/home/user/"+d, 0o755) },
		func(f string, c []byte) error { return sb.WriteFile("/home/user/"+f, c, 0o644) })
	benchTree(b, func(d string) error { return os.MkdirAll(filepath.Join(dir, d), 0o755) },
		func(f string, c []byte) error { return os.WriteFile(filepath.Join(dir, f), c, 0o644) })
	_, bashErr := exec.LookPath("bash")
	for _, tc := range toolCases {
		b.Run(tc.name, func(b *testing.B) {
			ctx := context.Background()
			if _, err := sb.Run(ctx, tc.cmd); err != nil { // compile once
				b.Fatal(err)
			}
			var fuel, gnu, peak int64
			cpu0 := cpuTime()
			for b.Loop() {
				res, err := sb.Run(ctx, tc.cmd+" >/dev/null")
				if err != nil || res.ExitCode != 0 {
					b.Fatalf("%q: %v %+v", tc.cmd, err, res)
				}
				fuel += res.Metrics.FuelUsed
				peak = max(peak, res.Metrics.PeakMemoryBytes)
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(fuel)/float64(b.N), "fuel/op")
			b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
			if cpu0 < 0 {
				return
			}
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			if bashErr != nil {
				return
			}
			for range b.N {
				c0 := childCPUTime()
				cmd := exec.Command("bash", "-c", tc.cmd+" >/dev/null")
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "LC_ALL=C")
				if err := cmd.Run(); err != nil {
					b.Fatalf("bash %q: %v", tc.cmd, err)
				}
				gnu += childCPUTime() - c0
			}
			b.ReportMetric(float64(gnu)/float64(b.N), "gnu-cpu-ns/op")
			b.ReportMetric(float64(cpu)/float64(gnu), "x-gnu")
		})
	}
}

// BenchmarkNew is the making of a sandbox with every tool listed in /bin
// and /usr/bin, as Sandbox.create does at a cold start (the engine is
// shared and made once).
func BenchmarkNew(b *testing.B) {
	opts := Options{ToolsDir: guesttest.Dir(b), CacheDir: testCacheDir(b)}
	newTest(b, opts) // the shared engine
	ctx := context.Background()
	cpu0 := cpuTime()
	for b.Loop() {
		sb, err := New(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		sb.Close()
	}
	if cpu0 >= 0 {
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	}
}
