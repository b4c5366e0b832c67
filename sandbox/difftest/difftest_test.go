// Package difftest checks the sandbox's shell against GNU bash: every case
// of testdata/corpus.txt runs in bash and in a fresh wasmsand Sandbox, each
// starting from a copy of testdata/files, and their stdout and exit codes
// (and stderr, where a case asks) must match. Deliberate differences are
// listed, with a reason each, in testdata/known-differences.txt.
//
// Run it with:
//
//	go test ./sandbox/difftest                         all cases
//	go test ./sandbox/difftest -run 'Diff/sandbox/glob' some cases
//	go test ./sandbox/difftest -v | grep difftest:      the summary line
package difftest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

const (
	corpusFile = "testdata/corpus.txt"
	knownFile  = "testdata/known-differences.txt"
	filesDir   = "testdata/files"
	sandboxCwd = "/home/user"
	caseLimit  = 60 * time.Second // generous: the machine may be busy

	// warmUp runs every tool the corpus uses once, so that their modules
	// are compiled into the cache before the cases run in parallel.
	warmUp = "echo x | cat | wc -l | head -n 1 | grep x | sort; ls > /dev/null; " +
		"mkdir -p w; touch w/f; cp w/f w/g; mv w/g w/h; rm -r w; seq 1 > /dev/null; " +
		"yes | head -n 1 > /dev/null; sleep 0; true; false\n"
)

// testCase is one block of the corpus.
type testCase struct {
	name    string
	line    int // line of the "### name" header
	script  string
	stderr  bool // compare stderr too
	sortOut bool // compare stdout with its lines sorted
}

// outcome is what one shell run produced.
type outcome struct {
	stdout, stderr string
	code           int
}

// loadCorpus parses the corpus: "### name" headers, "#@" directives right
// after them, and the script lines up to the next header.
func loadCorpus(path string) ([]testCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cases []testCase
	seen := map[string]int{}
	var body []string
	inDirectives := false
	flush := func() error {
		if len(cases) == 0 {
			return nil
		}
		c := &cases[len(cases)-1]
		c.script = strings.TrimSpace(strings.Join(body, "\n")) + "\n"
		if strings.TrimSpace(c.script) == "" {
			return fmt.Errorf("%s:%d: case %q has no script", path, c.line, c.name)
		}
		body = body[:0]
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "### "); ok {
			if err := flush(); err != nil {
				return nil, err
			}
			name = strings.TrimSpace(name)
			if name == "" || strings.ContainsAny(name, " \t/") {
				return nil, fmt.Errorf("%s:%d: case name %q must be one word without '/'", path, n, name)
			}
			if prev, dup := seen[name]; dup {
				return nil, fmt.Errorf("%s:%d: case %q already defined at line %d", path, n, name, prev)
			}
			seen[name] = n
			cases = append(cases, testCase{name: name, line: n})
			inDirectives = true
			continue
		}
		if len(cases) == 0 {
			continue // the preamble
		}
		if d, ok := strings.CutPrefix(line, "#@"); ok && inDirectives {
			c := &cases[len(cases)-1]
			for _, f := range strings.Fields(d) {
				switch f {
				case "stderr":
					c.stderr = true
				case "sort":
					c.sortOut = true
				default:
					return nil, fmt.Errorf("%s:%d: unknown directive %q (want stderr or sort)", path, n, f)
				}
			}
			continue
		}
		inDirectives = false
		body = append(body, line)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return cases, nil
}

// loadKnown reads "name: reason" lines; every name must be a corpus case.
func loadKnown(path string, cases []testCase) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, c := range cases {
		names[c.name] = true
	}
	known := map[string]string{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, ":")
		name, reason = strings.TrimSpace(name), strings.TrimSpace(reason)
		if !ok || reason == "" {
			return nil, fmt.Errorf("%s:%d: want \"case-name: reason\"", path, i+1)
		}
		if !names[name] {
			return nil, fmt.Errorf("%s:%d: no case %q in the corpus", path, i+1, name)
		}
		known[name] = reason
	}
	return known, nil
}

