package bashsuite

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

var (
	dirFlag     = flag.String("bashsuite.dir", "", "bash's tests/ directory (default $WASMSAND_BASH_TESTS, else the user cache's wasmsand/bash-5.2-tests/tests)")
	onlyFlag    = flag.String("bashsuite.only", "", "run only these tests: comma-separated names (arith) or run-* scripts (run-arith)")
	hostFlag    = flag.Bool("bashsuite.host", false, "run the suite with the host's bash instead of the sandbox, to check the harness (like make tests, some tests write to /tmp)")
	timeoutFlag = flag.Duration("bashsuite.timeout", 8*time.Second, "time limit per test file")
	reportFlag  = flag.String("bashsuite.report", "", "write MATCH/DIFF/TIMEOUT/PANIC/ERROR/SKIP per test and the summary to this file")
	outFlag     = flag.String("bashsuite.out", "", "write each test's (filtered) output to DIR/NAME.out")
)

// skipped are the tests the sandbox cannot run meaningfully, with why.
var skipped = map[string]string{
	"jobs": "job control: set -m, fg, bg, suspend and %job specs need a terminal and process groups",
	"read": "read2.sub needs a real FIFO in $TMPDIR and /dev/tty, and races 2,000 background subshells against read -t 0.0001",
}

// slow are tests that need more than the default time limit even in GNU
// bash on an idle machine; they get this much instead (or the flag's
// value, if larger).
var slow = map[string]time.Duration{
	"trap":      30 * time.Second, // sleeps 7, 6 and 5 in the background and waits
	"ifs-posix": 30 * time.Second, // 6,856 IFS cases through eval
	// several hundred runs of the recho guest, each a wasm instance: 4-10 s
	// on a loaded machine, past the default limit without being stuck
	"dollar-at-star": 30 * time.Second,
	"more-exp":       30 * time.Second,
	"exp":            30 * time.Second,
}

const (
	sandboxHome  = "/home/user"
	sandboxTests = sandboxHome + "/tests"
	outFile      = "/tmp/bashsuite.out"
	errFile      = "/tmp/bashsuite.err"
	helperNames  = "recho zecho printenv xcase"
)

// testsDir finds bash's tests/ directory.
func testsDir() string {
	if *dirFlag != "" {
		return *dirFlag
	}
	if d := os.Getenv("WASMSAND_BASH_TESTS"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "wasmsand", "bash-5.2-tests", "tests")
}

// loadTests parses every run-* script of dir.
func loadTests(dir string) ([]suiteTest, error) {
	runs, err := filepath.Glob(filepath.Join(dir, "run-*"))
	if err != nil {
		return nil, err
	}
	slices.Sort(runs)
	var all []suiteTest
	seen := map[string]string{}
	for _, p := range runs {
		name := filepath.Base(p)
		switch name {
		case "run-all", "run-minimal", "run-gprof":
			continue // drivers, not tests
		}
		if strings.HasSuffix(name, "~") || strings.HasSuffix(name, ".orig") {
			continue
		}
		text, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		tests, err := parseRunScript(name, string(text))
		if err != nil {
			return nil, err
		}
		for _, t := range tests {
			if prev, dup := seen[t.name]; dup {
				return nil, fmt.Errorf("test %s is run by both %s and %s", t.name, prev, name)
			}
			seen[t.name] = name
		}
		all = append(all, tests...)
	}
	return all, nil
}

// file is one file of the tests directory, held in memory.
type file struct {
	data []byte
	mode fs.FileMode
}

// readTree reads every regular file under dir.
func readTree(dir string) (map[string]file, error) {
	files := map[string]file{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = file{data, info.Mode().Perm()}
		return nil
	})
	return files, err
}

// command is the shell code that runs t in the tests directory the way
// its run-* script does, leaving the output in out (and stderr that is not
// compared in errPath).
func command(t suiteTest, testsPath, out, errPath string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cd %s || exit 97\n", testsPath)
	for _, p := range t.pre {
		b.WriteString(p + "\n")
	}
	b.WriteString(`"$THIS_SH"`)
	if t.stdinScript {
		b.WriteString(" <")
	}
	b.WriteString(" " + t.script)
	for _, a := range t.args {
		b.WriteString(" " + a)
	}
	if t.stdinNull {
		b.WriteString(" < /dev/null")
	}
	if t.merged {
		fmt.Fprintf(&b, " > %s 2>&1\n", out)
	} else {
		fmt.Fprintf(&b, " > %s 2> %s\n", out, errPath)
	}
	return b.String()
}

