package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// A differential case: a bash script run in a fresh copy of the fixture,
// once with this module's commands first on PATH and once with GNU's.
type dcase struct {
	script string
	sort   bool // compare stdout sorted by line (directory order differs)
	stderr bool // compare the first line of stderr too
	box    bool // also run inside the sandbox
}

// fixture builds the test tree. It uses only mkdir, printf and touch -d so
// that it runs the same in bash and in the sandbox's shell.
const fixture = `
mkdir -p t/sub/deep t/empty t/.hid t/sp
printf 'alpha\nbeta\ngamma\n' > t/a.txt
printf 'hello world\n' > t/sub/b.TXT
printf 'deep one\n' > t/sub/deep/c.md
printf '' > t/zero
printf 'secret\n' > t/.hid/h
printf 'sp\n' > t/sp/'with space'
printf '%2000s\n' x > t/big
printf '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n' > n1
printf '1\n2\nthree\n4\n5\n6\n7\n8\n9\n11\n12\n13\n14\n15\n16\n17\nx\ny\n19\n20\n' > n2
printf 'a\nb\nc\n' > abc
printf 'a\nB\nc' > aBc
printf 'a  b\n\tc\nd \n' > ws1
printf 'a b\n c\nd\n' > ws2
printf 'x\n\ny\n' > bl1
printf 'x\ny\n\n' > bl2
printf 'a\0b\n' > bin1
printf 'a\0c\n' > bin2
printf 'one\ntwo\n' > notail1
printf 'one\ntwo' > notail2
printf 'caf\303\251\nna\303\257ve\n' > utf1
printf 'caf\303\251\nnaive\n' > utf2
mkdir -p A/s A/only B/s
printf 'same\n' > A/same; printf 'same\n' > B/same
printf 'old\n' > A/f; printf 'new\n' > B/f
printf 'x\n' > A/s/g; printf 'y\n' > B/s/g
printf 'gone\n' > A/gone; printf 'added\n' > B/added
printf 'in only\n' > A/only/o
printf 'w1 w2 w3\nw4\n' > words
printf 'l1\nl2 l2b\nl3\n' > lines
touch -d '2020-01-02 03:04:05' t t/* t/sub/* t/sub/deep/* t/.hid/* t/sp/* n1 n2 abc aBc ws1 ws2 bl1 bl2 bin1 bin2 notail1 notail2 utf1 utf2 A/* A/s/* A/only/* B/* B/s/* words lines
touch -d '2021-06-01 12:00:00' t/a.txt n2
`

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// ourBin builds this module natively and links each command name to it.
func ourBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := guesttest.TempDir("findutils-bin")
		if err != nil {
			buildErr = err
			return
		}
		exe := filepath.Join(dir, "findutils")
		cmd := exec.Command("go", "build", "-o", exe, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = &buildError{string(out)}
			return
		}
		for _, n := range Names() {
			if err := os.Symlink(exe, filepath.Join(dir, n)); err != nil {
				buildErr = err
				return
			}
		}
		binDir = dir
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

type buildError struct{ out string }

func (e *buildError) Error() string { return "go build: " + e.out }

// result is what a case produced.
type result struct {
	stdout, stderr string
	code           int
}

// runNative runs script in a fresh fixture under dir with path first on
// PATH (empty for GNU's tools only).
func runNative(t *testing.T, dir, path, script string) result {
	t.Helper()
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := "/usr/local/bin:/usr/bin:/bin"
	if path != "" {
		p = path + ":" + p
	}
	env := []string{"PATH=" + p, "TZ=UTC", "LC_ALL=C", "HOME=" + dir}
	setup := exec.Command("bash", "-c", fixture)
	setup.Dir, setup.Env = dir, env
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("fixture: %v\n%s", err, out)
	}
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return result{out.String(), errOut.String(), code}
}

func sortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	sort.Strings(lines)
	return strings.Join(lines, "")
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// same compares a result with GNU's as the case asks.
func (c dcase) same(got, want result) bool {
	if c.sort {
		got.stdout, want.stdout = sortLines(got.stdout), sortLines(want.stdout)
	}
	if got.stdout != want.stdout || got.code != want.code {
		return false
	}
	return !c.stderr || firstLine(got.stderr) == firstLine(want.stderr)
}

func gnuAvailable(t *testing.T) {
	for _, c := range []string{"find", "xargs", "diff", "cmp", "patch"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("GNU %s not installed (apt-get install findutils diffutils patch)", c)
		}
	}
}

// TestDifferential runs every case with this module's commands and with
// GNU's and compares stdout, the exit status and, where asked, the first
// line of stderr.
func TestDifferential(t *testing.T) {
	gnuAvailable(t)
	bin := ourBin(t)
	root := t.TempDir()
	failed := 0
	for i, c := range cases {
		dir := filepath.Join(root, "w")
		want := runNative(t, dir, "", c.script)
		got := runNative(t, dir, bin, c.script)
		if !c.same(got, want) {
			failed++
			t.Errorf("case %d: %s\ngot  (%d) stdout %q\n     stderr %q\nwant (%d) stdout %q\n     stderr %q",
				i, c.script, got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
		}
	}
	t.Logf("%d cases, %d differ", len(cases), failed)
}