// copyFixtures copies testdata/files into a host directory.
func copyFixtures(dst string) error {
	return fs.WalkDir(os.DirFS(filesDir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		if d.IsDir() {
			return os.Mkdir(target, 0o755)
		}
		data, err := os.ReadFile(filepath.Join(filesDir, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// bashRunner runs cases in GNU bash, each in a fresh directory.
type bashRunner struct {
	bash string
	tmp  string
}

func (b *bashRunner) run(c testCase) (outcome, error) {
	dir, err := os.MkdirTemp(b.tmp, "case")
	if err != nil {
		return outcome{}, err
	}
	defer os.RemoveAll(dir)
	if err := copyFixtures(dir); err != nil {
		return outcome{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), caseLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.bash, "-c", c.script)
	cmd.Dir = dir
	cmd.Env = []string{
		"HOME=" + dir, "PWD=" + dir, "USER=user", "SHELL=/bin/bash",
		"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C",
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		return outcome{}, fmt.Errorf("bash did not finish within %v", caseLimit)
	}
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return outcome{}, err
		}
		code = ee.ExitCode()
	}
	// Host paths become the sandbox's home directory.
	norm := func(s string) string {
		if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
			s = strings.ReplaceAll(s, real, sandboxCwd)
		}
		return strings.ReplaceAll(s, dir, sandboxCwd)
	}
	return outcome{norm(stdout.String()), norm(stderr.String()), code}, nil
}

// runSandbox runs a case in a fresh Sandbox holding the same files.
func runSandbox(c testCase, toolsDir, cacheDir string, timeout time.Duration) (outcome, error) {
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{
		Timeout:  timeout,
		ToolsDir: toolsDir,
		CacheDir: cacheDir,
		Seed:     1,
	})
	if err != nil {
		return outcome{}, fmt.Errorf("sandbox.New: %v", err)
	}
	defer sb.Close()
	err = fs.WalkDir(os.DirFS(filesDir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return err
		}
		if d.IsDir() {
			return sb.Mkdir(p, 0o755)
		}
		data, err := os.ReadFile(filepath.Join(filesDir, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		return sb.WriteFile(p, data, 0o644)
	})
	if err != nil {
		return outcome{}, fmt.Errorf("copying %s into the sandbox: %v", filesDir, err)
	}
	res, err := sb.Run(ctx, c.script)
	if err != nil {
		return outcome{}, fmt.Errorf("Run: %v", err)
	}
	return outcome{string(res.Stdout), string(res.Stderr), res.ExitCode}, nil
}

// compare returns a description of how got differs from want, or "".
func compare(c testCase, want, got outcome) string {
	return compareAs(c, want, got, "bash", "wasmsand")
}

// compareAs is compare with names for the two sides.
func compareAs(c testCase, want, got outcome, wantName, gotName string) string {
	var b strings.Builder
	ws, gs := want.stdout, got.stdout
	if c.sortOut {
		ws, gs = sortLines(ws), sortLines(gs)
	}
	if ws != gs {
		fmt.Fprintf(&b, "stdout (- %s, + %s):\n%s", wantName, gotName, lineDiff(ws, gs))
	}
	if c.stderr && want.stderr != got.stderr {
		fmt.Fprintf(&b, "stderr (- %s, + %s):\n%s", wantName, gotName, lineDiff(want.stderr, got.stderr))
	}
	if want.code != got.code {
		fmt.Fprintf(&b, "exit code: %s %d, %s %d\n", wantName, want.code, gotName, got.code)
	}
	if b.Len() > 0 && !c.stderr && got.stderr != "" {
		fmt.Fprintf(&b, "%s stderr:\n%s", gotName, indent(got.stderr))
	}
	return b.String()
}

func sortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\n")
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

func indent(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t") + "\n"
}

// lineDiff is a small longest-common-subsequence diff of two texts, with
// lines quoted so that whitespace and a missing final newline show.
func lineDiff(a, b string) string {
	x, y := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	if x[len(x)-1] == "" {
		x = x[:len(x)-1]
	}
	if y[len(y)-1] == "" {
		y = y[:len(y)-1]
	}
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			fmt.Fprintf(&out, "\t  %q\n", x[i])
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			fmt.Fprintf(&out, "\t- %q\n", x[i])
			i++
		default:
			fmt.Fprintf(&out, "\t+ %q\n", y[j])
			j++
		}
	}
	return out.String()
}

// verifyBash runs every case twice in bash and checks that the corpus is
// fit to be an oracle: each case finishes, gives the same result twice and
// uses only commands the host has. It returns bash's outcomes.
func verifyBash(t *testing.T, cases []testCase) map[string]outcome {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("the differential test needs GNU bash on PATH: %v", err)
	}
	ver, err := exec.Command(bash, "-c", `echo "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}"`).Output()
	if err != nil {
		t.Fatalf("running %s: %v", bash, err)
	}
	if v := strings.TrimSpace(string(ver)); v < "5" {
		t.Fatalf("bash %s is too old: the corpus is written for bash 5", v)
	}
	b := &bashRunner{bash: bash, tmp: t.TempDir()}

	results := make(map[string]outcome, len(cases))
	var mu sync.Mutex
	work := make(chan testCase)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				first, err := b.run(c)
				var second outcome
				if err == nil {
					second, err = b.run(c)
				}
				mu.Lock()
				switch {
				case err != nil:
					t.Errorf("corpus case %s (%s:%d) fails in bash: %v", c.name, corpusFile, c.line, err)
				case compareAs(c, first, second, "run 1", "run 2") != "":
					t.Errorf("corpus case %s (%s:%d) is not deterministic in bash:\n%s", c.name, corpusFile, c.line, compareAs(c, first, second, "run 1", "run 2"))
				case strings.Contains(first.stderr, "command not found"):
					t.Errorf("corpus case %s (%s:%d) uses a command the host lacks:\n%s", c.name, corpusFile, c.line, indent(first.stderr))
				default:
					results[c.name] = first
				}
				mu.Unlock()
			}
		}()
	}
	for _, c := range cases {
		work <- c
	}
	close(work)
	wg.Wait()
	return results
}

