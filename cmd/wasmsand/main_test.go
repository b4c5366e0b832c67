package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

var (
	warmOnce  sync.Once
	buildOnce sync.Once
	binPath   string
	cacheDir  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// wasmsandBin builds the CLI once per test binary and returns its path.
func wasmsandBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wasmsand-cli-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "wasmsand")
		cacheDir = filepath.Join(dir, "cache")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

type result struct {
	stdout, stderr string
	code           int
}

// wasmsand runs the CLI with the built tools and the given stdin.
func wasmsand(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	bin := wasmsandBin(t)
	tools := guesttest.Dir(t)
	// Compile the tools into the cache once, with time to spare, so that
	// tests with short timeouts measure commands, not compilation.
	warmOnce.Do(func() {
		runBin(t, bin, "", "--tools", tools, "--cache-dir", cacheDir, "--timeout", "5m", "-c",
			"echo x | cat | grep x | wc -l | head -n 1; ls; mkdir -p w; seq 1; yes | head -n 1; sleep 0")
	})
	full := append([]string{"--tools", tools, "--cache-dir", cacheDir}, args...)
	return runBin(t, bin, stdin, full...)
}

func runBin(t *testing.T, bin, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(6 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("wasmsand %q did not finish in 6 minutes; stdout %q stderr %q", args, stdout.String(), stderr.String())
	}
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("wasmsand %q: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return result{stdout.String(), stderr.String(), code}
}

func (r result) check(t *testing.T, name, wantOut string, wantCode int) {
	t.Helper()
	if r.stdout != wantOut || r.code != wantCode {
		t.Errorf("%s: got stdout %q exit %d, want %q exit %d (stderr %q)", name, r.stdout, r.code, wantOut, wantCode, r.stderr)
	}
}

func TestCommand(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		stdin    string
		wantOut  string
		wantCode int
	}{
		{"echo", []string{"-c", "echo hello"}, "", "hello\n", 0},
		{"pipeline", []string{"-c", "seq 20 | grep 1 | wc -l"}, "", "11\n", 0},
		{"exit code", []string{"-c", "echo x; exit 3"}, "", "x\n", 3},
		{"false", []string{"-c", "false"}, "", "", 1},
		{"not found", []string{"-c", "no-such-command"}, "", "", 127},
		{"args", []string{"-c", `echo "$#:$1:$2"`, "a b", "c"}, "", "2:a b:c\n", 0},
		{"quoted args", []string{"-c", `printf '[%s]' "$@"`, "it's", "$HOME", ""}, "", "[it's][$HOME][]", 0},
		{"stdin", []string{"-c", "wc -l"}, "a\nb\nc\n", "3\n", 0},
		{"env", []string{"--env", "FOO=bar", "--env", "X=1=2", "-c", "echo $FOO $X"}, "", "bar 1=2\n", 0},
		{"cwd", []string{"--cwd", "/tmp", "-c", "pwd"}, "", "/tmp\n", 0},
		{"default cwd", []string{"-c", "pwd; echo $HOME"}, "", "/home/user\n/home/user\n", 0},
		{"files persist within a run", []string{"-c", "echo data > f; cat f"}, "", "data\n", 0},
		{"fs limit", []string{"--fs-limit", "1K", "-c", "seq 10000 > big || echo full"}, "", "full\n", 0},
		{"flags after -c still apply", []string{"-c", `echo "$1"; sleep 5`, "--timeout", "300ms", "x"}, "", "x\n", 124},
		{"-- ends the flags", []string{"-c", `echo "$1"`, "--", "--timeout"}, "", "--timeout\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wasmsand(t, tc.stdin, tc.args...).check(t, tc.name, tc.wantOut, tc.wantCode)
		})
	}
}

func TestStderr(t *testing.T) {
	r := wasmsand(t, "", "-c", "echo out; echo err >&2; ls /nonexistent")
	if r.stdout != "out\n" || !strings.HasPrefix(r.stderr, "err\n") || !strings.Contains(r.stderr, "nonexistent") || r.code == 0 {
		t.Errorf("got stdout %q stderr %q exit %d", r.stdout, r.stderr, r.code)
	}
}

