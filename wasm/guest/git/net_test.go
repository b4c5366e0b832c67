package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
)

// The remote cases run against a real server: the host's git
// http-backend behind net/http/cgi on 127.0.0.1, serving bare
// repositories the host's git made. Each run has its own directory D
// under the server's project root; $URL is the server's address of D and
// D/srv/x.git the repository the cases push to and fetch from.

// netPrelude makes the server's repository with the host's git: srv/x.git
// with branches master and side, tag v1 (mksrv) or empty (mkempty); srvc
// MSG adds a commit to the server's master as another clone would.
const netPrelude = `
H=/usr/bin/git
mksrv() { $H init -q seed && (cd seed && printf 'one\ntwo\n' > a.txt && printf 'x\n' > b.txt && $H add . && $H commit -qm init && $H branch side && $H tag v1) && $H clone -q --bare seed srv/x.git && $H -C srv/x.git remote remove origin && $H -C srv/x.git config http.receivepack true && rm -rf seed; }
mkempty() { $H init -q --bare srv/x.git && $H -C srv/x.git config http.receivepack true; }
srvc() { $H clone -q srv/x.git up.tmp && (cd up.tmp && printf "$1\n" >> a.txt && $H commit -qam "$1" && $H push -q origin HEAD) && rm -rf up.tmp; }
`

// netCheck is the state check of the client's repository, if the script
// ended in one.
const netCheck = `
echo "=== exit $?"
if /usr/bin/git rev-parse --git-dir >/dev/null 2>&1; then
/usr/bin/git status --porcelain=v1 -uall 2>&1
/usr/bin/git log --all --format='%H %P %an %s' 2>&1
/usr/bin/git diff HEAD 2>&1
fi
`

// srvCheck prints the server repository's state as the host's git reads it.
const srvCheck = `
echo "=== server"
$H --git-dir="$SRV" for-each-ref --format='%(objectname) %(refname)' 2>&1
$H --git-dir="$SRV" symbolic-ref HEAD 2>&1
$H --git-dir="$SRV" fsck --no-progress 2>&1 | grep -v '^dangling' | head -5
`

// netCase is a remote scenario: setup runs on the host (the server's
// repository), script with the git under test, in the same directory.
type netCase struct {
	setup, script string
	stderr        bool // compare stderr too
}