func TestDiff(t *testing.T) {
	cases, err := loadCorpus(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	known, err := loadKnown(knownFile, cases)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 170 {
		t.Errorf("corpus has %d cases, want at least 170", len(cases))
	}

	// 1. The corpus against bash alone.
	want := verifyBash(t, cases)
	if t.Failed() {
		t.Fatal("fix the corpus before comparing with the sandbox")
	}

	// 2. The sandbox against bash.
	toolsDir := guesttest.Dir(t)
	cacheDir := t.TempDir()
	if _, err := runSandbox(testCase{script: warmUp}, toolsDir, cacheDir, 5*time.Minute); err != nil {
		t.Fatalf("warming the sandbox: %v", err)
	}

	var mu sync.Mutex
	var ran, same, knownDiff, unexpected int
	var failed []string
	t.Run("sandbox", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				got, err := runSandbox(c, toolsDir, cacheDir, caseLimit)
				diff := ""
				if err != nil {
					diff = "sandbox failed: " + err.Error() + "\n"
				} else {
					diff = compare(c, want[c.name], got)
				}
				reason, isKnown := known[c.name]
				mu.Lock()
				defer mu.Unlock()
				ran++
				switch {
				case diff == "" && isKnown:
					same++
					t.Errorf("%s:%d: case matches bash now: remove it from %s", corpusFile, c.line, knownFile)
				case diff == "":
					same++
				case isKnown:
					knownDiff++
					t.Logf("known difference (%s):\n%s", reason, diff)
				default:
					unexpected++
					failed = append(failed, c.name)
					t.Errorf("%s:%d: differs from bash\nscript:\n%s%s", corpusFile, c.line, indent(c.script), diff)
				}
			})
		}
	})
	summary := fmt.Sprintf("difftest: %d cases, %d same, %d known differences", ran, same, knownDiff)
	if unexpected > 0 {
		slices.Sort(failed)
		summary += fmt.Sprintf(", %d unexpected differences: %s", unexpected, strings.Join(failed, " "))
	}
	t.Log(summary)
	fmt.Println(summary)
}

func TestCorpusFormat(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text, wantErr string
		want                []testCase
	}{
		{"two cases", "# preamble\n\n### a\n#@ stderr sort\necho a\n\n### b\necho b\n#@ not a directive here\n", "",
			[]testCase{
				{name: "a", line: 3, script: "echo a\n", stderr: true, sortOut: true},
				{name: "b", line: 7, script: "echo b\n#@ not a directive here\n"},
			}},
		{"duplicate", "### a\necho\n### a\necho\n", "already defined", nil},
		{"empty", "### a\n\n### b\necho\n", "no script", nil},
		{"bad name", "### a b\necho\n", "one word", nil},
		{"bad directive", "### a\n#@ nosuch\necho\n", "unknown directive", nil},
	}
	for _, tc := range tests {
		p := filepath.Join(dir, tc.name)
		os.WriteFile(p, []byte(tc.text), 0o644)
		got, err := loadCorpus(p)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: got error %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
}

func TestLineDiff(t *testing.T) {
	got := lineDiff("a\nb\nc\n", "a\nx\nc")
	want := "\t  \"a\\n\"\n\t- \"b\\n\"\n\t- \"c\\n\"\n\t+ \"x\\n\"\n\t+ \"c\"\n"
	if got != want {
		t.Errorf("lineDiff:\n%s\nwant:\n%s", got, want)
	}
	if d := compare(testCase{sortOut: true}, outcome{stdout: "b\na\n"}, outcome{stdout: "a\nb\n"}); d != "" {
		t.Errorf("sorted outputs differ: %s", d)
	}
	if d := compare(testCase{}, outcome{code: 1}, outcome{code: 2}); !strings.Contains(d, "exit code: bash 1, wasmsand 2") {
		t.Errorf("exit codes: got %q", d)
	}
}
