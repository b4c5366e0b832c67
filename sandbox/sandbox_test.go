package sandbox

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// newTest makes a sandbox with the real guest tools.
func newTest(t testing.TB, opts Options) *Sandbox {
	t.Helper()
	if opts.ToolsDir == "" {
		opts.ToolsDir = guesttest.Dir(t)
	}
	if opts.CacheDir == "" {
		opts.CacheDir = testCacheDir(t)
	}
	sb, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

func run(t testing.TB, sb *Sandbox, cmd string, opts ...RunOption) *RunResult {
	t.Helper()
	res, err := sb.Run(context.Background(), cmd, opts...)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd, err)
	}
	return res
}

func TestRunBasics(t *testing.T) {
	sb := newTest(t, Options{})
	tests := []struct {
		cmd    string
		stdout string
		code   int
	}{
		{"echo hi", "hi\n", 0},
		{"seq 3", "1\n2\n3\n", 0},
		{"seq 100 | grep 7 | wc -l", "19\n", 0},
		{"printf 'b\\na\\nc\\n' | sort", "a\nb\nc\n", 0},
		{"false", "", 1},
		{"exit 7", "", 7},
		{"nosuchcommand", "", 127},
		{"yes | head -n 2", "y\ny\n", 0},
		{"pwd", "/home/user\n", 0},
		{"echo $HOME $USER $SHELL $PATH", "/home/user user /bin/bash /usr/bin:/bin\n", 0},
		{"cd /tmp && pwd", "/tmp\n", 0},
		{"bash -c 'echo $0 $1' a b", "a b\n", 0},
		{"sh -c 'exit 3'", "", 3},
		{"ls /usr/bin | grep -c '^cat$'", "1\n", 0},
		{"echo x > f.txt; cat f.txt; rm f.txt; ls", "x\n", 0},
		{"cat /dev/null | wc -c", "0\n", 0},
		{"echo a >/dev/null; echo b", "b\n", 0},
	}
	for _, tt := range tests {
		res := run(t, sb, tt.cmd)
		if string(res.Stdout) != tt.stdout || res.ExitCode != tt.code {
			t.Errorf("%q: got %q exit %d (stderr %q), want %q exit %d", tt.cmd, res.Stdout, res.ExitCode, res.Stderr, tt.stdout, tt.code)
		}
	}
}

func TestStatePersists(t *testing.T) {
	sb := newTest(t, Options{})
	run(t, sb, "x=42; f() { echo f$1; }; cd /tmp; export Y=1")
	res := run(t, sb, "echo $x; f 1; pwd; echo $Y")
	if got := string(res.Stdout); got != "42\nf1\n/tmp\n1\n" {
		t.Fatalf("state not kept: %q", got)
	}
	if sb.GetEnv("x") != "42" {
		t.Errorf("GetEnv(x) = %q", sb.GetEnv("x"))
	}
	if err := sb.SetEnv("GREETING", "hello 'world'"); err != nil {
		t.Fatal(err)
	}
	res = run(t, sb, `echo "$GREETING"; bash -c 'echo "$GREETING"'`)
	if got := string(res.Stdout); got != "hello 'world'\nhello 'world'\n" {
		t.Errorf("SetEnv: %q", got)
	}
}

func TestRunOptions(t *testing.T) {
	sb := newTest(t, Options{})
	res := run(t, sb, "cat; echo $V; pwd", WithStdin(strings.NewReader("in\n")), WithEnv("V=v"), WithCwd("/tmp"))
	if got := string(res.Stdout); got != "in\nv\n/tmp\n" {
		t.Fatalf("got %q", got)
	}
	res = run(t, sb, "echo ${V-unset}; pwd")
	if got := string(res.Stdout); got != "unset\n/home/user\n" {
		t.Fatalf("per-run options leaked: %q", got)
	}
	var streamed bytes.Buffer
	res = run(t, sb, "seq 3; echo err >&2", WithStdout(&streamed))
	if streamed.String() != "1\n2\n3\n" || string(res.Stderr) != "err\n" {
		t.Fatalf("streamed %q stderr %q", streamed.String(), res.Stderr)
	}
}

