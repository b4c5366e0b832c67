// Command native times the bench cases on wasmsand's native build (wazero)
// in one process and prints {case: milliseconds} as JSON. e2e/bench/bench.mjs
// runs it; by hand:
//
//	go run ./e2e/bench/native -tools build/tools -data DIR
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	_ "github.com/wasmsand/wasmsand/platform/native" // runs the sandbox natively
	"github.com/wasmsand/wasmsand/sandbox"
)

// benchCase is one timed command: its median over Runs runs.
type benchCase struct {
	Name string `json:"name"`
	Cmd  string `json:"cmd"`
	Runs int    `json:"runs"`
}

func main() {
	tools := flag.String("tools", "build/tools", "folder of built guest tools")
	data := flag.String("data", "", "folder whose files are copied into the sandbox's working directory")
	cases := flag.String("cases", "", "JSON list of {name, cmd, runs}")
	cache := flag.String("cachedir", "", "compilation cache folder")
	setup := flag.String("setup", "", "command run once before the timing")
	cpu := flag.Bool("cpu", false, "time the process's CPU (user + system) rather than the wall clock")
	flag.Parse()
	if err := run(*tools, *data, *cases, *cache, *setup, *cpu); err != nil {
		fmt.Fprintln(os.Stderr, "native:", err)
		os.Exit(1)
	}
}

func run(tools, data, casesJSON, cache, setup string, cpu bool) error {
	var cases []benchCase
	if err := json.Unmarshal([]byte(casesJSON), &cases); err != nil {
		return fmt.Errorf("-cases: %w", err)
	}
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{ToolsDir: tools, CacheDir: cache, Timeout: 2 * time.Minute})
	if err != nil {
		return err
	}
	defer sb.Close()
	if data != "" {
		ents, err := os.ReadDir(data)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if !e.Type().IsRegular() {
				continue // the setup command makes the rest
			}
			b, err := os.ReadFile(filepath.Join(data, e.Name()))
			if err != nil {
				return err
			}
			if err := sb.WriteFile("/home/user/"+e.Name(), b, 0o644); err != nil {
				return err
			}
		}
	}
	if setup != "" {
		if r, err := sb.Run(ctx, setup); err != nil || r.ExitCode != 0 {
			return fmt.Errorf("setup: %v %s", err, r.Stderr)
		}
	}
	// Warm up: the first guest compiles (or loads from the cache) the tools.
	if _, err := sb.Run(ctx, "cat /dev/null | wc -l"); err != nil {
		return err
	}
	out := map[string]float64{}
	for _, c := range cases {
		times := make([]float64, 0, c.Runs)
		for range max(c.Runs, 1) {
			start, cpu0 := time.Now(), cpuTime()
			r, err := sb.Run(ctx, c.Cmd)
			if err != nil {
				return err
			}
			if r.ExitCode != 0 {
				return fmt.Errorf("%s: exit %d: %s", c.Cmd, r.ExitCode, r.Stderr)
			}
			took := time.Since(start)
			if cpu {
				took = cpuTime() - cpu0
			}
			times = append(times, float64(took)/float64(time.Millisecond))
		}
		slices.Sort(times)
		out[c.Name] = times[len(times)/2]
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

// cpuTime returns the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
