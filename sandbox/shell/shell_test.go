package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// testHost runs no programs (every one exits 127 with bash's message)
// and allows a fixed number of live processes.
type testHost struct {
	live, max atomic.Int64
}

func (h *testHost) Exec(ctx context.Context, p *Process) int {
	fmt.Fprintf(p.Stdio.Stderr, "bash: %s: not runnable in this test\n", p.Args[0])
	return 127
}

func (h *testHost) Fork(ctx context.Context) (func(), error) {
	if h.live.Add(1) > h.max.Load() {
		h.live.Add(-1)
		return nil, errors.New("process limit")
	}
	return func() { h.live.Add(-1) }, nil
}

func (h *testHost) Check(ctx context.Context) error { return ctx.Err() }

// runShell runs src in a fresh shell and returns stdout, stderr and the
// exit status.
func runShell(t testing.TB, src string) (string, string, int) {
	t.Helper()
	fsys := vfs.New(vfs.Options{})
	for _, d := range []string{"/home/user", "/tmp", "/dev"} {
		if err := fsys.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := fsys.Mknod("/dev/null", vfs.DevNull, 0o666); err != nil {
		t.Fatal(err)
	}
	h := &testHost{}
	h.max.Store(64)
	sh, err := New(Config{Host: h, FS: fsys, Dir: "/home/user", Env: []string{"HOME=/home/user", "PATH=/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	sh.SetStdio(nil, &out, &errOut)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	status := sh.RunCommand(ctx, src)
	return out.String(), errOut.String(), status
}

// TestAgainstBash runs builtin-only scripts in the shell and in GNU bash
// and compares stdout and the exit status. The larger corpus is
// sandbox/difftest; these cases need no tools and run in milliseconds.
func TestAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	cases := []string{
		`declare -A m; m[a]=1; m[b]=2; m[c]=3; echo ${#m[@]} ${!m[@]} "${m[@]}"`,
		`[ abc \< abd ] && echo less; [[ b > a ]] && echo more`,
		`declare -i n=3+4; n+=2; echo $n; declare -u u=abc; declare -l l=ABC; echo $u $l`,
		`f(){ echo "${FUNCNAME[@]}"; g; }; g(){ echo "${FUNCNAME[@]}"; }; f`,
		`a=(x y z); echo "${a[@]: -2}" ${#a[@]} "${!a[@]}"; unset 'a[1]'; echo "${!a[@]}"`,
		`x=hello; echo ${x^} ${x^^} ${x:1:3} ${x#h*l} ${x%l*} ${x/l/L} ${x//l/L} ${x@Q}`,
		`read -d : a b <<< "1 2:3"; echo "$a|$b"`,
		`true | false | true; echo "${PIPESTATUS[@]}"`,
		`set -o pipefail; false | true; echo $?`,
		`exec 3>/tmp/f; echo hi >&3; exec 3>&-; cat_() { while read -r l; do echo "got $l"; done < /tmp/f; }; cat_`,
		`exec {fd}>/tmp/g; echo $fd; echo x >&$fd; exec {fd}>&-`,
		`set -C; echo a > /tmp/h; echo b > /tmp/h; echo $?; echo c >| /tmp/h; while read l; do echo $l; done < /tmp/h`,
		`x=1; f(){ local -n r=$1; r=5; }; f x; echo $x`,
		`v1=a v2=b; echo ${!v@}; echo ${!v*}`,
		`trap 'echo err $?' ERR; false; trap 'echo ret' RETURN; f(){ :; }; f`,
		`case abc in a*) echo one;& b*) echo two;; *) echo three;; esac`,
		`case abc in a*) echo one;;& *c) echo two;; esac`,
		`for ((i=0; i<3; i++)); do echo $i; done; for ((;;)); do break; done; echo end`,
		`x=$(printf '%s\n' a b c); echo "$x" | { read a; echo $a; }`,
		`IFS=:; set -- a::b; echo $#; x="1:2::3:"; set -- $x; echo $#`,
		`s='a b'; printf '[%s]' $s "$s"; echo; printf '%q\n' "$s"`,
		`echo $(( 2**10 )) $(( 7 % 3 )) $(( -7 / 2 )) $(( 1 ? 2 : 3 )) $(( 0x1f )) $(( 2#101 ))`,
		`arr=(); arr+=(a); arr+=(b c); echo ${arr[*]} ${#arr[@]}`,
		`shopt -s extglob; x=aaa.txt; echo ${x%%+(a).txt}; [[ foo == @(f|b)oo ]] && echo ext`,
		`echo {a,b}{1,2} {1..5..2} {a..e} {05..10..3}`,
		`getopts ab: o -b val; echo $o $OPTARG $OPTIND`,
		`mapfile -t lines <<< $'x\ny\nz'; echo ${#lines[@]} ${lines[1]}`,
		`echo "${x-unset}" "${x:-empty}"; x=; echo "${x-unset}" "${x:-empty}" "${x:+alt}"`,
		`printf -v out '%05.1f' 3.14159; echo $out`,
		`f() { return 7; }; f; echo $?; (exit 3); echo $?`,
		`set -u; x=1; echo $x; (echo $nope) 2>/dev/null; echo "status=$?"`,
		`declare -a a=([3]=x [7]=y); declare -p a`,
		`declare -A m=([k]=v); declare -p m; x=1; declare -p x`,
		`echo $BASH_VERSINFO ${BASH_VERSION%%.*}`,
		`alias hi='echo hello'; shopt -s expand_aliases; eval hi`,
		`x=5; let 'y = x * 2' z=y+1; echo $y $z`,
		`echo ${#}; set -- a b c; shift 2; echo $1 $#`,
		`[[ foo123 =~ ^([a-z]+)([0-9]+)$ ]] && echo ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}`,
		`cd /; pushd /tmp >/dev/null; pwd; popd >/dev/null; pwd`,
		`umask 027; umask; umask -S`,
		`type -t echo; type -t if; f(){ :; }; type -t f; command -v echo`,
		`echo a; { echo b; false; } || echo c`,
		`i=0; until [ $i -ge 3 ]; do ((i++)); done; echo $i`,
		`x=$'tab\there'; echo "${x@Q}"`,
		`unset x; echo ${x:=def}; echo $x`,
		`a=1; b=a; echo ${!b}; c='a[0]'; echo ${!c}`,
	}
	for _, src := range cases {
		t.Run("", func(t *testing.T) {
			cmd := exec.Command(bash, "-c", src)
			cmd.Env = []string{"HOME=/home/user", "PATH=/bin:/usr/bin", "LC_ALL=C"}
			cmd.Dir = t.TempDir()
			var want bytes.Buffer
			cmd.Stdout = &want
			err := cmd.Run()
			wantCode := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				wantCode = ee.ExitCode()
			}
			got, stderr, code := runShell(t, src)
			if got != want.String() || code != wantCode {
				t.Errorf("%s\ngot  %q (exit %d, stderr %q)\nwant %q (exit %d)", src, got, code, stderr, want.String(), wantCode)
			}
		})
	}
}

// TestHostile checks that input meant to break the shell ends with a
// message and a status, never a panic or a hang.
func TestHostile(t *testing.T) {
	for _, c := range []struct{ src, stderr string }{
		{`__wasmsand_printf`, "command not found"}, // former magic names are ordinary names
		{`__wasmsand_lookup x`, "command not found"},
		{`exec 99999>f`, "Bad file descriptor"},
		{`f(){ f; }; f`, "maximum function nesting level"},
		{`trap 'kill -USR1 $$' USR1; kill -USR1 $$; echo after`, ""},
		{`s='eval "$s"'; eval "$s"`, "maximum nesting level"},
		{`alias a='a b'; shopt -s expand_aliases; eval a`, "a: command not found"},
		{`echo {1..1000}{1..1000}{1..1000}`, "brace expansion would produce 1000000000 words"},
		{`for i in {1..2000}; do exec {v}>/dev/null || break; done; echo $v`, ""},
		{`x=$(( (((((((((((((((((((((((1))))))))))))))))))))))) )); echo $x`, ""},
		{`a[9223372036854775807]=x; echo ${#a[@]}`, ""},
		{`printf '%*s' 2000000000 x`, ""},
		{"echo \xff\xfe invalid utf8 ${x:-\xff}", ""},
		// repairs are bounded: past maxErrorRepairs the text is a syntax error
		{strings.Repeat("! ! true\n", 5000), "syntax error"},
		{strings.Repeat("let\n", 3000) + "cat <<E\n", "syntax error"},
	} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, stderr, _ := runShell(t, c.src)
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("%s: stderr %q, want it to contain %q", c.src, stderr, c.stderr)
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: did not finish", c.src)
		}
	}
}