func TestScript(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.sh")
	text := "#!/bin/bash\n" +
		"echo \"n=$# first=$1 second=$2\"\n" +
		"for a in \"$@\"; do echo \"<$a>\"; done\n" +
		"mkdir -p d && echo hi > d/f && cat d/f\n" +
		"exit 5\n"
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	wasmsand(t, "", script, "one", "two words", "").check(t, "script with args",
		"n=3 first=one second=two words\n<one>\n<two words>\n<>\nhi\n", 5)
	wasmsand(t, "", script).check(t, "script without args",
		"n=0 first= second=\nhi\n", 5)

	// As in bash, the lines before a syntax error run; the error ends
	// the script with status 2.
	bad := filepath.Join(dir, "bad.sh")
	os.WriteFile(bad, []byte("echo ok\nif true; then\n"), 0o644)
	r := wasmsand(t, "", bad, "arg")
	if r.code != 2 || r.stdout != "ok\n" || !strings.Contains(r.stderr, "syntax error") {
		t.Errorf("bad script: got stdout %q exit %d stderr %q, want ok, 2 and a syntax error", r.stdout, r.code, r.stderr)
	}

	r = wasmsand(t, "", filepath.Join(dir, "missing.sh"))
	if r.code != exitNoScript || !strings.Contains(r.stderr, "missing.sh") {
		t.Errorf("missing script: got exit %d stderr %q, want %d and the file name", r.code, r.stderr, exitNoScript)
	}
}

func TestREPLPiped(t *testing.T) {
	input := strings.Join([]string{
		"echo one",
		"x=5",
		"if [ $x = 5 ]; then",
		"  echo five",
		"fi",
		"for i in 1 2; do",
		"echo i=$i",
		"done",
		"echo 'multi",
		"line'",
		"cat <<EOF",
		"here $x",
		"EOF",
		"echo a \\",
		"b",
		"false",
		"echo status=$?",
		"f() { echo in f; return 4; }",
		"f",
		"echo status=$?",
		"cd /tmp",
		"pwd",
		"exit 7",
		"echo not reached",
	}, "\n") + "\n"
	want := "one\nfive\ni=1\ni=2\nmulti\nline\nhere 5\na b\nstatus=1\nin f\nstatus=4\n/tmp\n"
	r := wasmsand(t, input)
	r.check(t, "repl", want, 7)
	if strings.Contains(r.stderr, "$ ") {
		t.Errorf("prompt printed with piped input: stderr %q", r.stderr)
	}
}

func TestREPLExitForms(t *testing.T) {
	tests := []struct {
		name, input, wantOut string
		wantCode             int
	}{
		{"eof keeps last status", "echo a\nfalse\n", "a\n", 1},
		{"eof without newline", "echo a", "a\n", 0},
		{"exit without code", "false\nexit\necho no\n", "", 1},
		{"exit in a function", "bye() { exit 9; }\necho a\nbye\necho no\n", "a\n", 9},
		{"exit in if", "if true; then exit 3; fi\necho no\n", "", 3},
		{"exit in a subshell does not end", "(exit 4)\necho $?\n", "4\n", 0},
		{"untaken exit", "false && exit 2\necho yes\n", "yes\n", 0},
		{"syntax error continues", "echo )\necho after\n", "after\n", 0},
		{"unterminated at eof", "echo 'abc\n", "", 2},
		{"variables persist", "a=1\nb=$((a+1))\necho $b\n", "2\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := wasmsand(t, tc.input)
			if tc.name == "unterminated at eof" {
				if r.code == 0 || r.stdout != "" {
					t.Errorf("got stdout %q exit %d, want a syntax error", r.stdout, r.code)
				}
				return
			}
			r.check(t, tc.name, tc.wantOut, tc.wantCode)
		})
	}
}

func TestTimeout(t *testing.T) {
	start := time.Now()
	r := wasmsand(t, "", "--timeout", "1s", "-c", "echo start; while true; do :; done")
	if r.code != 124 || r.stdout != "start\n" || !strings.Contains(r.stderr, "timed out") {
		t.Errorf("got stdout %q stderr %q exit %d, want exit 124 and 'timed out'", r.stdout, r.stderr, r.code)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("timeout of 1s took %v", d)
	}
	// A guest that never ends is stopped too.
	r = wasmsand(t, "", "--timeout", "500ms", "-c", "yes > /dev/null")
	if r.code != 124 {
		t.Errorf("yes: got exit %d stderr %q, want 124", r.code, r.stderr)
	}
	// In the REPL a timed-out line does not end the session.
	r = wasmsand(t, "sleep 10\necho after $?\n", "--timeout", "500ms")
	r.check(t, "repl timeout", "after 124\n", 0)
}