func TestFileAPI(t *testing.T) {
	sb := newTest(t, Options{})
	if err := sb.Mkdir("/data/in", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := sb.WriteFile("/data/in/a.csv", []byte("x,1\ny,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := run(t, sb, "cat /data/in/a.csv | grep y > /data/out.txt")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
	}
	b, err := sb.ReadFile("/data/out.txt")
	if err != nil || string(b) != "y,2\n" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	fi, err := sb.Stat("/data/out.txt")
	if err != nil || fi.Size() != 4 || fi.IsDir() {
		t.Fatalf("Stat = %v, %v", fi, err)
	}
	ents, err := sb.ReadDir("/data")
	if err != nil || len(ents) != 2 || ents[0].Name() != "in" || !ents[0].IsDir() {
		t.Fatalf("ReadDir = %v, %v", ents, err)
	}
	if err := sb.Rm("/data", false); err == nil {
		t.Fatal("Rm of a non-empty directory without recursive succeeded")
	}
	if err := sb.Rm("/data", true); err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Stat("/data"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("after Rm: %v", err)
	}
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sb.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
	if _, err := sb.Run(context.Background(), "true"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Run after Close: %v", err)
	}
}

// loopWasm is `(module (func (export "_start") (loop (br 0))))`.
var loopWasm = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
	0x03, 0x02, 0x01, 0x00,
	0x07, 0x0a, 0x01, 0x06, '_', 's', 't', 'a', 'r', 't', 0x00, 0x00,
	0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b,
}

func TestTimeoutStopsTightLoop(t *testing.T) {
	sb := newTest(t, Options{Timeout: 300 * time.Millisecond})
	if err := sb.WriteFile("/home/user/loop.wasm", loopWasm, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, sb, "cat </dev/null") // compile the tools outside the timings
	for _, cmd := range []string{"./loop.wasm", "while true; do :; done", "./loop.wasm | cat", "sleep 10"} {
		start := time.Now()
		res := run(t, sb, cmd)
		took := time.Since(start)
		if res.ExitCode != 124 || !strings.Contains(string(res.Stderr), "command timed out") {
			t.Errorf("%q: exit %d stderr %q, want 124 and a timeout message", cmd, res.ExitCode, res.Stderr)
		}
		if took > 300*time.Millisecond+150*time.Millisecond {
			t.Errorf("%q: stopped after %v, limit 300ms", cmd, took)
		}
	}
	if res := run(t, sb, "echo still here"); string(res.Stdout) != "still here\n" {
		t.Fatalf("sandbox unusable after timeout: %+v", res)
	}
}

func TestFuelLimit(t *testing.T) {
	fixed := func() time.Time { return time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC) }
	sb := newTest(t, Options{Fuel: 50_000_000, Clock: fixed})
	if err := sb.WriteFile("/home/user/loop.wasm", loopWasm, 0o755); err != nil {
		t.Fatal(err)
	}
	res := run(t, sb, "./loop.wasm")
	if res.ExitCode == 0 || !strings.Contains(string(res.Stderr), "fuel exhausted") {
		t.Fatalf("exit %d stderr %q", res.ExitCode, res.Stderr)
	}
	if res.Metrics.FuelUsed < 50_000_000 || res.Metrics.FuelUsed > 50_000_000+fuelSlice {
		t.Errorf("FuelUsed = %d", res.Metrics.FuelUsed)
	}
	// With an injected clock and a seed, fuel is deterministic: fresh
	// sandboxes running the same commands use the same fuel. (Within one
	// sandbox the PRNG moves on, and the Go runtime's hash seeds with it.
	// Pipelines are not deterministic: how the kernel splits the bytes
	// between reads changes the work.)
	fuel := func() int64 {
		sb := newTest(t, Options{Clock: fixed, Seed: 3})
		run(t, sb, "seq 1000 > f")
		return run(t, sb, "wc -l f; sleep 0.01").Metrics.FuelUsed
	}
	if a, b := fuel(), fuel(); a == 0 || a != b {
		t.Errorf("fuel not deterministic: %d vs %d", a, b)
	}
}

