package main

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchFiles makes two texts of about size bytes that differ every few
// hundred lines.
func benchFiles(size int) (a, b []byte) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"}
	var x, y strings.Builder
	for i := 0; x.Len() < size; i++ {
		var l strings.Builder
		for range 8 {
			l.WriteString(words[rng.Intn(len(words))])
			l.WriteByte(' ')
		}
		fmt.Fprintf(&l, "%d\n", i)
		x.WriteString(l.String())
		switch {
		case i%500 == 0:
			fmt.Fprintf(&y, "changed %d\n", i)
		case i%1700 == 0:
			fmt.Fprintf(&y, "inserted %d\n%s", i, l.String())
		default:
			y.WriteString(l.String())
		}
	}
	return []byte(x.String()), []byte(y.String())
}

// TestBenchmarkRatios times commands of this module inside the sandbox
// against GNU's natively, on generated data. It runs only when
// FINDUTILS_BENCH is set, and logs the figures.
func TestBenchmarkRatios(t *testing.T) {
	if os.Getenv("FINDUTILS_BENCH") == "" {
		t.Skip("set FINDUTILS_BENCH=1 to run")
	}
	gnuAvailable(t)
	a, b := benchFiles(5 << 20)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a"), a, 0o644)
	os.WriteFile(filepath.Join(dir, "b"), b, 0o644)
	c := append([]byte(nil), a...)
	c[len(c)-2] ^= 1
	os.WriteFile(filepath.Join(dir, "c"), c, 0o644)
	sb := newSandbox(t)
	sb.WriteFile("/tmp/a", a, 0o644)
	sb.WriteFile("/tmp/b", b, 0o644)
	sb.WriteFile("/tmp/c", c, 0o644)
	// A tree of 40 directories of 100 files for find.
	for i := range 40 {
		d := fmt.Sprintf("tree/d%d", i)
		os.MkdirAll(filepath.Join(dir, d), 0o755)
		sb.Mkdir("/tmp/"+d, 0o755)
		for j := range 100 {
			name := fmt.Sprintf("%s/f%d.txt", d, j)
			os.WriteFile(filepath.Join(dir, name), []byte("x\n"), 0o644)
			sb.WriteFile("/tmp/"+name, []byte("x\n"), 0o644)
		}
	}
	bin := ourBin(t)
	for _, cmd := range []string{"diff -u a b > /dev/null", "cmp a c", "diff -q a b >/dev/null",
		"find tree -name '*9.txt' | wc -l", "find tree -type f -printf '%s %p\\n' | wc -l", "find tree -type f | xargs cat | wc -l"} {
		timeIt := func(f func()) time.Duration {
			best := time.Duration(1 << 62)
			for range 5 {
				start := time.Now()
				f()
				best = min(best, time.Since(start))
			}
			return best
		}
		run := func(path string) func() {
			return func() {
				c := exec.Command("bash", "-c", cmd)
				c.Dir = dir
				c.Env = []string{"PATH=" + path}
				c.Run()
			}
		}
		gnu := timeIt(run("/usr/bin:/bin"))
		native := timeIt(run(bin + ":/usr/bin:/bin"))
		sbx := timeIt(func() { sb.Run(context.Background(), "cd /tmp && "+cmd) })
		t.Logf("%-28s GNU %v, native build %v (%.1fx), sandbox %v (%.1fx)", cmd, gnu, native,
			float64(native)/float64(gnu), sbx, float64(sbx)/float64(gnu))
	}
}