// applyFilters does what the run-* script's pipeline stages did.
func applyFilters(out []byte, filters []string) []byte {
	for _, f := range filters {
		switch f {
		case "grep -v ^expect":
			var b bytes.Buffer
			for _, line := range bytes.SplitAfter(out, []byte("\n")) {
				if len(line) > 0 && !bytes.HasPrefix(line, []byte("expect")) {
					b.Write(line)
				}
			}
			out = b.Bytes()
		case "cat -v":
			out = catV(out)
		}
	}
	return out
}

// catV shows bytes as cat -v does: control characters as ^X, DEL as ^?,
// bytes with the high bit as M- followed by the low seven bits so shown.
// Newlines and tabs pass through.
func catV(in []byte) []byte {
	var b bytes.Buffer
	for _, c := range in {
		if c >= 128 {
			b.WriteString("M-")
			c -= 128
		}
		switch {
		case c == '\n' || c == '\t':
			b.WriteByte(c)
		case c < 32:
			b.WriteByte('^')
			b.WriteByte(c + 64)
		case c == 127:
			b.WriteString("^?")
		default:
			b.WriteByte(c)
		}
	}
	return b.Bytes()
}

// lines splits text into lines, the last one without its newline if it
// has none.
func lines(b []byte) []string {
	s := strings.SplitAfter(string(b), "\n")
	if len(s) > 0 && s[len(s)-1] == "" {
		s = s[:len(s)-1]
	}
	return s
}

// editDistance is the number of lines to delete from a and insert from b
// to turn a into b (Myers' O(ND) algorithm, distance only).
func editDistance(a, b []string) int {
	n, m := len(a), len(b)
	max := n + m
	if max == 0 {
		return 0
	}
	v := make([]int, 2*max+2)
	for d := 0; d <= max; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[max+k-1] < v[max+k+1]) {
				x = v[max+k+1]
			} else {
				x = v[max+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[max+k] = x
			if x >= n && y >= m {
				return d
			}
		}
	}
	return max
}

// outcome is one test's result.
type outcome struct {
	output   []byte // filtered, as compared
	timedOut bool
	panicked string // the shell panicked (the run is lost, not the suite)
	err      error  // the harness could not run it
}

// runner runs one test and returns its raw output.
type runner interface {
	run(t suiteTest, limit time.Duration) outcome
}

// sandboxRunner runs tests in fresh sandboxes.
type sandboxRunner struct {
	toolsDir, cacheDir string
	tree               map[string]file
	helper             []byte
}

func (r *sandboxRunner) run(t suiteTest, limit time.Duration) outcome {
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{
		Timeout:  limit,
		ToolsDir: r.toolsDir,
		CacheDir: r.cacheDir,
		Seed:     1,
		Env: []string{
			"THIS_SH=/bin/bash", "BUILD_DIR=" + sandboxHome, "TMPDIR=/tmp",
			"PATH=" + sandboxTests + ":.:/usr/bin:/bin",
		},
	})
	if err != nil {
		return outcome{err: fmt.Errorf("sandbox.New: %v", err)}
	}
	defer sb.Close()
	dirs := map[string]bool{}
	mkdirAll := func(d string) error {
		var parts []string
		for ; d != sandboxHome && !dirs[d]; d = filepath.Dir(d) {
			parts = append(parts, d)
		}
		for i := len(parts) - 1; i >= 0; i-- {
			if err := sb.Mkdir(parts[i], 0o755); err != nil {
				return err
			}
			dirs[parts[i]] = true
		}
		return nil
	}
	for rel, f := range r.tree {
		p := sandboxTests + "/" + rel
		if err := mkdirAll(filepath.Dir(p)); err != nil {
			return outcome{err: err}
		}
		if err := sb.WriteFile(p, f.data, f.mode); err != nil {
			return outcome{err: fmt.Errorf("copying %s: %v", rel, err)}
		}
	}
	for _, h := range strings.Fields(helperNames) {
		if err := sb.WriteFile(sandboxTests+"/"+h, r.helper, 0o755); err != nil {
			return outcome{err: err}
		}
	}
	var res *sandbox.RunResult
	panicked := func() (msg string) {
		defer func() {
			if p := recover(); p != nil {
				msg = fmt.Sprint(p)
			}
		}()
		res, err = sb.Run(ctx, command(t, sandboxTests, outFile, errFile))
		return ""
	}()
	if panicked != "" {
		return outcome{panicked: panicked}
	}
	if err != nil {
		return outcome{err: fmt.Errorf("Run: %v", err)}
	}
	if res.ExitCode == 97 {
		return outcome{err: fmt.Errorf("cd %s failed: %s", sandboxTests, res.Stderr)}
	}
	out, err := sb.ReadFile(outFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return outcome{err: err}
	}
	return outcome{output: applyFilters(out, t.filters), timedOut: res.Metrics.TimedOut}
}

