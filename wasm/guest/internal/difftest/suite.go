package difftest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// A Suite compares a module's commands with reference tools over many
// bash scripts, run natively in parallel and, for the scripts marked for
// it, inside the sandbox. Each script runs in a fresh directory: the
// fixture first, then Prelude and the script, then Check (a read-back of
// the state the script left, e.g. a repository as the host's git sees it).
// The module is built once per test binary for each side.
type Suite struct {
	// Commands are the module's command names, linked to its native
	// build (the test's package, in the current directory).
	Commands []string
	// Fixture is a bash script that makes the files every script starts
	// with; it should use only mkdir and printf so that it runs the same
	// in the sandbox.
	Fixture string
	// Prelude is prepended to every script (helper functions).
	Prelude string
	// Check is appended to every script unless the script says NoCheck.
	Check string
	// Env is added to both runs' environment (PATH, TZ=UTC, LC_ALL=C and
	// HOME, the run's directory, are always set).
	Env []string
	// Reference, if set, returns a directory put first on PATH for the
	// reference run (a reference tool built by the test).
	Reference func(t *testing.T) string
	// Modules are the guest modules the sandbox needs (this one and, say,
	// coreutils), built for wasip1 once per test binary.
	Modules []string
	// ForSandbox, if set, rewrites a full script (prelude, script, check)
	// for the sandbox, and ForReference the reference's run compared with
	// it (for steps that need the host).
	ForSandbox, ForReference func(string) string

	buildOnce sync.Once
	binDir    string
	buildErr  error
	toolsOnce sync.Once
	toolsDir  string
	toolsErr  error
}

// A Script is one case of a Suite.
type Script struct {
	Script  string
	Sort    bool // compare stdout sorted by line (output order varies)
	Stderr  bool // compare standard error too
	Box     bool // also run it inside the sandbox
	NoCheck bool // do not append the suite's Check
}

// Native builds the module natively, once, and returns the directory
// holding its commands.
func (s *Suite) Native(t *testing.T) string {
	t.Helper()
	s.buildOnce.Do(func() {
		dir, err := guesttest.TempDir("difftest-bin")
		if err != nil {
			s.buildErr = err
			return
		}
		exe := filepath.Join(dir, "module")
		if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
			s.buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		for _, n := range s.Commands {
			if err := os.Symlink(exe, filepath.Join(dir, n)); err != nil {
				s.buildErr = err
				return
			}
		}
		s.binDir = dir
	})
	if s.buildErr != nil {
		t.Fatal(s.buildErr)
	}
	return s.binDir
}

// Full is a script as it runs: the prelude, the script and the check.
func (s *Suite) Full(c Script) string {
	if c.NoCheck {
		return s.Prelude + c.Script
	}
	return s.Prelude + c.Script + s.Check
}

// RunNative empties dir, makes the fixture there and runs script with
// bash, path (if not empty) first on PATH and env added to the suite's.
// Standard input is /dev/null.
func (s *Suite) RunNative(t *testing.T, dir, path, script string, env ...string) Result {
	t.Helper()
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Error(err)
		return Result{}
	}
	p := "/usr/local/bin:/usr/bin:/bin"
	if path != "" {
		p = path + ":" + p
	}
	all := append([]string{"PATH=" + p, "TZ=UTC", "LC_ALL=C", "HOME=" + dir}, s.Env...)
	all = append(all, env...)
	if s.Fixture != "" {
		if r := bash(dir, s.Fixture, all); r.err != nil || r.Code != 0 {
			t.Errorf("fixture: %v %s", r.err, r.Stderr)
			return Result{}
		}
	}
	r := bash(dir, script, all)
	if r.err != nil {
		t.Errorf("%s: %v", script, r.err)
	}
	return r.Result
}

type bashResult struct {
	Result
	err error
}

// bash runs script with bash -c in dir with env.
func bash(dir, script string, env []string) bashResult {
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code, err = ee.ExitCode(), nil
	}
	return bashResult{Result{out.String(), errOut.String(), code}, err}
}

// SortLines sorts s's lines (each keeping its newline).
func SortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	sort.Strings(lines)
	return strings.Join(lines, "")
}

// Same reports whether got matches want as the case asks.
func (c Script) Same(got, want Result) bool {
	if c.Sort {
		got.Stdout, want.Stdout = SortLines(got.Stdout), SortLines(want.Stdout)
	}
	if got.Stdout != want.Stdout || got.Code != want.Code {
		return false
	}
	return !c.Stderr || got.Stderr == want.Stderr
}

