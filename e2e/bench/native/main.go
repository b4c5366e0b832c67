// Command native times the bench cases on wasmsand's native build (wazero),
// or on bash with the host's GNU tools, and prints {case: figure} as JSON.
// e2e/bench/bench.mjs runs it; by hand:
//
//	go run ./e2e/bench/native -tools build/tools -data DIR -cases '[{"name":"ls","cmd":"ls","runs":3}]'
//
// The figure is the median wall time in milliseconds, or CPU time with -cpu.
// With -rss it is the peak resident set size in KiB instead: of this
// process after one run of the only case given (a fresh process per case,
// since the peak never goes down), or with -bash of the largest process
// each case's bash started (see bashPeakRSS).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/wasmsand/wasmsand/platform/native" // runs the sandbox natively
	"github.com/wasmsand/wasmsand/sandbox"
)

// benchCase is one timed command: its median over Runs runs. Tree marks
// the cases that need the setup command's files.
type benchCase struct {
	Name string `json:"name"`
	Cmd  string `json:"cmd"`
	Runs int    `json:"runs"`
	Tree bool   `json:"tree"`
}

type config struct {
	tools, data, cache, setup string
	cpu, rss, bash            bool
	cases                     []benchCase
}

func main() {
	var c config
	flag.StringVar(&c.tools, "tools", "build/tools", "folder of built guest tools")
	flag.StringVar(&c.data, "data", "", "folder whose files are copied into the sandbox's working directory (with -bash: bash's working directory)")
	cases := flag.String("cases", "", "JSON list of {name, cmd, runs, tree}")
	flag.StringVar(&c.cache, "cachedir", "", "compilation cache folder")
	flag.StringVar(&c.setup, "setup", "", "command run once before the timing (with -rss: only for cases marked tree)")
	flag.BoolVar(&c.cpu, "cpu", false, "time CPU (user + system) rather than the wall clock")
	flag.BoolVar(&c.rss, "rss", false, "report the peak resident set size in KiB instead of time")
	flag.BoolVar(&c.bash, "bash", false, "run the cases with /bin/bash and the host's tools in -data, not in the sandbox")
	flag.Parse()
	err := json.Unmarshal([]byte(*cases), &c.cases)
	if err != nil {
		err = fmt.Errorf("-cases: %w", err)
	} else {
		var out map[string]float64
		if c.bash {
			out, err = runBash(c)
		} else {
			out, err = runSandbox(c)
		}
		if err == nil {
			err = json.NewEncoder(os.Stdout).Encode(out)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "native:", err)
		os.Exit(1)
	}
}

func runSandbox(c config) (map[string]float64, error) {
	if c.rss && len(c.cases) != 1 {
		return nil, errors.New("-rss measures one case a process; give exactly one")
	}
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{ToolsDir: c.tools, CacheDir: c.cache, Timeout: 2 * time.Minute})
	if err != nil {
		return nil, err
	}
	defer sb.Close()
	if c.data != "" {
		ents, err := os.ReadDir(c.data)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			if !e.Type().IsRegular() {
				continue // the setup command makes the rest
			}
			b, err := os.ReadFile(filepath.Join(c.data, e.Name()))
			if err != nil {
				return nil, err
			}
			if err := sb.WriteFile("/home/user/"+e.Name(), b, 0o644); err != nil {
				return nil, err
			}
		}
	}
	if c.setup != "" && (!c.rss || c.cases[0].Tree) {
		if r, err := sb.Run(ctx, c.setup); err != nil || r.ExitCode != 0 {
			return nil, fmt.Errorf("setup: %v %s", err, r.Stderr)
		}
	}
	out := map[string]float64{}
	if c.rss {
		tc := c.cases[0]
		if err := check(sb.Run(ctx, tc.Cmd)); err != nil {
			return nil, fmt.Errorf("%s: %w", tc.Cmd, err)
		}
		kib, err := peakRSS()
		if err != nil {
			return nil, err
		}
		out[tc.Name] = kib
		return out, nil
	}
	// Warm up: the first guest compiles (or loads from the cache) the tools.
	if _, err := sb.Run(ctx, "cat /dev/null | wc -l"); err != nil {
		return nil, err
	}
	for _, tc := range c.cases {
		// A case timed once would count the compile of a tool no earlier
		// case used (tar's archive module): run it once untimed first.
		if tc.Runs <= 1 {
			if err := check(sb.Run(ctx, tc.Cmd)); err != nil {
				return nil, fmt.Errorf("%s: %w", tc.Cmd, err)
			}
		}
		times := make([]float64, 0, tc.Runs)
		for range max(tc.Runs, 1) {
			start, cpu0 := time.Now(), cpuTime(syscall.RUSAGE_SELF)
			if err := check(sb.Run(ctx, tc.Cmd)); err != nil {
				return nil, fmt.Errorf("%s: %w", tc.Cmd, err)
			}
			took := time.Since(start)
			if c.cpu {
				took = cpuTime(syscall.RUSAGE_SELF) - cpu0
			}
			times = append(times, float64(took)/float64(time.Millisecond))
		}
		out[tc.Name] = median(times)
	}
	return out, nil
}

