package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest"
)

// A differential case: a bash script run in a fresh directory, once with
// this module's git first on PATH and once with git's. The state check
// that follows every script reads the repository with the host's git
// (/usr/bin/git) either way: a repository made here must read the same.
type dcase struct {
	script  string
	stderr  bool // compare stderr too
	box     bool // also run inside the sandbox
	nocheck bool // no state check (the script makes no repository)
}

// prelude defines helpers the cases use; mk makes a repository with one
// commit of a.txt and b.txt.
const prelude = `
mk() { git init -q && printf 'one\ntwo\nthree\n' > a.txt && printf 'x\n' > b.txt && git add . && git commit -qm init; }
`

// check prints the repository's state as the host's git sees it.
const check = `
echo "=== exit $?"
/usr/bin/git status --porcelain=v1 -uall 2>&1
/usr/bin/git log --all --format='%H %P %an %s' 2>&1
/usr/bin/git diff HEAD 2>&1
` + fsckLine

// fsckLine checks the objects natively; the sandbox has no fsck.
const fsckLine = "/usr/bin/git fsck --no-progress 2>&1 | grep -v '^dangling' | head -5\n"

// gitEnv fixes identities and dates so that commit hashes repeat.
var gitEnv = []string{
	"GIT_AUTHOR_NAME=Ann Author", "GIT_AUTHOR_EMAIL=ann@example.com", "GIT_AUTHOR_DATE=@1700000000 +0100",
	"GIT_COMMITTER_NAME=Cid Committer", "GIT_COMMITTER_EMAIL=cid@example.com", "GIT_COMMITTER_DATE=@1700000000 +0100",
	"GIT_CONFIG_NOSYSTEM=1", "GIT_PAGER=cat", "PAGER=cat",
}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// ourBin builds this module natively and links each command name to it.
func ourBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "git-bin")
		if err != nil {
			buildErr = err
			return
		}
		exe := filepath.Join(dir, "gitmod")
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