func TestForkBomb(t *testing.T) {
	sb := newTest(t, Options{Timeout: 10 * time.Second})
	for _, bomb := range []string{"bomb(){ bomb|bomb; }; bomb", "b(){ b|b& b; }; b; wait"} {
		start := time.Now()
		res := run(t, sb, bomb)
		if res.ExitCode == 0 || !strings.Contains(string(res.Stderr), "fork: Resource temporarily unavailable") {
			t.Fatalf("%q: exit %d stderr %q", bomb, res.ExitCode, firstLine(string(res.Stderr)))
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%q took %v to stop", bomb, took)
		}
	}
	// When the process cap is reached, only the command that could not
	// start fails, as when fork fails in bash: the script goes on.
	if res := run(t, sb, "f(){ f|f& }; f; sleep 1; echo survived"); string(res.Stdout) != "survived\n" {
		t.Errorf("fork bomb in the background: %q (exit %d)", res.Stdout, res.ExitCode)
	}
	if res := run(t, sb, "echo ok | cat"); string(res.Stdout) != "ok\n" {
		t.Fatalf("sandbox unusable after fork bomb: %+v", res)
	}
}

func TestProcessLimitGuests(t *testing.T) {
	sb := newTest(t, Options{MaxProcesses: 3})
	res := run(t, sb, "seq 5 | cat | cat")
	if res.ExitCode != 0 || string(res.Stdout) != "1\n2\n3\n4\n5\n" {
		t.Fatalf("3 stages: %+v", res)
	}
	// sleep holds its slot while the later stages start: with seq, a
	// loaded machine could end the first stage before the fourth began.
	res = run(t, sb, "sleep 1 | cat | cat | cat")
	if res.ExitCode == 0 || !strings.Contains(string(res.Stderr), "fork: Resource temporarily unavailable") {
		t.Fatalf("4 stages with MaxProcesses 3: exit %d stderr %q", res.ExitCode, res.Stderr)
	}
}

func TestDeepRecursion(t *testing.T) {
	sb := newTest(t, Options{})
	res := run(t, sb, "f() { f; }; f")
	if res.ExitCode == 0 || !strings.Contains(string(res.Stderr), "nesting") {
		t.Fatalf("exit %d stderr %q", res.ExitCode, res.Stderr)
	}
	if res := run(t, sb, "echo ok"); string(res.Stdout) != "ok\n" {
		t.Fatal("sandbox unusable after deep recursion")
	}
}

func TestENOSPC(t *testing.T) {
	sb := newTest(t, Options{FSLimit: 4 << 20})
	res := run(t, sb, "yes > /tmp/f")
	if res.ExitCode == 0 {
		t.Fatalf("yes > /tmp/f succeeded: %+v", res)
	}
	if !strings.Contains(strings.ToLower(string(res.Stderr)), "no space left on device") {
		t.Errorf("stderr %q, want ENOSPC", res.Stderr)
	}
	res = run(t, sb, "rm /tmp/f && echo x > /tmp/g && cat /tmp/g")
	if string(res.Stdout) != "x\n" {
		t.Fatalf("sandbox unusable after ENOSPC: %+v", res)
	}
}

func TestOutputLimit(t *testing.T) {
	sb := newTest(t, Options{OutputLimit: 1000})
	res := run(t, sb, "yes")
	if !res.StdoutTruncated || len(res.Stdout) != 1000 {
		t.Fatalf("truncated=%v len=%d", res.StdoutTruncated, len(res.Stdout))
	}
	// A command substitution is held in host memory: it is capped too.
	res = run(t, sb, "x=$(yes); echo ${#x}")
	if string(res.Stdout) != "999\n" {
		t.Fatalf("x=$(yes): %q (exit %d, %q)", res.Stdout, res.ExitCode, res.Stderr)
	}
}

