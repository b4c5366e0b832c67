package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
)

// A differential case is a bash script run in a fresh directory, once with
// this module's git first on PATH and once with git's. The state check
// that follows every script reads the repository with the host's git
// (/usr/bin/git) either way: a repository made here must read the same.
// In the sandbox, the check reads it with this git and git fsck is left
// out (the sandbox has none).
var suite = &difftest.Suite{
	Commands: Names(),
	Prelude:  prelude,
	Check:    check,
	Env:      gitEnv,
	Modules:  []string{"git", "coreutils", "archive"},
	ForSandbox: func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, fsckLine, ""), "/usr/bin/git", "git")
	},
	ForReference: func(s string) string { return strings.ReplaceAll(s, fsckLine, "") },
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

func oracleAvailable(t *testing.T) {
	out, err := exec.Command("/usr/bin/git", "--version").Output()
	if err != nil {
		t.Skip("git not installed (apt-get install git)")
	}
	if !bytes.HasPrefix(out, []byte("git version 2.")) {
		l, _, _ := strings.Cut(string(out), "\n")
		t.Skipf("the oracle is git 2.39, found %q", l)
	}
}

// TestDifferential runs every case with this module's git and with the
// host's and compares stdout (with the state check), the exit status and,
// where asked, stderr.
func TestDifferential(t *testing.T) {
	oracleAvailable(t)
	suite.Differential(t, cases)
}

// TestSandbox runs the cases marked for it inside the sandbox, where the
// state check reads the repository with this git, and compares the
// answers with the host git's.
func TestSandbox(t *testing.T) {
	oracleAvailable(t)
	suite.InSandbox(t, cases)
}

// TestExportImport makes a repository in the sandbox, carries it out with
// tar and reads it with the host's git; then the other way round.
func TestExportImport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guest modules")
	}
	oracleAvailable(t)
	sb := suite.Sandbox(t, sandbox.Options{})
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