// check turns a run that failed or exited non-zero into an error.
func check(r *sandbox.RunResult, err error) error {
	if err != nil {
		return err
	}
	if r.ExitCode != 0 {
		return fmt.Errorf("exit %d: %s", r.ExitCode, r.Stderr)
	}
	return nil
}

// runBash runs each case with /bin/bash in c.data, as `{ CMD
// } > /dev/null`, with LC_ALL=C. CPU time is counted from the waited-for
// children's usage in microseconds (bash's own times builtin counts in
// clock ticks of 10 ms).
func runBash(c config) (map[string]float64, error) {
	if c.setup != "" {
		if b, err := bashCmd(c.data, c.setup).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("setup: %v %s", err, b)
		}
	}
	out := map[string]float64{}
	for _, tc := range c.cases {
		runs := max(tc.Runs, 1)
		if c.rss {
			runs = 1
		}
		times := make([]float64, 0, runs)
		for range runs {
			if c.rss {
				kib, err := bashPeakRSS(c.data, tc.Cmd)
				if err != nil {
					return nil, err
				}
				times = append(times, kib)
				continue
			}
			cmd := bashCmd(c.data, "{ "+tc.Cmd+"\n} > /dev/null")
			start, cpu0 := time.Now(), cpuTime(syscall.RUSAGE_CHILDREN)
			if b, err := cmd.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("bash %s: %v %s", tc.Cmd, err, b)
			}
			took := time.Since(start)
			if c.cpu {
				took = cpuTime(syscall.RUSAGE_CHILDREN) - cpu0
			}
			times = append(times, float64(took)/float64(time.Millisecond))
		}
		out[tc.Name] = median(times)
	}
	return out, nil
}

// bashPeakRSS returns the peak RSS in KiB of the largest process that bash
// running cmd started, bash included. Linux counts into a process's peak
// the memory its parent had when it forked it, so bash is started by GNU
// time, which is small, rather than by this process; without GNU time the
// figure includes this process's own.
func bashPeakRSS(dir, cmd string) (float64, error) {
	script := "{ " + cmd + "\n} > /dev/null"
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		c := bashCmd(dir, script)
		if b, err := c.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("bash %s: %v %s", cmd, err, b)
		}
		ru, _ := c.ProcessState.SysUsage().(*syscall.Rusage)
		if ru == nil {
			return 0, errors.New("-rss: no resource usage from wait")
		}
		return float64(ru.Maxrss), nil
	}
	f, err := os.CreateTemp("", "bench-rss-")
	if err != nil {
		return 0, err
	}
	f.Close()
	defer os.Remove(f.Name())
	c := exec.Command("/usr/bin/time", "-f", "%M", "-o", f.Name(), "/bin/bash", "-c", script)
	c.Dir, c.Env = dir, append(os.Environ(), "LC_ALL=C")
	if b, err := c.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("bash %s: %v %s", cmd, err, b)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		return 0, err
	}
	return strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
}

// peakRSS returns this process's peak RSS in KiB, VmHWM: unlike
// getrusage's figure it does not start from the memory of the process
// that started this one.
func peakRSS() (float64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}

func bashCmd(dir, script string) *exec.Cmd {
	cmd := exec.Command("/bin/bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

func usage(who int) syscall.Rusage {
	var ru syscall.Rusage
	syscall.Getrusage(who, &ru)
	return ru
}

// cpuTime returns the CPU time used by this process (RUSAGE_SELF) or by
// its waited-for children (RUSAGE_CHILDREN).
func cpuTime(who int) time.Duration {
	ru := usage(who)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