func TestBadModules(t *testing.T) {
	sb := newTest(t, Options{})
	cases := map[string][]byte{
		"garbage.wasm":   []byte("\x00asm\x01\x00\x00\x00\xff\xff\xff"),
		"truncated.wasm": loopWasm[:20],
	}
	for name, b := range cases {
		if err := sb.WriteFile("/home/user/"+name, b, 0o755); err != nil {
			t.Fatal(err)
		}
		res := run(t, sb, "./"+name)
		if res.ExitCode != 126 || !strings.Contains(string(res.Stderr), "cannot execute binary file") {
			t.Errorf("%s: exit %d stderr %q", name, res.ExitCode, res.Stderr)
		}
	}
	if err := sb.WriteFile("/home/user/noexec", []byte("echo hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := run(t, sb, "./noexec"); res.ExitCode != 126 {
		t.Errorf("non-executable file: exit %d", res.ExitCode)
	}
	if res := run(t, sb, "/tmp"); res.ExitCode != 126 {
		t.Errorf("directory: exit %d", res.ExitCode)
	}
}

func TestScripts(t *testing.T) {
	sb := newTest(t, Options{})
	sb.WriteFile("/home/user/s.sh", []byte("#!/bin/bash\necho script $1 $#\n"), 0o755)
	sb.WriteFile("/home/user/lib.sh", []byte("greet() { echo hello $1; }\n"), 0o644)
	sb.WriteFile("/home/user/env.sh", []byte("#!/usr/bin/env sh\necho via env\n"), 0o755)
	sb.WriteFile("/home/user/zero.sh", []byte("#!/bin/bash\necho $0\n"), 0o755)
	sb.WriteFile("/home/user/plain.sh", []byte("echo $0\n"), 0o755)
	for cmd, want := range map[string]string{
		"./s.sh a b":                    "script a 2\n",
		"sh s.sh x":                     "script x 1\n",
		"bash s.sh":                     "script 0\n",
		"source lib.sh; greet you":      "hello you\n",
		". ./lib.sh; greet me":          "hello me\n",
		"./env.sh":                      "via env\n",
		"echo 'echo from stdin' | bash": "from stdin\n",
		// $0 is the path the script was run by, as Linux's execve
		// passes it to the interpreter: as typed when it has a slash,
		// else the path found on $PATH.
		"./zero.sh":                     "./zero.sh\n",
		"(cd /home && user/zero.sh)":    "user/zero.sh\n",
		"/home/user/zero.sh":            "/home/user/zero.sh\n",
		"PATH=/home/user:$PATH zero.sh": "/home/user/zero.sh\n",
		"./plain.sh":                    "./plain.sh\n",
	} {
		if res := run(t, sb, cmd); string(res.Stdout) != want {
			t.Errorf("%q: got %q (exit %d, %q)", cmd, res.Stdout, res.ExitCode, res.Stderr)
		}
	}
}

func TestBackgroundJobs(t *testing.T) {
	sb := newTest(t, Options{})
	run(t, sb, "sleep 0") // compile the tools outside the timing
	start := time.Now()
	res := run(t, sb, "sleep 0.3 & sleep 0.3 & wait; echo done")
	if string(res.Stdout) != "done\n" {
		t.Fatalf("got %+v", res)
	}
	if took := time.Since(start); took > 550*time.Millisecond {
		t.Errorf("two 0.3s background sleeps took %v: not concurrent", took)
	}
}

func TestNoHostAccess(t *testing.T) {
	sb := newTest(t, Options{})
	for _, cmd := range []string{"cat /etc/shadow", "ls /root", "cd /root", "source ~/.bashrc", "cat /proc/self/environ"} {
		if res := run(t, sb, cmd); res.ExitCode == 0 {
			t.Errorf("%q succeeded: %q", cmd, res.Stdout)
		}
	}
	res := run(t, sb, "echo /*")
	if got := string(res.Stdout); got != "/bin /dev /etc /home /mnt /tmp /usr\n" {
		t.Errorf("echo /* = %q", got)
	}
}

func TestDeterminism(t *testing.T) {
	clock := func() time.Time { return time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC) }
	out := func() string {
		sb := newTest(t, Options{Seed: 7, Clock: clock})
		return string(run(t, sb, "echo $RANDOM $RANDOM; head -c 16 /dev/urandom | wc -c; touch f; ls -l f").Stdout)
	}
	a, b := out(), out()
	if a != b {
		t.Fatalf("same seed and clock gave different output:\n%s\n%s", a, b)
	}
	if !strings.Contains(a, "Jan  2 03:04") {
		t.Errorf("clock not used by ls -l: %q", a)
	}
}