// hostRunner runs tests with the host's bash in temporary directories:
// the same commands, to check the harness itself.
type hostRunner struct {
	tree   map[string]file
	helper []byte
}

func (r *hostRunner) run(t suiteTest, limit time.Duration) outcome {
	root, err := os.MkdirTemp("", "bashsuite-")
	if err != nil {
		return outcome{err: err}
	}
	defer os.RemoveAll(root)
	tests := filepath.Join(root, "tests")
	for rel, f := range r.tree {
		p := filepath.Join(tests, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return outcome{err: err}
		}
		if err := os.WriteFile(p, f.data, f.mode|0o200); err != nil {
			return outcome{err: err}
		}
	}
	for _, h := range strings.Fields(helperNames) {
		if err := os.WriteFile(filepath.Join(tests, h), r.helper, 0o755); err != nil {
			return outcome{err: err}
		}
	}
	tmp := filepath.Join(root, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return outcome{err: err}
	}
	out, errPath := filepath.Join(root, "out"), filepath.Join(root, "err")
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", command(t, tests, out, errPath))
	cmd.Dir = root
	cmd.Env = []string{
		"HOME=" + root, "USER=user", "SHELL=/bin/bash", "LANG=C.UTF-8", "TERM=dumb",
		"THIS_SH=/bin/bash", "BUILD_DIR=" + root, "TMPDIR=" + tmp,
		"PATH=" + tests + ":.:/usr/bin:/bin",
	}
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	timedOut := ctx.Err() != nil
	var ee *exec.ExitError
	if err != nil && !timedOut && !errors.As(err, &ee) {
		return outcome{err: err}
	}
	data, err := os.ReadFile(out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return outcome{err: err}
	}
	return outcome{output: applyFilters(data, t.filters), timedOut: timedOut}
}