// Report is a failed case's message.
func Report(i int, script string, got, want Result) string {
	return fmt.Sprintf("case %d: %s\ngot  (%d) stdout %q\n     stderr %q\nwant (%d) stdout %q\n     stderr %q",
		i, script, got.Code, got.Stdout, got.Stderr, want.Code, want.Stdout, want.Stderr)
}

// Differential runs every case with the module's commands and with the
// reference's, two at a time (each worker in its own directory), and
// reports those that differ.
func (s *Suite) Differential(t *testing.T, cases []Script) {
	t.Helper()
	bin := s.Native(t)
	ref := ""
	if s.Reference != nil {
		ref = s.Reference(t)
	}
	root := t.TempDir()
	type outcome struct{ got, want Result }
	outcomes := make([]outcome, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := range 2 {
		dir := filepath.Join(root, fmt.Sprint("w", w))
		wg.Go(func() {
			for i := range next {
				script := s.Full(cases[i])
				outcomes[i] = outcome{s.RunNative(t, dir, bin, script), s.RunNative(t, dir, ref, script)}
			}
		})
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	failed := 0
	for i, c := range cases {
		if got, want := outcomes[i].got, outcomes[i].want; !c.Same(got, want) {
			failed++
			t.Error(Report(i, c.Script, got, want))
		}
	}
	t.Logf("%d cases, %d differ", len(cases), failed)
}

// Tools builds s.Modules for wasip1 (through guest.BuildWasm, which
// applies a module's overlay) once per test binary and returns a tools
// directory with their manifest.
func (s *Suite) Tools(t testing.TB) string {
	t.Helper()
	s.toolsOnce.Do(func() {
		dir, err := guesttest.TempDir("difftest-tools")
		if err != nil {
			s.toolsErr = err
			return
		}
		manifest := map[string][]string{}
		for _, m := range s.Modules {
			out := filepath.Join(dir, m+".wasm")
			if err := guest.BuildWasm(context.Background(), "github.com/wasmsand/wasmsand/wasm/guest/"+m, out); err != nil {
				s.toolsErr = fmt.Errorf("building %s: %v", m, err)
				return
			}
			list := exec.Command("go", "run", "../"+m)
			list.Env = append(os.Environ(), "WASMSAND_LIST_COMMANDS=1")
			b, err := list.Output()
			if err != nil {
				s.toolsErr = fmt.Errorf("listing %s: %v", m, err)
				return
			}
			manifest[m+".wasm"] = strings.Fields(string(b))
		}
		data, _ := json.Marshal(manifest)
		s.toolsErr = os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o644)
		s.toolsDir = dir
	})
	if s.toolsErr != nil {
		t.Fatal(s.toolsErr)
	}
	return s.toolsDir
}

// Sandbox returns a sandbox with s.Modules as its tools and TZ=UTC,
// LC_ALL=C and s.Env set, closed when the test ends.
func (s *Suite) Sandbox(t *testing.T, opts sandbox.Options) *sandbox.Sandbox {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	opts.ToolsDir = s.Tools(t)
	opts.CacheDir = filepath.Join(cache, "wasmsand-test", "modules")
	opts.Env = append(append([]string{"TZ=UTC", "LC_ALL=C"}, s.Env...), opts.Env...)
	sb, err := sandbox.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

// InSandbox runs the cases marked Box inside a sandbox (in a fresh
// /tmp/w, the fixture first) and compares each with the reference's
// native run.
func (s *Suite) InSandbox(t *testing.T, cases []Script) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds guest modules")
	}
	sb := s.Sandbox(t, sandbox.Options{})
	ref := ""
	if s.Reference != nil {
		ref = s.Reference(t)
	}
	root := t.TempDir()
	n, failed := 0, 0
	for i, c := range cases {
		if !c.Box {
			continue
		}
		n++
		full := s.Full(c)
		ours, theirs := full, full
		if s.ForSandbox != nil {
			ours = s.ForSandbox(full)
		}
		if s.ForReference != nil {
			theirs = s.ForReference(full)
		}
		want := s.RunNative(t, filepath.Join(root, "w"), ref, theirs)
		script := "cd /; rm -rf /tmp/w; mkdir -p /tmp/w; cd /tmp/w; export HOME=/tmp/w\n" + s.Fixture + "\n" + ours
		res, err := sb.Run(context.Background(), script)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if got := (Result{string(res.Stdout), string(res.Stderr), res.ExitCode}); !c.Same(got, want) {
			failed++
			t.Error(Report(i, c.Script, got, want))
		}
	}
	t.Logf("%d sandbox cases, %d differ", n, failed)
}
