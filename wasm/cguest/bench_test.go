package cguest_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
)

// BenchmarkPythonStart is a warm `python3 -c pass`: the module compiled,
// the library placed.
func BenchmarkPythonStart(b *testing.B) {
	sb := newSandbox(b, sandbox.Options{})
	run(b, sb, "python3 -c pass")
	b.ResetTimer()
	for range b.N {
		if res := run(b, sb, "python3 -c pass"); res.ExitCode != 0 {
			b.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
		}
	}
}

// BenchmarkPythonNewSandbox is `python3 -c pass` in a new sandbox each
// time: placing the library is part of it.
func BenchmarkPythonNewSandbox(b *testing.B) {
	run(b, newSandbox(b, sandbox.Options{}), "python3 -c pass")
	b.ResetTimer()
	for range b.N {
		sb := newSandbox(b, sandbox.Options{})
		if res := run(b, sb, "python3 -c pass"); res.ExitCode != 0 {
			b.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
		}
		sb.Close()
	}
}

// BenchmarkSQLiteStart is a warm `sqlite3 :memory: 'select 1'`.
func BenchmarkSQLiteStart(b *testing.B) {
	sb := newSandbox(b, sandbox.Options{})
	run(b, sb, "sqlite3 :memory: 'select 1'")
	b.ResetTimer()
	for range b.N {
		if res := run(b, sb, "sqlite3 :memory: 'select 1'"); res.ExitCode != 0 {
			b.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
		}
	}
}

// CPU-bound work in the guests (issue 11: within 3× of the host's own
// CPython). Each benchmark reports cpu-x-host, the process CPU time of one
// run in the sandbox over that of the host's python3.11 or sqlite3 on the
// same input, when the host has them.

// BenchmarkPystone is a pystone-like loop (testdata/bench/pystone.py):
// classes, attribute access, calls, list, dict and string work.
func BenchmarkPystone(b *testing.B) {
	benchGuest(b, "python3 pystone.py 100000", []string{"python3.11", "pystone.py", "100000"}, "pystone.py")
}

// BenchmarkPythonCSV aggregates an 8 MiB CSV with csv.DictReader,
// collections and json (testdata/bench/csvagg.py).
func BenchmarkPythonCSV(b *testing.B) {
	dir := b.TempDir()
	data := filepath.Join(dir, "data.csv")
	if err := exec.Command(hostTool(b, "python3.11"), filepath.Join("testdata", "bench", "csvagg.py"), "--make", data, "8").Run(); err != nil {
		b.Skipf("making the CSV with the host's python3.11: %v", err)
	}
	benchGuest(b, "python3 csvagg.py data.csv", []string{"python3.11", "csvagg.py", "data.csv"}, "csvagg.py", data)
}

// BenchmarkSQLiteInsert inserts 100,000 rows in one transaction, indexes,
// groups and joins them (testdata/bench/insert.sql).
func BenchmarkSQLiteInsert(b *testing.B) {
	benchGuest(b, "sqlite3 :memory: < insert.sql", []string{"sqlite3", ":memory:", "<insert.sql"}, "insert.sql")
}

// BenchmarkAwkSum is `awk '{s+=$3} END{print s}'` over 200,000 records
// (5.4 MB, the issue-14 benchmark's shape), against the host's gawk.
func BenchmarkAwkSum(b *testing.B) {
	const prog = `{s+=$3} END{print s}`
	benchGuest(b, "awk '"+prog+"' records", []string{"gawk", prog, "records"}, records(b))
}

// BenchmarkAwkGroupBy sums a field per key into an array and prints the
// keys in order (PROCINFO["sorted_in"]), against the host's gawk.
func BenchmarkAwkGroupBy(b *testing.B) {
	const prog = `BEGIN{PROCINFO["sorted_in"]="@ind_str_asc"} {c[$2]+=$3; n[$2]++} END{for (k in c) print k, c[k], n[k]}`
	benchGuest(b, "awk '"+prog+"' records", []string{"gawk", prog, "records"}, records(b))
}

// records writes 200,000 lines of "date place number code" (the same
// every time) to a file named records and returns its path.
func records(b *testing.B) string {
	places := []string{"island", "central", "north", "harbour", "west", "uptown", "airport", "east"}
	rng := rand.New(rand.NewPCG(1, 2))
	var buf bytes.Buffer
	for range 200_000 {
		fmt.Fprintf(&buf, "2024-%02d-%02d %s %d %c%d%c%d\n", 1+rng.IntN(12), 1+rng.IntN(28),
			places[rng.IntN(len(places))], rng.IntN(100_000), 'A'+rng.IntN(26), rng.IntN(10), 'A'+rng.IntN(26), rng.IntN(10))
	}
	p := filepath.Join(b.TempDir(), "records")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// hostTool finds a host program for the comparison, or skips: the
// system's own first (Debian's python3.11 is the guest's 3.11.2, built with
// PGO), then $PATH.
func hostTool(b *testing.B, name string) string {
	if p := filepath.Join("/usr/bin", name); exec.Command(p, "--version").Run() == nil {
		return p
	}
	p, err := exec.LookPath(name)
	if err != nil {
		b.Skipf("no %s on the host to compare with", name)
	}
	return p
}

// benchGuest runs cmd in a sandbox holding files (from testdata/bench
// unless absolute) and compares its output and CPU time with host, run in
// the same files' directory ("<f" redirects stdin from f).
func benchGuest(b *testing.B, cmd string, host []string, files ...string) {
	sb := newSandbox(b, sandbox.Options{Timeout: 10 * time.Minute})
	hostDir := b.TempDir()
	for _, f := range files {
		src := f
		if !filepath.IsAbs(f) {
			src = filepath.Join("testdata", "bench", f)
		}
		data, err := os.ReadFile(src)
		if err != nil {
			b.Fatal(err)
		}
		name := filepath.Base(f)
		if err := sb.WriteFile(name, data, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(hostDir, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	want := run(b, sb, cmd) // compiles the module
	if want.ExitCode != 0 {
		b.Fatalf("%s: exit %d: %s", cmd, want.ExitCode, want.Stderr)
	}
	b.ResetTimer()
	var cpu time.Duration
	for range b.N {
		c0 := processCPU()
		res := run(b, sb, cmd)
		cpu += processCPU() - c0
		if res.ExitCode != 0 || !bytes.Equal(res.Stdout, want.Stdout) {
			b.Fatalf("%s: exit %d, output %q then %q", cmd, res.ExitCode, want.Stdout, res.Stdout)
		}
	}
	b.StopTimer()
	args := host[1:]
	var stdin string
	if n := len(args); n > 0 && strings.HasPrefix(args[n-1], "<") {
		stdin, args = args[n-1][1:], args[:n-1]
	}
	c := exec.Command(hostTool(b, host[0]), args...)
	c.Dir = hostDir
	if stdin != "" {
		f, err := os.Open(filepath.Join(hostDir, stdin))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		c.Stdin = f
	}
	out, err := c.Output()
	if err != nil {
		b.Fatalf("host %v: %v", host, err)
	}
	if !bytes.Equal(out, want.Stdout) {
		b.Fatalf("host %v printed %q, the sandbox %q", host, out, want.Stdout)
	}
	hostCPU := c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	if hostCPU > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N)/float64(hostCPU), "cpu-x-host")
	}
}
