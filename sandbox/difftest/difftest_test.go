// Package difftest checks the sandbox's shell against GNU bash: every case
// of testdata/corpus.txt and testdata/corpus/*.txt runs in bash and in a
// fresh wasmsand Sandbox, each starting from a copy of testdata/files, and
// their stdout and exit codes (and stderr, where a case asks) must match.
// Deliberate differences are listed, with a reason each, in
// testdata/known-differences.txt. Case names are unique across all files.
//
// Run it with:
//
//	go test ./sandbox/difftest                         all cases
//	go test ./sandbox/difftest -run 'Diff/sandbox/glob' some cases
//	go test ./sandbox/difftest -v | grep difftest:      the summary line
//	go test ./sandbox/difftest -run Diff -args -only='^arith-'
//	                                                   only matching cases
//	                                                   (bash runs them alone too)
//	go test ./sandbox/difftest -run Diff -args -bash-only
//	                                                   check the corpus in bash only
//
// Report mode measures instead of judging: every mismatch is recorded, none
// fails the test, and FILE gets one line per case ("PASS name", "FAIL name"
// or "KNOWN name" for a listed known difference that still differs), a
// comment line per corpus file and a final summary line with the pass
// percentage:
//
//	go test ./sandbox/difftest -run Diff -args -report=/tmp/report.txt
//	WASMSAND_DIFF_REPORT=/tmp/report.txt go test ./sandbox/difftest -run Diff
//
// A relative FILE is relative to this package's directory (go test runs
// there). Add -v to see each mismatch's diff in the test log.
package difftest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

var (
	reportFlag = flag.String("report", "", "report mode: write PASS/FAIL/KNOWN per case and a summary to this file, and fail on no mismatch (also $WASMSAND_DIFF_REPORT)")
	onlyFlag   = flag.String("only", "", "run only the cases whose name (or corpus file name) matches this regular expression")
	bashOnly   = flag.Bool("bash-only", false, "only check the corpus against bash (deterministic, runnable); skip the sandbox")
)

const (
	corpusFile = "testdata/corpus.txt" // the first corpus file
	corpusDir  = "testdata/corpus"     // then every *.txt here, by name
	knownFile  = "testdata/known-differences.txt"
	filesDir   = "testdata/files"
	sandboxCwd = "/home/user"
	caseLimit  = 60 * time.Second // generous: the machine may be busy

	// warmUp runs every tool the corpus uses once, so that their modules
	// are compiled into the cache before the cases run in parallel.
	warmUp = "echo x | cat | wc -l | head -n 1 | grep x | sort; ls > /dev/null; " +
		"mkdir -p w; touch w/f; cp w/f w/g; mv w/g w/h; rm -r w; seq 1 > /dev/null; " +
		"yes | head -n 1 > /dev/null; sleep 0; true; false; " +
		"echo a | sed s/a/b/ | awk '{print}' | tr a b | od -c > /dev/null; " +
		"find . -name x | xargs echo > /dev/null; env true; basename a/b > /dev/null\n"
)

// testCase is one block of the corpus.
type testCase struct {
	name    string
	file    string // the corpus file that holds it
	line    int    // line of the "### name" header
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
			cases = append(cases, testCase{name: name, file: path, line: n})
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

// corpusPaths lists the corpus files: corpus.txt, then corpus/*.txt.
func corpusPaths() ([]string, error) {
	more, err := filepath.Glob(filepath.Join(corpusDir, "*.txt"))
	if err != nil {
		return nil, err
	}
	slices.Sort(more)
	return append([]string{corpusFile}, more...), nil
}

// loadAll loads every corpus file; case names must be unique across them.
func loadAll(paths []string) ([]testCase, error) {
	var all []testCase
	where := map[string]testCase{}
	for _, p := range paths {
		cases, err := loadCorpus(p)
		if err != nil {
			return nil, err
		}
		for _, c := range cases {
			if prev, dup := where[c.name]; dup {
				return nil, fmt.Errorf("%s: case %q already defined at %s", c.pos(), c.name, prev.pos())
			}
			where[c.name] = c
		}
		all = append(all, cases...)
	}
	return all, nil
}

// pos is where the case starts, as file:line.
func (c testCase) pos() string { return fmt.Sprintf("%s:%d", c.file, c.line) }

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
	// $0, and the prefix of bash's error messages, is the name bash was
	// started by: "bash", as a user types it and as the sandbox's shell
	// calls itself, not the host's path to it.
	cmd.Args[0] = "bash"
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
	res, err := runRecovered(ctx, sb, c.script)
	if err != nil {
		return outcome{}, fmt.Errorf("Run: %v", err)
	}
	return outcome{string(res.Stdout), string(res.Stderr), res.ExitCode}, nil
}

