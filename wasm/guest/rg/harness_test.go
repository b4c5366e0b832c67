package main

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
)

// A differential case: a bash script run in a fresh copy of the fixture,
// once with this module's rg first on PATH and once with ripgrep's.
type dcase struct {
	script string
	sort   bool // compare stdout sorted by line (ripgrep searches in parallel)
	stderr bool // compare stderr too
	box    bool // also run inside the sandbox
}

// fixture builds the test tree: r is a git repository (ripgrep only needs
// its .git), plain has a .gitignore but is no repository. It uses only
// mkdir and printf so that it runs the same in bash and in the sandbox.
const fixture = `
mkdir -p r/.git r/src/sub r/docs r/.hidden r/build r/node_modules/pkg r/logs r/deep/a/b/c plain/sub
printf 'build/\n*.log\nnode_modules\n!keep.log\n/top.txt\n' > r/.gitignore
printf 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("Hello, World")\n}\n' > r/src/main.go
printf 'package sub\n\n// TODO: fix this\nfunc Helper() int { return 42 }\nfunc helper2() {}\n' > r/src/sub/util.go
printf 'def hello():\n    print("hello world")\n\nclass Foo:\n    pass\n' > r/src/app.py
printf 'const x = "hello";\nlet y = x + 1;\n' > r/src/index.ts
printf '# Title\n\nSome TODO text\nhello again\n' > r/docs/README.md
printf 'notes: hello\nfoo-bar baz\nfoo_bar\nfoobar\n' > r/docs/notes.txt
printf 'hidden hello\n' > r/.hidden/secret.txt
printf 'hello build\n' > r/build/out.txt
printf 'hello module\n' > r/node_modules/pkg/index.js
printf 'error: hello\n' > r/logs/app.log
printf 'kept hello\n' > r/logs/keep.log
printf 'top hello\n' > r/top.txt
printf 'top hello\n' > r/docs/top.txt
printf 'x\0hello\n' > r/data.bin
printf 'line1\nline2 hello\nline3\nline4\nline5\nline6 hello\nline7\nline8\nline9\nline10 hello\n' > r/ctx.txt
printf 'in dotignore\n' > r/dotign.txt
printf 'dotign.txt\n' > r/.ignore
printf 'a.b\naxb\na\\b\n[x]\n$HOME\nfoo(bar)\n' > r/special.txt
printf 'Caf\303\251 na\303\257ve\nCAF\303\211\n' > r/utf.txt
printf 'no newline hello' > r/nonl.txt
printf '{"k": "hello"}\n' > r/data.json
printf 'k: hello\n' > r/conf.yaml
printf 'deep hello\n' > r/deep/a/b/c/d.txt
printf 'Makefile hello\n' > r/Makefile
printf 'tab\there\n"quoted" hello\n' > r/esc.txt
printf 'ign.txt\n' > plain/.gitignore
printf 'plain hello\n' > plain/ign.txt
printf 'plain hello\n' > plain/sub/kept.txt
printf 'apple\nbanana\ncherry\napple pie\n' > fruits
printf 'hello\nHELLO\nHello\nhElLo\n' > cases
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
		dir, err := os.MkdirTemp("", "rg-bin")
		if err != nil {
			buildErr = err
			return
		}
		exe := filepath.Join(dir, "rgmod")
		if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
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

type result struct {
	stdout, stderr string
	code           int
}

// runNative runs script in a fresh fixture under dir with path first on
// PATH (empty for the real tools only). Standard input is /dev/null.
func runNative(t *testing.T, dir, path, script string) result {
	t.Helper()
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Error(err)
		return result{}
	}
	p := "/usr/local/bin:/usr/bin:/bin"
	if path != "" {
		p = path + ":" + p
	}
	env := []string{"PATH=" + p, "TZ=UTC", "LC_ALL=C", "HOME=" + dir}
	setup := exec.Command("bash", "-c", fixture)
	setup.Dir, setup.Env = dir, env
	if out, err := setup.CombinedOutput(); err != nil {
		t.Errorf("fixture: %v\n%s", err, out)
		return result{}
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
		t.Errorf("%s: %v", script, err)
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

func (c dcase) same(got, want result) bool {
	if c.sort {
		got.stdout, want.stdout = sortLines(got.stdout), sortLines(want.stdout)
	}
	if got.stdout != want.stdout || got.code != want.code {
		return false
	}
	return !c.stderr || got.stderr == want.stderr
}

func oracleAvailable(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("ripgrep not installed (apt-get install ripgrep)")
	}
	if out, _ := exec.Command("rg", "--version").Output(); !bytes.HasPrefix(out, []byte("ripgrep 13.")) {
		t.Skipf("the oracle is ripgrep 13, found %q", firstLine(string(out)))
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestDifferential runs every case with this module's rg and with
// ripgrep's and compares stdout, the exit status and, where asked, stderr.
func TestDifferential(t *testing.T) {
	oracleAvailable(t)
	bin := ourBin(t)
	root := t.TempDir()
	// Two workers, each in its own directory: the cases are independent.
	type outcome struct{ got, want result }
	outcomes := make([]outcome, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := range 2 {
		dir := filepath.Join(root, fmt.Sprint("w", w))
		wg.Go(func() {
			for i := range next {
				c := cases[i]
				outcomes[i] = outcome{runNative(t, dir, bin, c.script), runNative(t, dir, "", c.script)}
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
		got, want := outcomes[i].got, outcomes[i].want
		if !c.same(got, want) {
			failed++
			t.Errorf("case %d: %s\ngot  (%d) stdout %q\n     stderr %q\nwant (%d) stdout %q\n     stderr %q",
				i, c.script, got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
		}
	}
	t.Logf("%d cases, %d differ", len(cases), failed)
}

var (
	toolsOnce sync.Once
	toolsPath string
	toolsErr  error
)

// toolsDir builds this module, coreutils (mkdir and friends for the
// fixture) and sed (for --json cases) for wasip1 and writes their manifest.
func toolsDir(t testing.TB) string {
	t.Helper()
	toolsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "rg-tools")
		if err != nil {
			toolsErr = err
			return
		}
		manifest := map[string][]string{}
		for _, m := range []string{"rg", "coreutils", "sed"} {
			out := filepath.Join(dir, m+".wasm")
			cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "../"+m)
			cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
			if b, err := cmd.CombinedOutput(); err != nil {
				toolsErr = fmt.Errorf("building %s: %v\n%s", m, err, b)
				return
			}
			list := exec.Command("go", "run", "../"+m)
			list.Env = append(os.Environ(), "WASMSAND_LIST_COMMANDS=1")
			b, err := list.Output()
			if err != nil {
				toolsErr = fmt.Errorf("listing %s: %v", m, err)
				return
			}
			manifest[m+".wasm"] = strings.Fields(string(b))
		}
		data, _ := json.Marshal(manifest)
		toolsErr = os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o644)
		toolsPath = dir
	})
	if toolsErr != nil {
		t.Fatal(toolsErr)
	}
	return toolsPath
}

// TestSandbox runs the cases marked for it inside the sandbox and compares
// the answers with ripgrep's on this machine.
func TestSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guest modules")
	}
	oracleAvailable(t)
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sb, err := sandbox.New(context.Background(), sandbox.Options{
		ToolsDir: toolsDir(t),
		CacheDir: filepath.Join(cache, "wasmsand-test", "modules"),
		Env:      []string{"TZ=UTC", "LC_ALL=C"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	root := t.TempDir()
	n, failed := 0, 0
	for i, c := range cases {
		if !c.box {
			continue
		}
		n++
		want := runNative(t, filepath.Join(root, "w"), "", c.script)
		script := "cd /; rm -rf /tmp/w; mkdir -p /tmp/w; cd /tmp/w\n" + fixture + "\n" + c.script
		res, err := sb.Run(context.Background(), script)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		got := result{string(res.Stdout), string(res.Stderr), res.ExitCode}
		if !c.same(got, want) {
			failed++
			t.Errorf("case %d: %s\ngot  (%d) stdout %q\n     stderr %q\nwant (%d) stdout %q\n     stderr %q",
				i, c.script, got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
		}
	}
	t.Logf("%d sandbox cases, %d differ", n, failed)
}
