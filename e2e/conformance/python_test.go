package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/cguest"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// TestPythonConformance runs python3, sqlite3, wat2wasm and GNU awk (the C guests) natively, in
// Node 26 and in Chromium, and wants byte-identical outcomes: the C
// guests, their library and their limits behave the same on every
// runtime. It needs the C guests (make cguests): without them it is
// skipped, except under CI=true.
func TestPythonConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every case on every runtime; not in -short mode")
	}
	cdir, ok := cguest.Cached()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("the C guests are not built: CI must run `make cguests`")
		}
		t.Skip("the C guests are not built here (make cguests)")
	}
	b, err := os.ReadFile("python_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []testCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("python_cases.json: %v", err)
	}
	t.Setenv("WASMSAND_CASES", "python_cases.json") // for run.mjs under Node
	// Imports read many files: room for a loaded machine, still a timeout.
	defer func(old int) { timeoutMs = old }(timeoutMs)
	timeoutMs = 10000
	defer func(old string) { warmup = old }(warmup)
	warmup = `python3 -c 'import json, sqlite3, csv, statistics'; sqlite3 :memory: 'select 1'; printf '(module)' > w.wat; wat2wasm w.wat -o w.wasm; awk 'BEGIN { }'`
	tools := withCGuests(t, guesttest.Dir(t), cdir)
	want := runNative(t, tools, cases)
	for k, c := range cases {
		if strings.Contains(c.Name, "timeout") || strings.Contains(c.Name, "runaway") {
			if want[k].ExitCode != 124 {
				t.Errorf("%s: native exit %d, want 124", c.Name, want[k].ExitCode)
			}
		}
	}
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

// withCGuests makes a tools directory with the Go tools and the C guests.
func withCGuests(t *testing.T, goTools, cdir string) string {
	dir := t.TempDir()
	ents, err := os.ReadDir(goTools)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if err := os.Symlink(filepath.Join(goTools, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	// The manifest is rewritten, not linked.
	os.Remove(filepath.Join(dir, "manifest.json"))
	m, err := os.ReadFile(filepath.Join(goTools, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), m, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cguest.Install(cdir, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}