// runRecovered is sb.Run, with a panic of the shell turned into an error:
// one case that crashes the interpreter must not end the whole run.
func runRecovered(ctx context.Context, sb *sandbox.Sandbox, script string) (res *sandbox.RunResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the shell panicked: %v", p)
		}
	}()
	return sb.Run(ctx, script)
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
					t.Errorf("corpus case %s (%s) fails in bash: %v", c.name, c.pos(), err)
				case compareAs(c, first, second, "run 1", "run 2") != "":
					t.Errorf("corpus case %s (%s) is not deterministic in bash:\n%s", c.name, c.pos(), compareAs(c, first, second, "run 1", "run 2"))
				case missingCommand(first.stderr) != "":
					t.Errorf("corpus case %s (%s) uses a command the host lacks (%s):\n%s", c.name, c.pos(), missingCommand(first.stderr), indent(first.stderr))
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

// missingCommand returns the first command bash's stderr says it could not
// find, unless its name starts with "nosuch": cases that mean to run a
// missing command call it nosuch-something.
func missingCommand(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		head, ok := strings.CutSuffix(line, ": command not found")
		if !ok {
			continue
		}
		name := head[strings.LastIndex(head, ": ")+2:]
		if !strings.HasPrefix(name, "nosuch") {
			return name
		}
	}
	return ""
}

// reportPath is the report mode's output file, or "" in the default mode.
func reportPath() string {
	if *reportFlag != "" {
		return *reportFlag
	}
	return os.Getenv("WASMSAND_DIFF_REPORT")
}

// verdict is one case's result in the sandbox.
type verdict int

const (
	pass   verdict = iota // same as bash
	fail                  // differs, not listed
	knownV                // differs, listed in known-differences.txt
	notRun                // the bash side failed
)

var verdictWord = [...]string{pass: "PASS", fail: "FAIL", knownV: "KNOWN", notRun: "SKIP"}

// writeReport writes the report mode's file: a line per case in corpus
// order, a comment line per corpus file, and the summary line.
func writeReport(path string, cases []testCase, verdicts map[string]verdict) (string, error) {
	var b strings.Builder
	type tally struct{ n, pass, known, fail int }
	perFile := map[string]*tally{}
	var files []string
	var total tally
	for _, c := range cases {
		v, ok := verdicts[c.name]
		if !ok || v == notRun {
			continue
		}
		fmt.Fprintf(&b, "%s %s\n", verdictWord[v], c.name)
		f := perFile[c.file]
		if f == nil {
			f = &tally{}
			perFile[c.file] = f
			files = append(files, c.file)
		}
		for _, t := range []*tally{f, &total} {
			t.n++
			switch v {
			case pass:
				t.pass++
			case knownV:
				t.known++
			case fail:
				t.fail++
			}
		}
	}
	pct := func(t *tally) float64 {
		if t.n == 0 {
			return 0
		}
		return 100 * float64(t.pass) / float64(t.n)
	}
	for _, name := range files {
		f := perFile[name]
		fmt.Fprintf(&b, "# %s: %d of %d pass (%.1f%%), %d known, %d fail\n",
			strings.TrimPrefix(filepath.ToSlash(name), "testdata/"), f.pass, f.n, pct(f), f.known, f.fail)
	}
	summary := fmt.Sprintf("difftest report: %d of %d cases pass (%.1f%%), %d known differences, %d fail",
		total.pass, total.n, pct(&total), total.known, total.fail)
	fmt.Fprintln(&b, summary)
	return summary, os.WriteFile(path, []byte(b.String()), 0o644)
}