// buildHelpers builds internal/helpers for GOOS/GOARCH (empty: the host).
func buildHelpers(t *testing.T, goos, goarch string) []byte {
	t.Helper()
	goTool := "go"
	if p, err := exec.LookPath("go"); err == nil {
		goTool = p
	}
	out := filepath.Join(t.TempDir(), "helpers")
	cmd := exec.Command(goTool, "build", "-trimpath", "-o", out, "./internal/helpers")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if goos != "" {
		cmd.Env = append(cmd.Env, "GOOS="+goos, "GOARCH="+goarch)
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the test helpers: %v\n%s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// selected reports whether -bashsuite.only asks for t.
func selected(t suiteTest) bool {
	if *onlyFlag == "" {
		return true
	}
	for _, w := range strings.Split(*onlyFlag, ",") {
		w = strings.TrimSpace(w)
		if w == t.name || w == t.runScript || "run-"+w == t.runScript {
			return true
		}
	}
	return false
}

func TestBashSuite(t *testing.T) {
	dir := testsDir()
	if _, err := os.Stat(filepath.Join(dir, "run-all")); err != nil {
		msg := fmt.Sprintf("bash's test suite is not at %s (%v): run .ci/bash-tests.sh to fetch it, or point -bashsuite.dir or $WASMSAND_BASH_TESTS at a tests/ directory", dir, err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	all, err := loadTests(dir)
	if err != nil {
		t.Fatal(err)
	}
	if *onlyFlag != "" {
		all = slices.DeleteFunc(all, func(x suiteTest) bool { return !selected(x) })
		if len(all) == 0 {
			t.Fatalf("-bashsuite.only=%s matches no test", *onlyFlag)
		}
	}
	tree, err := readTree(dir)
	if err != nil {
		t.Fatal(err)
	}

	var r runner
	where := "wasmsand"
	if *hostFlag {
		r = &hostRunner{tree: tree, helper: buildHelpers(t, "", "")}
		where = "host bash"
	} else {
		r = &sandboxRunner{
			toolsDir: guesttest.Dir(t),
			cacheDir: t.TempDir(),
			tree:     tree,
			helper:   buildHelpers(t, "wasip1", "wasm"),
		}
	}
	if *outFlag != "" {
		if err := os.MkdirAll(*outFlag, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	var mu sync.Mutex
	status := map[string]string{} // name -> report line
	match, ran := 0, 0
	t.Run("file", func(t *testing.T) {
		for _, st := range all {
			t.Run(st.name, func(t *testing.T) {
				if reason, ok := skipped[st.name]; ok {
					mu.Lock()
					status[st.name] = "SKIP " + st.name + " " + reason
					mu.Unlock()
					t.Skipf("skipped: %s", reason)
				}
				t.Parallel()
				limit := max(*timeoutFlag, slow[st.name])
				start := time.Now()
				res := r.run(st, limit)
				elapsed := time.Since(start).Round(100 * time.Millisecond)
				var line string
				switch {
				case res.err != nil:
					line = fmt.Sprintf("ERROR %s %v", st.name, res.err)
					t.Errorf("%s: the harness could not run it: %v", st.name, res.err)
				case res.panicked != "":
					line = fmt.Sprintf("PANIC %s %s", st.name, strings.ReplaceAll(res.panicked, "\n", " "))
					t.Logf("%s: the shell panicked: %s", st.name, res.panicked)
				default:
					right, err := os.ReadFile(filepath.Join(dir, st.right))
					if err != nil {
						t.Fatal(err)
					}
					// A runaway test can print a million lines: compare
					// at most a few times the expected length, and count
					// the rest as differing lines.
					want, got := lines(right), lines(res.output)
					extra := 0
					if limit := 4*len(want) + 100; len(got) > limit {
						extra, got = len(got)-limit, got[:limit]
					}
					d := editDistance(want, got) + extra
					switch {
					case res.timedOut:
						line = fmt.Sprintf("TIMEOUT %s %d", st.name, d)
						t.Logf("%s: did not finish within %v; %d lines differ from %s so far", st.name, limit, d, st.right)
					case d == 0 && bytes.Equal(right, res.output):
						line = "MATCH " + st.name
						t.Logf("%s: matches %s (%v)", st.name, st.right, elapsed)
					default:
						line = fmt.Sprintf("DIFF %s %d", st.name, d)
						t.Logf("%s: %d lines differ from %s (%v)", st.name, d, st.right, elapsed)
					}
					if *outFlag != "" {
						os.WriteFile(filepath.Join(*outFlag, st.name+".out"), res.output, 0o644)
					}
				}
				mu.Lock()
				defer mu.Unlock()
				ran++
				if strings.HasPrefix(line, "MATCH") {
					match++
				}
				status[st.name] = line
			})
		}
	})
	summary := fmt.Sprintf("bashsuite: %d of %d test files match (%s; %d skipped)", match, ran, where, len(all)-ran)
	t.Log(summary)
	fmt.Println(summary)
	if *reportFlag != "" {
		var b strings.Builder
		for _, st := range all {
			if line, ok := status[st.name]; ok {
				b.WriteString(line + "\n")
			}
		}
		b.WriteString(summary + "\n")
		if err := os.WriteFile(*reportFlag, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParseRunScript(t *testing.T) {
	tests := []struct {
		name, text string
		want       []suiteTest
		wantErr    string
	}{
		{"run-arith", "${THIS_SH} ./arith.tests > ${BASH_TSTOUT} 2>&1\ndiff ${BASH_TSTOUT} arith.right && rm -f ${BASH_TSTOUT}\n",
			[]suiteTest{{name: "arith", runScript: "run-arith", script: "./arith.tests", merged: true, right: "arith.right"}}, ""},
		{"run-braces", "${THIS_SH} ./braces.tests > ${BASH_TSTOUT}\ndiff ${BASH_TSTOUT} braces.right && rm -f ${BASH_TSTOUT}\n",
			[]suiteTest{{name: "braces", runScript: "run-braces", script: "./braces.tests", right: "braces.right"}}, ""},
		{"run-exp-tests", "${THIS_SH} ./exp.tests 2>&1 | grep -v '^expect' > ${BASH_TSTOUT}\ndiff ${BASH_TSTOUT} exp.right && rm -f ${BASH_TSTOUT}\n",
			[]suiteTest{{name: "exp", runScript: "run-exp-tests", script: "./exp.tests", merged: true, filters: []string{"grep -v ^expect"}, right: "exp.right"}}, ""},
		{"run-extglob", "PATH=$PATH:`pwd`\nexport PATH\n${THIS_SH} ./extglob.tests | grep -v '^expect' > ${BASH_TSTOUT}\ndiff ${BASH_TSTOUT} extglob.right\n",
			[]suiteTest{{name: "extglob", runScript: "run-extglob", script: "./extglob.tests", filters: []string{"grep -v ^expect"}, right: "extglob.right", pre: []string{"PATH=$PATH:`pwd`", "export PATH"}}}, ""},
		{"run-rhs-exp", "${THIS_SH} ./rhs-exp.tests 2>&1 > ${BASH_TSTOUT}\ndiff ${BASH_TSTOUT} rhs-exp.right\n",
			[]suiteTest{{name: "rhs-exp", runScript: "run-rhs-exp", script: "./rhs-exp.tests", right: "rhs-exp.right"}}, ""},
		{"run-input-test", "${THIS_SH} < ./input-line.sh > ${BASH_TSTOUT}\ndiff ${BASH_TSTOUT} input.right\n",
			[]suiteTest{{name: "input-line", runScript: "run-input-test", script: "./input-line.sh", stdinScript: true, right: "input.right"}}, ""},
		{"run-set-x", "TEST_NAME='set-x'\nTEST_FILE=\"/tmp/${TEST_NAME}.check\"\n${THIS_SH} ./${TEST_NAME}.tests > $TEST_FILE 2>&1 < /dev/null\nset -f\ndiff $TEST_FILE ${TEST_NAME}.right && rm -f $TEST_FILE\n",
			[]suiteTest{{name: "set-x", runScript: "run-set-x", script: "./set-x.tests", merged: true, stdinNull: true, right: "set-x.right"}}, ""},
		{"run-printf", "${THIS_SH} ./printf.tests 2>&1 | cat -v > ${BASH_TSTOUT} \ndiff ${BASH_TSTOUT} printf.right\n",
			[]suiteTest{{name: "printf", runScript: "run-printf", script: "./printf.tests", merged: true, filters: []string{"cat -v"}, right: "printf.right"}}, ""},
		{"run-quote", "${THIS_SH} ./quote.tests >${BASH_TSTOUT} 2>&1\ndiff ${BASH_TSTOUT} quote.right\n",
			[]suiteTest{{name: "quote", runScript: "run-quote", script: "./quote.tests", merged: true, right: "quote.right"}}, ""},
		{"run-two", "unset OLDPWD\n${THIS_SH} ./a.tests > ${BASH_TSTOUT} 2>&1\ndiff ${BASH_TSTOUT} a.right\n${THIS_SH} ./b.tests > ${BASH_TSTOUT} 2>&1\ndiff ${BASH_TSTOUT} b.right\n",
			[]suiteTest{
				{name: "a", runScript: "run-two", script: "./a.tests", merged: true, right: "a.right", pre: []string{"unset OLDPWD"}},
				{name: "b", runScript: "run-two", script: "./b.tests", merged: true, right: "b.right", pre: []string{"unset OLDPWD"}},
			}, ""},
		{"run-bad-filter", "${THIS_SH} ./x.tests | sort > ${BASH_TSTOUT}\ndiff ${BASH_TSTOUT} x.right\n", nil, "unknown filter"},
		{"run-no-diff", "${THIS_SH} ./x.tests > ${BASH_TSTOUT}\n", nil, "without a diff"},
	}
	for _, tc := range tests {
		got, err := parseRunScript(tc.name, tc.text)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: got error %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", tc.want) {
			t.Errorf("%s:\ngot  %#v\nwant %#v", tc.name, got, tc.want)
		}
	}
}

func TestCommand(t *testing.T) {
	st := suiteTest{script: "./x.tests", merged: true, pre: []string{"unset OLDPWD"}}
	want := "cd /t || exit 97\nunset OLDPWD\n\"$THIS_SH\" ./x.tests > /o 2>&1\n"
	if got := command(st, "/t", "/o", "/e"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	st = suiteTest{script: "./input-line.sh", stdinScript: true}
	want = "cd /t || exit 97\n\"$THIS_SH\" < ./input-line.sh > /o 2> /e\n"
	if got := command(st, "/t", "/o", "/e"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFiltersAndDistance(t *testing.T) {
	if got := string(applyFilters([]byte("a\nexpect x\nb\n"), []string{"grep -v ^expect"})); got != "a\nb\n" {
		t.Errorf("grep -v: %q", got)
	}
	if got := string(catV([]byte("a\x01\t\x7f\xe9\n"))); got != "a^A\t^?M-i\n" {
		t.Errorf("cat -v: %q", got)
	}
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a\nb\n", "a\nb\n", 0}, {"a\nb\nc\n", "a\nc\n", 1}, {"a\n", "b\n", 2}, {"", "x\ny\n", 2},
		{"a\nb\nc\nd\n", "b\nx\nd\ny\n", 4},
	} {
		if got := editDistance(lines([]byte(tc.a)), lines([]byte(tc.b))); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