func TestMemoryBomb(t *testing.T) {
	sb := newTest(t, Options{MemoryLimit: 64 << 20})
	bin := buildGuest(t, "./testdata/membomb")
	if err := sb.WriteFile("/home/user/membomb", bin, 0o755); err != nil {
		t.Fatal(err)
	}
	res := run(t, sb, "./membomb")
	if res.ExitCode == 0 {
		t.Fatalf("membomb exited 0")
	}
	if res.Metrics.PeakMemoryBytes > 64<<20 {
		t.Errorf("peak memory %d above the 64 MiB cap", res.Metrics.PeakMemoryBytes)
	}
	if res := run(t, sb, "echo fine"); string(res.Stdout) != "fine\n" {
		t.Fatal("sandbox unusable after memory bomb")
	}
}

// testCacheDir is a compilation cache shared by test runs, so only the
// first run on a machine pays for compiling the tools.
func testCacheDir(t testing.TB) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "wasmsand-test", "modules")
}

var guestBuilds sync.Map

// buildGuest compiles a Go program in dir for wasip1 and returns its bytes.
func buildGuest(t testing.TB, dir string) []byte {
	t.Helper()
	if b, ok := guestBuilds.Load(dir); ok {
		return b.([]byte)
	}
	out := filepath.Join(t.TempDir(), "guest.wasm")
	cmd := exec.Command("go", "build", "-o", out, dir)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", dir, err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	guestBuilds.Store(dir, b)
	return b
}

func TestCommandLookup(t *testing.T) {
	sb := newTest(t, Options{})
	for cmd, want := range map[string]string{
		"command -v ls":                     "/usr/bin/ls\n",
		"type ls":                           "ls is /usr/bin/ls\n",
		"type -t echo":                      "builtin\n",
		"f() { :; }; type -t f":             "function\n",
		"type -t if":                        "keyword\n",
		"command -v nosuch || echo missing": "missing\n",
		"command -v python3 || echo none":   "none\n",
	} {
		if res := run(t, sb, cmd); string(res.Stdout) != want {
			t.Errorf("%q: got %q, want %q (stderr %q)", cmd, res.Stdout, want, res.Stderr)
		}
	}
}

// TestForeignModules runs WASI programs not written in Go: a C program
// built with clang and wasi-libc (sandbox/wasi/testdata/c) is a command
// like any other once it is in the VFS.
func TestForeignModules(t *testing.T) {
	bin, err := os.ReadFile("wasi/testdata/c/guest.wasm")
	if err != nil {
		t.Fatal(err)
	}
	sb := newTest(t, Options{})
	if err := sb.WriteFile("/usr/bin/cguest", bin, 0o755); err != nil {
		t.Fatal(err)
	}
	sb.WriteFile("/home/user/f.txt", []byte("hi"), 0o644)
	for cmd, want := range map[string]string{
		"cguest env a b":                  "args a b\nFOO bar\n",
		"echo piped | cguest cat | wc -c": "6\n",
		"cguest files | grep -c done":     "1\n",
		"cguest cwd | head -n 1":          "f.txt \"hi\"\n",
	} {
		res := run(t, sb, cmd, WithEnv("FOO=bar"))
		if string(res.Stdout) != want || res.ExitCode != 0 {
			t.Errorf("%q: got %q exit %d stderr %q, want %q", cmd, res.Stdout, res.ExitCode, res.Stderr, want)
		}
	}
}

