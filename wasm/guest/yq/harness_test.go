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
// once with this module's yq first on PATH and once with upstream's: yq
// v4.54.2's own main package, built natively from the same module (Debian's
// yq is another program, a jq wrapper). The sandbox cases compare the
// guest with upstream's native build.
type dcase struct {
	script string
	sort   bool // compare stdout sorted by line
	stderr bool // compare stderr too
	box    bool // also run inside the sandbox
}

// fixture holds the documents the cases read. It uses only mkdir and
// printf so that it runs the same in bash and in the sandbox.
const fixture = `
printf 'name: demo\nversion: 1.2\nitems:\n  - id: 1\n    tags: [a, b]\n  - id: 2\n    tags: [c]\nmeta:\n  owner: ann # the owner\n  empty: null\n  flag: true\n' > a.yaml
printf 'name: other\nextra: [1, 2, 3]\nmeta:\n  owner: bob\n' > b.yaml
printf '{"x": 1, "y": {"z": [1, 2]}, "s": "str"}\n' > c.json
printf -- '---\na: 1\n---\na: 2\n---\na: 3\n' > multi.yaml
printf 'name,age\nann,30\nbob,25\n' > p.csv
printf '<root><item id="1">one</item><item id="2">two</item></root>\n' > d.xml
printf '[server]\nhost = "localhost"\nport = 8080\n' > e.toml
printf 'key.one=1\nkey.two=two\n' > f.properties
printf 'a: &anchor\n  v: 1\nb: *anchor\nc:\n  <<: *anchor\n  w: 2\n' > anchors.yaml
printf 'list:\n  - 3\n  - 1\n  - 2\n' > nums.yaml
printf 'bad: [unclosed\n' > bad.yaml
`

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error

	upstreamOnce sync.Once
	upstreamDir  string
	upstreamErr  error
)

// upstream builds yq's own main package natively as "yq" in a directory
// of its own.
func upstream(t *testing.T) string {
	t.Helper()
	upstreamOnce.Do(func() {
		dir, err := os.MkdirTemp("", "yq-upstream")
		if err != nil {
			upstreamErr = err
			return
		}
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "yq"), "github.com/mikefarah/yq/v4").CombinedOutput(); err != nil {
			upstreamErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		upstreamDir = dir
	})
	if upstreamErr != nil {
		t.Fatal(upstreamErr)
	}
	return upstreamDir
}

// ourBin builds this module natively and links each command name to it.
func ourBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "yq-bin")
		if err != nil {
			buildErr = err
			return
		}
		exe := filepath.Join(dir, "yqmod")
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

// TestDifferential runs every case with this module's yq and with
// upstream's and compares stdout, the exit status and, where asked, stderr.
func TestDifferential(t *testing.T) {
	bin := ourBin(t)
	up := upstream(t)
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
				outcomes[i] = outcome{runNative(t, dir, bin, c.script), runNative(t, dir, up, c.script)}
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

// toolsDir builds this module and coreutils (mkdir and friends for the
// fixture) for wasip1 and writes their manifest.
func toolsDir(t testing.TB) string {
	t.Helper()
	toolsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "yq-tools")
		if err != nil {
			toolsErr = err
			return
		}
		manifest := map[string][]string{}
		for _, m := range []string{"yq", "coreutils"} {
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
// the answers with upstream's yq on this machine.
func TestSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guest modules")
	}
	up := upstream(t)
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
		want := runNative(t, filepath.Join(root, "w"), up, c.script)
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