// TestForkFailure: when no process slot is left, the command that needed
// one fails as a failed fork does in bash, and the script goes on.
func TestForkFailure(t *testing.T) {
	fsys := vfs.New(vfs.Options{})
	h := &testHost{}
	h.max.Store(2)
	sh, err := New(Config{Host: h, FS: fsys, Dir: "/"})
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	sh.SetStdio(nil, &out, &errOut)
	status := sh.RunCommand(context.Background(), `f(){ f|f; }; f; echo survived`)
	if out.String() != "survived\n" || status != 0 {
		t.Fatalf("got %q status %d", out.String(), status)
	}
	if !strings.Contains(errOut.String(), "fork: Resource temporarily unavailable") {
		t.Fatalf("stderr %q", errOut.String())
	}
}

// FuzzShell runs random scripts: the shell must never panic out of Run
// nor outlive its deadline.
func FuzzShell(f *testing.F) {
	for _, s := range []string{
		`echo ${x:-a}${#y[@]} $((1+2)) $(echo hi) <(true)`,
		`for i in a b; do case $i in a) echo 1;; esac; done`,
		`declare -A m=([a]=1); m[b]+=2; echo ${!m[*]}`,
		`f(){ local -n r=$1; r=(1 2); }; f x; echo ${x[1]}`,
		`exec 3<&0; read -u 3 -t 0; [[ a =~ (b ]]; echo ${x/#/y}`,
		`set -euo pipefail; trap 'echo $LINENO' ERR; false`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fsys := vfs.New(vfs.Options{MaxBytes: 1 << 20})
		h := &testHost{}
		h.max.Store(8)
		sh, err := New(Config{Host: h, FS: fsys, Dir: "/", Limits: Limits{MaxStringBytes: 1 << 16, MaxWords: 1 << 12, MaxDepth: 50}})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		sh.SetStdio(strings.NewReader("input\n"), &out, &out)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		done := make(chan struct{})
		go func() {
			defer close(done)
			sh.RunCommand(ctx, src)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%q ran past its deadline", src)
		}
	})
}