// runNative runs script in a fresh directory dir with path first on PATH
// (empty for the real tools only). Standard input is /dev/null.
func runNative(t *testing.T, dir, path, script string, extraEnv ...string) result {
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
	env := append([]string{"PATH=" + p, "TZ=UTC", "LC_ALL=C", "HOME=" + dir}, gitEnv...)
	env = append(env, extraEnv...)
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

func (c dcase) same(got, want result) bool {
	if got.stdout != want.stdout || got.code != want.code {
		return false
	}
	return !c.stderr || got.stderr == want.stderr
}

func oracleAvailable(t *testing.T) {
	out, err := exec.Command("/usr/bin/git", "--version").Output()
	if err != nil {
		t.Skip("git not installed (apt-get install git)")
	}
	if !bytes.HasPrefix(out, []byte("git version 2.")) {
		t.Skipf("the oracle is git 2.39, found %q", firstLine(string(out)))
	}
}

// script is a case's full script: the prelude, the case and the check.
func (c dcase) full() string {
	if c.nocheck {
		return prelude + c.script
	}
	return prelude + c.script + check
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestDifferential runs every case with this module's git and with the
// host's and compares stdout (with the state check), the exit status and,
// where asked, stderr.
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
				outcomes[i] = outcome{runNative(t, dir, bin, c.full()), runNative(t, dir, "", c.full())}
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

// toolsDir builds this module (through guest.BuildWasm: go-git needs its
// overlay), coreutils and archive (tar) for wasip1 and writes their
// manifest.
func toolsDir(t testing.TB) string {
	t.Helper()
	toolsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "git-tools")
		if err != nil {
			toolsErr = err
			return
		}
		manifest := map[string][]string{}
		for _, m := range []string{"git", "coreutils", "archive"} {
			out := filepath.Join(dir, m+".wasm")
			if err := guest.BuildWasm(context.Background(), "github.com/wasmsand/wasmsand/wasm/guest/"+m, out); err != nil {
				toolsErr = fmt.Errorf("building %s: %v", m, err)
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

func newSandbox(t *testing.T) *sandbox.Sandbox {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sb, err := sandbox.New(context.Background(), sandbox.Options{
		ToolsDir: toolsDir(t),
		CacheDir: filepath.Join(cache, "wasmsand-test", "modules"),
		Env:      append([]string{"TZ=UTC", "LC_ALL=C"}, gitEnv...),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

// TestExportImport makes a repository in the sandbox, carries it out with
// tar and reads it with the host's git; then the other way round.
func TestExportImport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guest modules")
	}
	oracleAvailable(t)
	sb := newSandbox(t)
	ctx := context.Background()
	script := `mkdir -p /tmp/r && cd /tmp/r && git init -q && printf 'a\nb\n' > f && mkdir d && printf 'x\n' > d/g &&
git add . && git commit -qm one && git checkout -q -b side && printf 'c\n' >> f && git commit -qam two &&
git checkout -q master && git tag -a v1 -m v1 && git merge -q side >/dev/null && printf 'dirty\n' >> d/g &&
tar cf /tmp/r.tar -C /tmp r`
	if res, err := sb.Run(ctx, script); err != nil || res.ExitCode != 0 {
		t.Fatalf("sandbox: %v %d %s", err, res.ExitCode, res.Stderr)
	}
	tarData, err := sb.ReadFile("/tmp/r.tar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "r.tar"), tarData, 0o644); err != nil {
		t.Fatal(err)
	}
	host := func(script string) string {
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = dir
		cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + dir, "LC_ALL=C"}, gitEnv...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		return string(out)
	}
	got := host(`tar --no-same-owner -xf r.tar && cd r && git fsck --no-progress --strict 2>&1 | grep -v ^dangling; git status --porcelain; git log --all --format='%h %p %s'; git cat-file -p v1 | tail -1; git diff --stat`)
	want := " M d/g\n" +
		"3886d6c eb7531f two\neb7531f  one\n" +
		"v1\n" +
		" d/g | 1 +\n 1 file changed, 1 insertion(+)\n"
	if got != want {
		t.Errorf("host git reads the sandbox's repository as\n%s\nwant\n%s", got, want)
	}
	// The host's repository, changed by the host's git, read in the sandbox.
	host(`cd r && git add -A && git commit -qm three && git tag light && git gc -q && cd .. && tar cf back.tar r`)
	back, err := os.ReadFile(filepath.Join(dir, "back.tar"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.WriteFile("/tmp/back.tar", back, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := sb.Run(ctx, `mkdir -p /tmp/b && cd /tmp/b && tar xf /tmp/back.tar && cd r && git status --porcelain && git log --format='%h %s' && git tag && git show --stat --format=%s HEAD`)
	if err != nil {
		t.Fatal(err)
	}
	wantBack := "4321853 three\n3886d6c two\neb7531f one\nlight\nv1\nthree\n\n d/g | 1 +\n 1 file changed, 1 insertion(+)\n"
	if res.ExitCode != 0 || string(res.Stdout) != wantBack {
		t.Errorf("the sandbox's git reads the host's repository as (%d)\n%s%s\nwant\n%s", res.ExitCode, res.Stdout, res.Stderr, wantBack)
	}
}

// TestSandbox runs the cases marked for it inside the sandbox, where the
// state check reads the repository with this git, and compares the
// answers with the host git's.
func TestSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guest modules")
	}
	oracleAvailable(t)
	sb := newSandbox(t)
	root := t.TempDir()
	n, failed := 0, 0
	for i, c := range cases {
		if !c.box {
			continue
		}
		n++
		want := runNative(t, filepath.Join(root, "w"), "", strings.ReplaceAll(c.full(), fsckLine, ""))
		script := "cd /; rm -rf /tmp/w; mkdir -p /tmp/w; cd /tmp/w; export HOME=/tmp/w\n" + strings.ReplaceAll(strings.ReplaceAll(c.full(), fsckLine, ""), "/usr/bin/git", "git")
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