func TestDiff(t *testing.T) {
	paths, err := corpusPaths()
	if err != nil {
		t.Fatal(err)
	}
	cases, err := loadAll(paths)
	if err != nil {
		t.Fatal(err)
	}
	known, err := loadKnown(knownFile, cases)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 2000 {
		t.Errorf("corpus has %d cases, want at least 2000", len(cases))
	}
	if *onlyFlag != "" {
		re, err := regexp.Compile(*onlyFlag)
		if err != nil {
			t.Fatalf("-only: %v", err)
		}
		cases = slices.DeleteFunc(cases, func(c testCase) bool {
			return !re.MatchString(c.name) && !re.MatchString(filepath.Base(c.file))
		})
		if len(cases) == 0 {
			t.Fatalf("-only=%q matches no case", *onlyFlag)
		}
	}
	report := reportPath()

	// 1. The corpus against bash alone.
	want := verifyBash(t, cases)
	if t.Failed() {
		t.Fatal("fix the corpus before comparing with the sandbox")
	}
	if *bashOnly {
		t.Logf("difftest: %d cases run the same twice in bash", len(want))
		return
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
	verdicts := make(map[string]verdict, len(cases))
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
				case diff == "":
					same++
					verdicts[c.name] = pass
					if isKnown && report == "" {
						t.Errorf("%s: case matches bash now: remove it from %s", c.pos(), knownFile)
					}
				case isKnown:
					knownDiff++
					verdicts[c.name] = knownV
					t.Logf("known difference (%s):\n%s", reason, diff)
				default:
					unexpected++
					verdicts[c.name] = fail
					failed = append(failed, c.name)
					msg := fmt.Sprintf("%s: differs from bash\nscript:\n%s%s", c.pos(), indent(c.script), diff)
					if report == "" {
						t.Error(msg)
					} else {
						t.Log(msg)
					}
				}
			})
		}
	})
	summary := fmt.Sprintf("difftest: %d cases, %d same, %d known differences", ran, same, knownDiff)
	if unexpected > 0 {
		slices.Sort(failed)
		if report == "" || len(failed) <= 50 {
			summary += fmt.Sprintf(", %d unexpected differences: %s", unexpected, strings.Join(failed, " "))
		} else {
			summary += fmt.Sprintf(", %d unexpected differences", unexpected)
		}
	}
	t.Log(summary)
	fmt.Println(summary)
	if report != "" {
		line, err := writeReport(report, cases, verdicts)
		if err != nil {
			t.Fatalf("writing the report: %v", err)
		}
		t.Logf("%s (written to %s)", line, report)
		fmt.Println(line)
	}
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
		for i := range tc.want {
			tc.want[i].file = p
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}

	// Names are unique across files too.
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("### x\necho\n"), 0o644)
	os.WriteFile(b, []byte("### y\necho\n### x\necho\n"), 0o644)
	if _, err := loadAll([]string{a, b}); err == nil || !strings.Contains(err.Error(), "a.txt:1") {
		t.Errorf("duplicate across files: got %v", err)
	}
}

func TestMissingCommand(t *testing.T) {
	for stderr, want := range map[string]string{
		"": "",
		"bash: line 1: nosuchcmd: command not found\n":         "",
		"bash: line 2: gawk: command not found\n":              "gawk",
		"x\nbash: line 3: f: line 1: zip: command not found\n": "zip",
	} {
		if got := missingCommand(stderr); got != want {
			t.Errorf("missingCommand(%q) = %q, want %q", stderr, got, want)
		}
	}
}

func TestWriteReport(t *testing.T) {
	p := filepath.Join(t.TempDir(), "report.txt")
	cases := []testCase{{name: "a", file: "testdata/corpus.txt"}, {name: "b", file: "testdata/corpus/x.txt"},
		{name: "c", file: "testdata/corpus/x.txt"}, {name: "d", file: "testdata/corpus/x.txt"}}
	summary, err := writeReport(p, cases, map[string]verdict{"a": pass, "b": fail, "c": knownV, "d": pass})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	want := "PASS a\nFAIL b\nKNOWN c\nPASS d\n" +
		"# corpus.txt: 1 of 1 pass (100.0%), 0 known, 0 fail\n" +
		"# corpus/x.txt: 1 of 3 pass (33.3%), 1 known, 1 fail\n" +
		"difftest report: 2 of 4 cases pass (50.0%), 1 known differences, 1 fail\n"
	if string(data) != want {
		t.Errorf("report:\n%s\nwant:\n%s", data, want)
	}
	if !strings.HasPrefix(want[strings.Index(want, "difftest report"):], summary) {
		t.Errorf("summary %q", summary)
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