var netCases = []netCase{
	// clone.
	{`mksrv`, `git clone "$URL/srv/x.git" c; cd c; git status; git branch -a; git log --oneline; cat a.txt`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git"; cd x && git remote -v && git config --get branch.master.merge && git status -sb`, true},
	{`mksrv`, `git clone -b side "$URL/srv/x.git" c && cd c && git status`, true},
	{`mksrv`, `git clone "$URL/srv/nope.git" c; echo $?; test -e c; echo $?`, true},
	{`mksrv`, `mkdir c; printf 'x\n' > c/f; git clone "$URL/srv/x.git" c; echo $?`, true},
	{`mksrv`, `git clone "$URL/srv/x.git/" c2 2>&1 && cd c2 && git log --format='%H %s' && git remote get-url origin`, true},
	{`mkempty`, `git clone "$URL/srv/x.git" c; echo $?; cd c && git status && git remote -v`, true},
	{``, `git clone http://127.0.0.1:1/x.git c 2>&1 | cut -c1-50; echo ${PIPESTATUS[0]}; test -e c; echo $?`, false},
	{`mksrv`, `git ls-remote "$URL/srv/x.git"; git clone -q "$URL/srv/x.git" c && cd c && git ls-remote --heads origin && git ls-remote -t`, true},

	// fetch, pull.
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc two; cd c; git fetch; echo $?; git status; git status -sb; git log --oneline --all`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; git fetch; echo $?`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; (cd srv/x.git && $H branch feat master && $H tag v2 master && $H tag -a v3 -m v3 master); cd c; git fetch; git branch -r; git tag`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; $H -C srv/x.git branch -D side >/dev/null; cd c; git fetch --prune; git branch -r`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc two; srvc three; cd c; git pull; echo $?; git log --oneline; git status`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; git pull; echo $?`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc two; cd c; printf 'l\n' > local; git add local; git commit -qm local; git pull; echo $?; git status -sb`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc two; cd c; printf 'l\n' > local; git add local; git commit -qm local; git pull --no-rebase; echo $?; git log --format='%s|%P' -1 | cut -c1-40; git status -sb`, false},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc two; cd c; printf 'l\n' > local; git add local; git commit -qm local; git pull --ff-only; echo $?`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc two; cd c; git checkout -q -b topic; git pull; echo $?`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc two; cd c; git pull --no-ff; echo $?; git log --format='%s|%P' -1 | cut -c1-30`, false},

	// push.
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; printf 'n\n' >> a.txt; git commit -qam mine; git status -sb; git push; echo $?; git status`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; git push; echo $?`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; git checkout -q -b feat; printf 'f\n' > f; git add f; git commit -qm feat; git push; echo $?; git push -u origin feat; echo $?; git status -sb; git config --get branch.feat.remote`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; git checkout -q -b feat; git push origin feat:renamed; echo $?; git ls-remote origin | cut -f2`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc theirs; cd c; printf 'n\n' >> b.txt; git commit -qam mine; git push; echo $?`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc theirs; cd c; printf 'n\n' >> b.txt; git commit -qam mine; git fetch -q; git push; echo $?; git status -sb`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc theirs; cd c; printf 'n\n' >> b.txt; git commit -qam mine; git push -f; echo $?`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; srvc theirs; cd c; printf 'n\n' >> b.txt; git commit -qam mine; git pull -q --no-rebase; git push; echo $?; git status -sb`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; git tag v2; git tag -a v3 -m three; git push origin v2; echo $?; git push --tags; echo $?`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; git tag -f v1 HEAD >/dev/null; printf 'n\n' >> a.txt; git commit -qam n; git tag -f v1 >/dev/null; git push origin v1; echo $?`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; git push origin --delete side; echo $?; git push origin :nope; echo $?; git branch -r`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; git push origin nope; echo $?`, true},
	{`mkempty`, `mkdir c; cd c; mk; git remote add origin "$URL/srv/x.git"; git remote; git push -u origin master; echo $?; git status -sb; git log --oneline origin/master`, true},
	{`mkempty`, `mkdir c; cd c; mk; git remote add origin "$URL/srv/x.git"; git remote add origin x; echo $?; git remote get-url origin; git remote set-url origin "$URL/srv/y.git"; git push origin master; echo $?; git remote remove origin; git remote remove origin; echo $?; git remote -v`, true},
	{`mksrv`, `git clone -q "$URL/srv/x.git" c; cd c; git push nowhere; echo $?`, true},

	// A repository that moved: the first request is redirected.
	{`mksrv`, `git clone -q "${URL%/w}/moved/srv/x.git" c 2>/dev/null; cd c; git log --oneline; (cd .. && srvc two); git pull -q 2>/dev/null; git log --oneline; git remote get-url origin | sed 's|.*/moved/|moved/|'`, false},

	// A local path as the remote (no network).
	{`mksrv`, `git clone -q srv/x.git c; cd c; git log --oneline --all; git remote -v | sed "s|$PWD/..|D|"; git status -sb`, true},
	{`mksrv`, `git clone -q srv/x.git c; cd c; printf 'n\n' >> a.txt; git commit -qam local-push; git push -q; echo $?`, true},
	{`mksrv`, `git clone srv/x.git c; cd c; git status -sb; git branch -a; cd ..; git clone c d; echo $?`, true},
}

// gitServer serves root's repositories with the host's git http-backend.
func gitServer(t *testing.T, root string) *httptest.Server {
	t.Helper()
	h := &cgi.Handler{
		Path: "/usr/bin/git",
		Args: []string{"http-backend"},
		Env:  []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"},
		// "Not a git repository" for the cases that ask for a missing one.
		Stderr: io.Discard,
	}
	// /moved/PATH redirects to /w/PATH, as a repository that moved.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/moved/"); ok {
			to := "/w/" + rest
			if r.URL.RawQuery != "" {
				to += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, to, http.StatusMovedPermanently)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (c netCase) full() string {
	return prelude + netPrelude + c.setup + "\n" + c.script + netCheck + fsckLine + srvCheck
}

func (c netCase) same(got, want difftest.Result) bool {
	return difftest.Script{Stderr: c.stderr}.Same(got, want)
}

// TestNetwork runs the remote scenarios with this module's git (its
// netx transport is net/http natively) and with the host's.
func TestNetwork(t *testing.T) {
	oracleAvailable(t)
	bin := suite.Native(t)
	root := t.TempDir()
	srv := gitServer(t, root)
	dir := filepath.Join(root, "w")
	env := []string{"URL=" + srv.URL + "/w", "SRV=" + filepath.Join(dir, "srv", "x.git")}
	failed := 0
	for i, c := range netCases {
		got := suite.RunNative(t, dir, bin, c.full(), env...)
		want := suite.RunNative(t, dir, "", c.full(), env...)
		if !c.same(got, want) {
			failed++
			t.Error(difftest.Report(i, c.script, got, want))
		}
	}
	t.Logf("%d remote cases, %d differ", len(netCases), failed)
}

// TestNetworkSandbox runs the remote scenarios inside the sandbox, whose
// network policy allows the server and nothing else: the server's side is
// made and read on the host, the client's in the sandbox.
func TestNetworkSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guest modules")
	}
	oracleAvailable(t)
	root := t.TempDir()
	srv := gitServer(t, root)
	rule, err := netpolicy.ParseRule(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	sb := suite.Sandbox(t, sandbox.Options{Network: netpolicy.Policy{Rules: []netpolicy.Rule{rule}}})
	dir := filepath.Join(root, "w")
	env := []string{"URL=" + srv.URL + "/w", "SRV=" + filepath.Join(dir, "srv", "x.git")}
	failed := 0
	for i, c := range netCases {
		if strings.Contains(c.script, "clone -q srv/") || strings.Contains(c.script, "clone srv/") {
			continue // a host path: the sandbox has its own file system
		}
		want := suite.RunNative(t, dir, "", strings.ReplaceAll(c.full(), fsckLine, ""), env...)
		// The server's side on the host, the client in the sandbox, the
		// server's state read on the host again.
		host := suite.RunNative(t, dir, "", prelude+netPrelude+c.setup, env...)
		if host.Code != 0 {
			t.Fatalf("case %d: setup: %s", i, host.Stderr)
		}
		local := strings.ReplaceAll(strings.ReplaceAll(c.script, "srvc ", "host_srvc "), "$H ", "host_git ")
		if strings.Contains(local, "host_") {
			// Steps on the server's side in the middle of a script need the
			// host: skip them in the sandbox.
			continue
		}
		script := fmt.Sprintf("cd /; rm -rf /tmp/w; mkdir -p /tmp/w; cd /tmp/w; export HOME=/tmp/w URL=%s/w\n%s%s\n%s\ntrue\n",
			srv.URL, prelude, local, strings.ReplaceAll(netCheck, "/usr/bin/git", "git"))
		res, err := sb.Run(context.Background(), script)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		after := suite.RunNative(t, filepath.Join(root, "chk"), "", "H=/usr/bin/git\n"+srvCheck, env...)
		got := difftest.Result{Stdout: string(res.Stdout) + after.Stdout, Stderr: string(res.Stderr), Code: res.ExitCode}
		if !c.same(got, want) {
			failed++
			t.Error(difftest.Report(i, c.script, got, want))
		}
	}
	t.Logf("%d remote cases in the sandbox, %d differ", len(netCases), failed)
	// A host no rule allows: refused by the policy, in git's words.
	res, err := sb.Run(context.Background(), "cd /tmp && git clone http://127.0.0.2:9/x.git denied; echo $?; ls denied")
	if err != nil {
		t.Fatal(err)
	}
	if want := "128\n"; string(res.Stdout) != want || !strings.HasPrefix(string(res.Stderr), "Cloning into 'denied'...\nfatal: unable to access 'http://127.0.0.2:9/x.git/': ") || !strings.Contains(string(res.Stderr), "not allowed") {
		t.Errorf("denied clone: stdout %q stderr %q", res.Stdout, res.Stderr)
	}
}