// TestGuestSpawn runs a guest that starts other commands through the
// wasmsand host module (wasm/guest/internal/proc).
func TestGuestSpawn(t *testing.T) {
	sb := newTest(t, Options{})
	bin := buildGuest(t, "../wasm/guest/internal/proc/testdata/spawner")
	if err := sb.WriteFile("/usr/bin/spawner", bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]string{
		"spawner run echo hi":        "hi\nstatus 0\n",
		"spawner run false":          "status 1\n",
		"spawner run nosuch":         "error: no such file or directory\n",
		"echo in | spawner run cat":  "in\nstatus 0\n",
		"spawner run sh -c 'exit 3'": "status 3\n",
		"spawner pipe":               "3\nstatus 0 0\n",
		"spawner kill":               "status 143\n",
	} {
		res := run(t, sb, cmd)
		if string(res.Stdout) != want {
			t.Errorf("%q: got %q exit %d stderr %q, want %q", cmd, res.Stdout, res.ExitCode, res.Stderr, want)
		}
	}
	res := run(t, sb, "cd /tmp && spawner run sh -c pwd")
	if string(res.Stdout) != "/tmp\nstatus 0\n" {
		t.Errorf("child's directory: %q", res.Stdout)
	}
}

// TestShellBudget checks the limits on the shell's own work, which runs in
// the host and would otherwise exhaust its memory.
func TestShellBudget(t *testing.T) {
	sb := newTest(t, Options{Timeout: 20 * time.Second})
	cases := []struct{ cmd, msg string }{
		{"echo {1..1000}{1..1000}{1..1000}", "brace expansion would produce 1000000000 words"},
		{"eval 'echo {a..z}{a..z}{a..z}{a..z}{a..z}'", "brace expansion"},
		{"bash -c 'echo {1..100000}{1..100}'", "brace expansion"},
		{"x=a; while :; do x=$x$x; done", "shell memory limit exceeded"},
	}
	for _, c := range cases {
		res := run(t, sb, c.cmd)
		if res.ExitCode == 0 || !strings.Contains(string(res.Stderr), c.msg) {
			t.Errorf("%q: exit %d stderr %q, want %q", c.cmd, res.ExitCode, res.Stderr, c.msg)
		}
	}
	if res := run(t, sb, "echo {1..3}{a,b}"); string(res.Stdout) != "1a 1b 2a 2b 3a 3b\n" {
		t.Errorf("small brace expansion: %q", res.Stdout)
	}
	if res := run(t, sb, "echo ok"); string(res.Stdout) != "ok\n" {
		t.Fatal("sandbox unusable after the shell budget tests")
	}
}

func TestPrintf(t *testing.T) {
	sb := newTest(t, Options{OutputLimit: 1 << 20})
	for cmd, want := range map[string]string{
		`printf '%.2f %X %q\n' 3.14159 255 'a b'`:                            "3.14 FF a\\ b\n",
		`printf -v x '%05d' 42; echo "$x"`:                                   "00042\n",
		`printf '%s-' a b c | cat; echo`:                                     "a-b-c-\n",
		`printf '%d\n' abc; echo "status $?"`:                                "0\nstatus 1\n",
		`printf '%(%Y)T\n' 0`:                                                "1970\n",
		`f() { local v; printf -v v %s in; echo $v; }; f; echo "${v-unset}"`: "in\nunset\n",
	} {
		res := run(t, sb, cmd)
		if string(res.Stdout) != want {
			t.Errorf("%q: got %q (stderr %q), want %q", cmd, res.Stdout, res.Stderr, want)
		}
	}
	res := run(t, sb, `printf '%d\n' abc`)
	if string(res.Stderr) != "bash: line 1: printf: abc: invalid number\n" {
		t.Errorf("printf error text: %q", res.Stderr)
	}
	res = run(t, sb, `printf '%*s' 2000000000 x`)
	if res.ExitCode == 0 || len(res.Stdout) > 1<<20 {
		t.Errorf("huge width: exit %d, %d bytes", res.ExitCode, len(res.Stdout))
	}
}