// benchShell runs src b.N times in one shell.
func benchShell(b *testing.B, src string, stdin func() []byte) {
	fsys := vfs.New(vfs.Options{})
	fsys.MkdirAll("/dev", 0o755)
	fsys.Mknod("/dev/null", vfs.DevNull, 0o666)
	h := &testHost{}
	h.max.Store(64)
	sh, err := New(Config{Host: h, FS: fsys, Dir: "/"})
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		var in []byte
		if stdin != nil {
			in = stdin()
		}
		sh.SetStdio(bytes.NewReader(in), &out, &out)
		if st := sh.RunCommand(context.Background(), src); st != 0 {
			b.Fatalf("status %d: %s", st, out.String())
		}
	}
}

// BenchmarkArithLoop is the 100,000-iteration arithmetic loop
// (bash 5.2 takes about 0.16 s of CPU on the build machine).
func BenchmarkArithLoop(b *testing.B) {
	benchShell(b, `i=0; s=0; while (( i < 100000 )); do (( s += i, i++ )); done`, nil)
}

// BenchmarkWhileRead reads 10,000 lines with `while read` (bash 5.2: about
// 0.03 s).
func BenchmarkWhileRead(b *testing.B) {
	var lines bytes.Buffer
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&lines, "line %d of the input\n", i)
	}
	benchShell(b, `n=0; while read -r a b c; do n=$((n + 1)); done; [ $n = 10000 ]`, lines.Bytes)
}

// BenchmarkFunctionCalls calls a function with locals 10,000 times.
func BenchmarkFunctionCalls(b *testing.B) {
	benchShell(b, `f() { local x=$1; echo "${x%.*}" >/dev/null; }; for ((i=0;i<10000;i++)); do f "name.$i"; done`, nil)
}