func TestSeed(t *testing.T) {
	a := wasmsand(t, "", "--seed", "42", "-c", "echo $RANDOM $RANDOM")
	b := wasmsand(t, "", "--seed", "42", "-c", "echo $RANDOM $RANDOM")
	if a.code != 0 || a.stdout == "" || a.stdout != b.stdout {
		t.Errorf("same seed gave %q and %q (exit %d %d)", a.stdout, b.stdout, a.code, b.code)
	}
}

func TestFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"--timeout", "soon", "-c", "true"}, "invalid timeout"},
		{[]string{"--fs-limit", "12X", "-c", "true"}, "invalid size"},
		{[]string{"--memory-limit", "", "-c", "true"}, "invalid size"},
		{[]string{"--max-processes", "-1", "-c", "true"}, "non-negative integer"},
		{[]string{"--fuel", "lots", "-c", "true"}, "non-negative integer"},
		{[]string{"--seed", "x", "-c", "true"}, "integer"},
		{[]string{"--env", "NOEQUALS", "-c", "true"}, "KEY=VALUE"},
		{[]string{"--clock", "yesterday", "-c", "true"}, "RFC 3339"},
		{[]string{"--no-such-flag"}, "not defined"},
		{[]string{"-c"}, "needs an argument"},
	}
	bin := wasmsandBin(t)
	for _, tc := range tests {
		r := runBin(t, bin, "", tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "--help") {
			t.Errorf("%q: got exit %d stderr %q, want exit %d and %q", tc.args, r.code, r.stderr, exitUsage, tc.want)
		}
	}
}

func TestHelpVersion(t *testing.T) {
	bin := wasmsandBin(t)
	for _, arg := range []string{"-h", "--help"} {
		r := runBin(t, bin, "", arg)
		if r.code != 0 || !strings.Contains(r.stdout, "Usage:") || !strings.Contains(r.stdout, "--timeout") {
			t.Errorf("%s: got exit %d stdout %q", arg, r.code, r.stdout)
		}
	}
	r := runBin(t, bin, "", "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "wasmsand ") {
		t.Errorf("--version: got exit %d stdout %q", r.code, r.stdout)
	}
}

func TestMissingTools(t *testing.T) {
	bin := wasmsandBin(t)
	empty := t.TempDir()
	for _, dir := range []string{filepath.Join(empty, "nope"), empty} {
		r := runBin(t, bin, "", "--tools", dir, "-c", "echo hi")
		if r.code != exitSetup || !strings.Contains(r.stderr, "make build") {
			t.Errorf("--tools %s: got exit %d stderr %q, want exit %d and a 'make build' hint", dir, r.code, r.stderr, exitSetup)
		}
	}
	// Without --tools and without tools beside its executable, the CLI
	// uses the tools built from its own sources in the user cache (the
	// directory guesttest builds too).
	guesttest.Dir(t)
	r := runBin(t, bin, "", "-c", "echo a,b | cut -d, -f2")
	if r.code != 0 || r.stdout != "b\n" {
		t.Errorf("default tools: got exit %d stdout %q stderr %q, want b from the cached tools", r.code, r.stdout, r.stderr)
	}
}

func TestInterrupt(t *testing.T) {
	wasmsand(t, "", "-c", "true") // build and warm up outside the timing
	cmd := exec.Command(wasmsandBin(t), "--tools", guesttest.Dir(t), "--cache-dir", cacheDir, "-c", "echo started; sleep 30")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, len("started\n"))
	if _, err := io.ReadFull(out, line); err != nil || string(line) != "started\n" {
		t.Fatalf("read %q, %v", line, err)
	}
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("Ctrl-C did not stop the command")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitSignal {
		t.Errorf("after Ctrl-C: got %v, want exit %d", err, exitSignal)
	}
	t.Logf("stopped %v after Ctrl-C", time.Since(start))
}