func TestShellReadsBounded(t *testing.T) {
	sb := newTest(t, Options{Timeout: 20 * time.Second, OutputLimit: 1 << 20})
	// bash runs a piped script a command at a time; a command that
	// never ends (an open quote on an endless stream) is cut at the limit.
	if res := run(t, sb, `{ echo 'echo "'; yes; } | bash`); res.ExitCode == 0 || !strings.Contains(string(res.Stderr), "larger than the output limit") {
		t.Errorf(`{ echo 'echo "'; yes; } | bash: exit %d stderr %q`, res.ExitCode, res.Stderr)
	}
	res := run(t, sb, "x=$(cat /dev/zero); echo ${#x}")
	if string(res.Stdout) != "0\n" && string(res.Stdout) != "1048576\n" {
		t.Errorf("x=$(cat /dev/zero): %q (stderr %q)", res.Stdout, res.Stderr)
	}
	if res := run(t, sb, "echo ok"); string(res.Stdout) != "ok\n" {
		t.Fatal("sandbox unusable")
	}
}

// TestShellStreamLongQuote: a quoted string of many lines read from a
// pipe ends where its closing quote is, so the command after it reads the
// next line of the stream itself (only lines with the quote character are
// parsed again: without that, reading such a string took time quadratic
// in its length, 14 s for TestShellReadsBounded's megabyte).
func TestShellStreamLongQuote(t *testing.T) {
	sb := newTest(t, Options{})
	for _, q := range []string{`"`, `'`} {
		script := `{ echo "echo ` + q + `a"; seq 20000; echo "b` + q + `"; echo 'read x'; echo hello; echo 'echo got $x'; } | bash | tail -2`
		if res := run(t, sb, script); string(res.Stdout) != "b\ngot hello\n" {
			t.Errorf("%s: %q (stderr %q)", q, res.Stdout, res.Stderr)
		}
	}
}

// TestShellStreamQuoteClosesPastParseFree: past streamParseFree a line
// may be read without parsing; when that line closes the open quote, the
// commands after it still run as their lines arrive (here exit, while
// the stream goes on), not only once the stream ends or the limit is hit.
func TestShellStreamQuoteClosesPastParseFree(t *testing.T) {
	sb := newTest(t, Options{OutputLimit: 1 << 20})
	script := `{ echo 'echo "'; yes 'y\"' | head -n 40000; echo 'end" | wc -l'; echo 'exit 7'; yes 'echo y'; } | bash; echo "status $?"`
	res := run(t, sb, script)
	if string(res.Stdout) != "40002\nstatus 7\n" {
		t.Errorf("stdout %q, stderr %q", res.Stdout, res.Stderr)
	}
}

func TestExited(t *testing.T) {
	sb := newTest(t, Options{})
	for _, c := range []struct {
		cmd  string
		want bool
	}{{"exit 3", true}, {"true", false}, {"(exit 2)", false}, {"set -e; false; echo no", true}} {
		if res := run(t, sb, c.cmd); res.Exited != c.want {
			t.Errorf("%q: Exited = %v, want %v", c.cmd, res.Exited, c.want)
		}
	}
	run(t, sb, "set +e") // set -e stays on in the shell, as in bash
	if res := run(t, sb, "echo after"); string(res.Stdout) != "after\n" || res.Exited {
		t.Fatalf("after exit: %+v", res)
	}
}

func TestLayoutOutsideQuota(t *testing.T) {
	sb := newTest(t, Options{FSLimit: 100})
	if res := run(t, sb, "printf '%100s' x > f; wc -c < f"); string(res.Stdout) != "100\n" {
		t.Fatalf("100 bytes in a 100-byte sandbox: %q %q", res.Stdout, res.Stderr)
	}
	if res := run(t, sb, "echo more | cat >> f"); res.ExitCode == 0 {
		t.Fatal("wrote past FSLimit")
	}
}

