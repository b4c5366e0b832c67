// Package difftest is the differential test harness of the guest modules:
// it builds a module natively, runs each case's shell script once with the
// module's commands first on PATH and once with the reference tools (GNU
// coreutils, gawk, jq, ...), each in a fresh copy of a fixture tree, and
// reports where standard output, the exit status or, where a case asks,
// standard error differ. Harness runs each case as a subtest over a
// fixture written from Go; Suite (suite.go) runs many bash scripts in
// parallel over a fixture made by a script, with a read-back of the state
// each script leaves, and the cases marked for it inside the sandbox.
package difftest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A Case is one shell script compared with the reference.
type Case struct {
	Script string
	// Stderr asks for standard error to be compared too.
	Stderr bool
	// StderrLines, if positive, compares only the first so many lines of
	// standard error (for messages that end in host-specific detail).
	StderrLines int
}

// A Harness says how a module's cases run.
type Harness struct {
	// Module names the module: its package is the current directory
	// (the test's), and its binary is built under this name.
	Module string
	// Commands are further names linked to the binary, for multi-call
	// modules.
	Commands []string
	// Reference names the reference tools in messages ("GNU", "gawk").
	Reference string
	// ReferencePath, if set, comes first on PATH for the reference run.
	ReferencePath string
	// Setup writes the fixture into dir, a fresh directory for each run.
	Setup func(t testing.TB, dir string)
	// Locale is LC_ALL for both runs ("C" if empty).
	Locale string
	// SetPWD also sets PWD to the run's directory.
	SetPWD bool
	// FirstLineOfStderr compares only the first line of standard error.
	FirstLineOfStderr bool
	// ReferenceStderr, if set, rewrites the reference's standard error
	// before the comparison (gawk names itself "gawk:").
	ReferenceStderr func(string) string
}

// Result is what a script did.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Build builds the module in the current directory into a temporary
// directory, with a link to it under each of h.Commands, and returns the
// directory.
func (h *Harness) Build(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, h.Module)
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, name := range h.Commands {
		if err := os.Symlink(bin, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// RunScript runs script with bash in a fresh fixture, with path as PATH.
func (h *Harness) RunScript(t *testing.T, script, path string) Result {
	t.Helper()
	dir := t.TempDir()
	h.Setup(t, dir)
	locale := h.Locale
	if locale == "" {
		locale = "C"
	}
	env := []string{"PATH=" + path, "LC_ALL=" + locale, "TZ=UTC", "HOME=" + dir}
	if h.SetPWD {
		env = append(env, "PWD="+dir)
	}
	r := bash(dir, script, env)
	if r.err != nil {
		t.Fatalf("%s: %v", script, r.err)
	}
	return r.Result
}

// Run builds the module and runs every case as a subtest, the reference
// first.
func (h *Harness) Run(t *testing.T, cases []Case) {
	t.Helper()
	ours := h.Build(t)
	sysPath := os.Getenv("PATH")
	refPath := sysPath
	if h.ReferencePath != "" {
		refPath = h.ReferencePath + ":" + sysPath
	}
	ref := h.Reference
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.Script, "/", "∕"), func(t *testing.T) {
			want := h.RunScript(t, c.Script, refPath)
			got := h.RunScript(t, c.Script, ours+":"+sysPath)
			if got.Stdout != want.Stdout {
				t.Errorf("stdout differs\n got: %q\nwant: %q", got.Stdout, want.Stdout)
			}
			if got.Code != want.Code {
				t.Errorf("exit status %d, %s %d (stderr %q, %s %q)", got.Code, ref, want.Code, got.Stderr, ref, want.Stderr)
			}
			if !c.Stderr {
				return
			}
			g, w := got.Stderr, want.Stderr
			if h.FirstLineOfStderr {
				g, w = firstLine(g), firstLine(w)
			}
			if c.StderrLines > 0 {
				g, w = firstLines(g, c.StderrLines), firstLines(w, c.StderrLines)
			}
			if h.ReferenceStderr != nil {
				w = h.ReferenceStderr(w)
			}
			if g != w {
				t.Errorf("stderr differs\n got: %q\nwant: %q", g, w)
			}
		})
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// WriteFiles writes files (name → content) under dir, making parent
// directories as needed.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
