package sandbox

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm"
)

// TestOutOfMemory runs memory bombs the tools do not check for themselves
// under a small cap: each ends with one line in GNU's words and status 2,
// never the Go runtime's fatal error and goroutine dump, and the sandbox
// stays usable.
func TestOutOfMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm modules")
	}
	sb := newTest(t, Options{MemoryLimit: 32 << 20})
	if err := sb.WriteFile("/home/user/membomb", buildGuest(t, "./testdata/membomb"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cmd, stderr string }{
		{`awk 'BEGIN { s = "x"; while (1) s = s s }'`, "awk: memory exhausted\n"},
		{`jq -n '[range(1e9)]'`, "jq: memory exhausted\n"},
		{`yes abcdefgh | tr -d '\n' | head -c 100000000 | tail -1`, "tail: memory exhausted\n"},
		{`yes abcdefgh | tr -d '\n' | head -c 100000000 | sort`, "sort: memory exhausted\n"},
		{`seq 1 inf | sort -n`, "sort: memory exhausted\n"},
		{`./membomb`, "membomb: memory exhausted\n"},
	} {
		res := run(t, sb, tc.cmd)
		if string(res.Stderr) != tc.stderr || res.ExitCode != 2 {
			t.Errorf("%s: got stderr %.300q (%d lines), status %d; want %q, status 2",
				tc.cmd, res.Stderr, strings.Count(string(res.Stderr), "\n"), res.ExitCode, tc.stderr)
		}
		if res := run(t, sb, "echo fine | cat"); string(res.Stdout) != "fine\n" {
			t.Fatalf("after %s: the sandbox is unusable: %q", tc.cmd, res.Stdout)
		}
	}
	// fd 2 redirected to a file gets the line too; closed, only the status
	// tells
	for cmd, want := range map[string]string{
		`jq -n '[range(1e9)]' 2>err; echo $?; cat err`: "2\njq: memory exhausted\n",
		`jq -n '[range(1e9)]' 2>&-; echo $?`:           "2\n",
	} {
		res := run(t, sb, cmd)
		if string(res.Stdout) != want || len(res.Stderr) != 0 {
			t.Errorf("%s: got stdout %.300q, stderr %.300q; want %q and no stderr", cmd, res.Stdout, res.Stderr, want)
		}
	}
}

// TestGoPanicShown checks that a Go guest's fatal error that is not for
// want of memory reaches the user whole.
func TestGoPanicShown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm modules")
	}
	sb := newTest(t, Options{MemoryLimit: 32 << 20})
	if err := sb.WriteFile("/home/user/gopanic", buildGuest(t, "./testdata/gopanic"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := run(t, sb, "./gopanic")
	if string(res.Stdout) != "before\n" || res.ExitCode != 2 ||
		!strings.HasPrefix(string(res.Stderr), "panic: assignment to entry in nil map\n") ||
		!strings.Contains(string(res.Stderr), "main.main()") {
		t.Errorf("gopanic: got stdout %q, stderr %.300q, status %d; want the panic and its goroutine, status 2",
			res.Stdout, res.Stderr, res.ExitCode)
	}
}

// TestOOMWatch checks what oomWatch drops and when it calls a guest's end
// running out of memory.
func TestOOMWatch(t *testing.T) {
	refused := false
	w := &oomWatch{refused: func() bool { return refused }}
	for _, tc := range []struct {
		write   string
		refused bool
		drop    bool
	}{
		{"fatal error: all goroutines are asleep - deadlock!\n", false, false}, // no refused growth
		{"sort: write error\n", true, false},                                   // the program's own line
		{"runtime: out of memory: cannot allocate ", true, true},
		{"16777216", true, true},
		{"sort: anything\n", true, true}, // the rest of the report
	} {
		refused = tc.refused
		if got := w.drop([]byte(tc.write)); got != tc.drop {
			t.Errorf("drop(%q) with refused %v = %v, want %v", tc.write, tc.refused, got, tc.drop)
		}
	}
	if w := (&oomWatch{}); w.drop([]byte("fatal error: out of memory\n")) {
		t.Error("dropped a write before the guest was instantiated")
	}

	trap := &wasm.Trap{Kind: wasm.TrapUnreachable}
	for _, tc := range []struct {
		crashed, refused bool
		err              error
		want             bool
	}{
		{true, true, &wasm.ExitError{Code: 2}, true},
		{true, true, trap, true},
		{true, true, nil, false},
		{true, true, &wasm.ExitError{Code: 0}, false},
		{false, true, &wasm.ExitError{Code: 1}, false}, // survived the refusal, failed on its own
		{false, false, trap, false},
	} {
		w := &oomWatch{crashed: tc.crashed, refused: func() bool { return tc.refused }}
		if got := w.ranOut(tc.err); got != tc.want {
			t.Errorf("ranOut(%v) crashed %v refused %v = %v, want %v", tc.err, tc.crashed, tc.refused, got, tc.want)
		}
	}
}

// TestAsExitError finds an exit error as it is, wrapped, or not at all.
func TestAsExitError(t *testing.T) {
	exit := &wasm.ExitError{Code: 3}
	for _, c := range []struct {
		err  error
		want *wasm.ExitError
	}{
		{exit, exit},
		{fmt.Errorf("running: %w", exit), exit},
		{errors.New("other"), nil},
		{nil, nil},
	} {
		got, ok := asExitError(c.err)
		if got != c.want || ok != (c.want != nil) {
			t.Errorf("asExitError(%v) = %v, %v; want %v", c.err, got, ok, c.want)
		}
	}
}