func TestGuestEnvironment(t *testing.T) {
	sb := newTest(t, Options{})
	for cmd, want := range map[string]string{
		"export PATH=/x:$PATH; printenv PATH; export PATH=/usr/bin:/bin": "/x:/usr/bin:/bin\n",
		"PATH=/y:$PATH printenv PATH":                                    "/y:/usr/bin:/bin\n",
		"export HOME=/tmp; printenv HOME; export HOME=/home/user":        "/tmp\n",
		"export Z=2; printenv Z; bash -c 'echo $Z'":                      "2\n2\n",
		"NOTEXPORTED=1; printenv NOTEXPORTED || echo none":               "none\n",
		"cd /tmp; printenv PWD":                                          "/tmp\n",
	} {
		if res := run(t, sb, cmd); string(res.Stdout) != want {
			t.Errorf("%q: got %q (stderr %q), want %q", cmd, res.Stdout, res.Stderr, want)
		}
	}
}

// TestTimeoutCommand checks that a guest keeps running its own timers
// while it waits for a child (the timeout tool).
func TestTimeoutCommand(t *testing.T) {
	sb := newTest(t, Options{})
	run(t, sb, "timeout 1 true") // compile outside the timing
	start := time.Now()
	res := run(t, sb, "timeout 0.2 sleep 5; echo $?")
	if string(res.Stdout) != "124\n" {
		t.Fatalf("timeout 0.2 sleep 5: %q %q", res.Stdout, res.Stderr)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("timeout took %v", took)
	}
	if res := run(t, sb, "timeout 5 sh -c 'exit 3'; echo $?"); string(res.Stdout) != "3\n" {
		t.Errorf("exit status through timeout: %q", res.Stdout)
	}
}

func TestDeterministicPipelines(t *testing.T) {
	out := func() string {
		sb := newTest(t, Options{Seed: 11})
		return string(run(t, sb, "seq 20 | shuf | head -n 5; seq 9 | shuf | sort -n | shuf -n 3").Stdout)
	}
	a, b := out(), out()
	if a != b {
		t.Fatalf("same seed, different pipelines:\n%s\n%s", a, b)
	}
}

func TestReadDirectory(t *testing.T) {
	sb := newTest(t, Options{})
	res := run(t, sb, "cat /tmp")
	if res.ExitCode != 1 || string(res.Stderr) != "cat: /tmp: Is a directory\n" {
		t.Fatalf("cat /tmp: exit %d %q", res.ExitCode, res.Stderr)
	}
}

func TestPrintfProgram(t *testing.T) {
	sb := newTest(t, Options{})
	if res := run(t, sb, "seq 3 | xargs printf '<%s>'; echo; /usr/bin/printf '%x\\n' 255"); string(res.Stdout) != "<1><2><3>\nff\n" {
		t.Fatalf("got %q (stderr %q)", res.Stdout, res.Stderr)
	}
}

func TestComplete(t *testing.T) {
	sb := newTest(t, Options{})
	if got := sb.Complete("ech"); !slices.Contains(got, "echo") {
		t.Errorf("Complete(ech) = %v, want echo among them", got)
	}
	run(t, sb, "mkdir -p docs; touch docs/readme.md notes.txt; fn_x() { :; }")
	if got := sb.Complete("fn_"); !slices.Equal(got, []string{"fn_x"}) {
		t.Errorf("Complete(fn_) = %v, want the function", got)
	}
	for line, want := range map[string][]string{
		"cat no":    {"notes.txt"},
		"ls do":     {"docs/"},
		"ls docs/r": {"docs/readme.md"},
	} {
		if got := sb.Complete(line); !slices.Equal(got, want) {
			t.Errorf("Complete(%q) = %v, want %v", line, got, want)
		}
	}
}
