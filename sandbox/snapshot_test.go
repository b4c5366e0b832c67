package sandbox

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

var snapClock = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// stateScript leaves a piece of every kind of state in a sandbox.
const stateScript = `
mkdir -p d/e && printf 'hello\n' > d/f && chmod 640 d/f
ln d/f hard && ln -s d/f sym
touch -d '2001-02-03 04:05:06' d/f
head -c 200000 /dev/urandom > big
export E=exported; x='a "quoted" value'
a=(1 "two words" [7]=seven); declare -A m=([k]=v [z]=y ['a b']=c); declare -ir ro=5
declare -l low=MiXeD
f() { echo "f:$1:$x"; }
g() {
	local y=1
	for i in 1 2; do echo "g$i"; done | cat
}
alias ll='ls -l'
set -o pipefail; shopt -s extglob nullglob; set -f
trap 'echo usr1' USR1
umask 027
ulimit -n 300; ulimit -Sc 10
pushd /tmp >/dev/null; cd /home/user/d
set -- p1 "p 2"
echo $RANDOM >/dev/null
`

// probe prints the state stateScript left.
const probe = `
declare -p x a m ro E low; declare -f f g; f arg; g; alias; echo "$PWD $OLDPWD"; dirs
shopt extglob nullglob; set -o | grep -E 'pipefail|noglob'; trap -p USR1; umask
ulimit -n -c; ulimit -Hc; echo "$# $1 $2"; echo $RANDOM $RANDOM $RANDOM; head -c 16 /dev/urandom | od -An -tx1
cat f ../hard ../sym; ls -l --time-style=+%s f ../sym ../hard; test -p ../fifo && echo fifo
cksum ../big
`

func TestSnapshotRestoreState(t *testing.T) {
	ctx := context.Background()
	sb := newTest(t, Options{Seed: 7, Clock: snapClock})
	if err := sb.fs.Mkfifo(1, "/home/user/fifo", 0o600); err != nil {
		t.Fatal(err)
	}
	if res := run(t, sb, stateScript); res.ExitCode != 0 {
		t.Fatalf("setup: %d %s", res.ExitCode, res.Stderr)
	}
	snap, err := sb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Restore(ctx, snap, Options{ToolsDir: sb.opts.ToolsDir, CacheDir: sb.opts.CacheDir, Clock: snapClock})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	snap2, err := r.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(snap, snap2) {
		t.Errorf("a restored sandbox snapshots to different bytes (%d vs %d)", len(snap), len(snap2))
	}
	want := run(t, sb, probe)
	got := run(t, r, probe)
	if string(got.Stdout) != string(want.Stdout) || string(got.Stderr) != string(want.Stderr) || got.ExitCode != want.ExitCode {
		t.Errorf("restored:\n%s%s(%d)\noriginal:\n%s%s(%d)", got.Stdout, got.Stderr, got.ExitCode, want.Stdout, want.Stderr, want.ExitCode)
	}
	for _, s := range []string{`declare -ir ro="5"`, `f:arg:a "quoted" value`, "alias ll='ls -l'", "/home/user/d /tmp", "pipefail       \ton", "-rw-r----- 2 user user 6 981173106 f", "fifo\n", "trap -- 'echo usr1' SIGUSR1", "0027", "2 p1 p 2", "(-n) 300\n", "(blocks, -c) 10\nunlimited\n"} {
		if !strings.Contains(string(got.Stdout), s) {
			t.Errorf("restored state lacks %q:\n%s", s, got.Stdout)
		}
	}
	if r.GetEnv("E") != "exported" {
		t.Errorf("GetEnv(E) = %q", r.GetEnv("E"))
	}
	// Variables are exported to programs as before.
	if res := run(t, r, "printenv E"); string(res.Stdout) != "exported\n" {
		t.Errorf("printenv E = %q", res.Stdout)
	}
}

func TestSnapshotDeterministic(t *testing.T) {
	var snaps [2][]byte
	for i := range snaps {
		sb := newTest(t, Options{Seed: 3, Clock: snapClock})
		if err := sb.fs.Mkfifo(1, "/home/user/fifo", 0o600); err != nil {
			t.Fatal(err)
		}
		run(t, sb, stateScript)
		var err error
		if snaps[i], err = sb.Snapshot(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(snaps[0], snaps[1]) {
		t.Error("the same script gave different snapshots")
	}
}

func TestSnapshotFreshSize(t *testing.T) {
	sb := newTest(t, Options{})
	snap, err := sb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a fresh sandbox's snapshot: %d bytes", len(snap))
	if len(snap) > 16<<10 {
		t.Errorf("a fresh sandbox's snapshot is %d bytes, over 16 KiB", len(snap))
	}
}

func TestRestoreAddsMissingTools(t *testing.T) {
	sb, err := New(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := sb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r := restoreTest(t, snap, Options{ToolsDir: newTest(t, Options{}).opts.ToolsDir})
	if res := run(t, r, "seq 3 | wc -l"); string(res.Stdout) != "3\n" {
		t.Errorf("tools after restore: %q %q", res.Stdout, res.Stderr)
	}
}

func restoreTest(t testing.TB, b []byte, opts Options) *Sandbox {
	t.Helper()
	if opts.CacheDir == "" {
		opts.CacheDir = testCacheDir(t)
	}
	r, err := Restore(context.Background(), b, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestForkIsolation(t *testing.T) {
	ctx := context.Background()
	sb := newTest(t, Options{Seed: 1})
	run(t, sb, `head -c 300000 /dev/urandom > big; echo base > f; v=parent; h() { echo h; }`)
	c, err := sb.Fork(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if res := run(t, c, `echo $v; h; cat f`); string(res.Stdout) != "parent\nh\nbase\n" {
		t.Fatalf("child sees %q", res.Stdout)
	}
	run(t, c, `v=child; echo c >> f; echo c > conly; printf X | dd of=big bs=1 seek=70000 conv=notrunc 2>/dev/null || printf X >> big; unset -f h`)
	run(t, sb, `echo p >> f; echo p > ponly; printf Y >> big`)
	for _, tc := range []struct {
		sb   *Sandbox
		cmd  string
		want string
	}{
		{sb, `echo $v; cat f; ls conly 2>&1 | grep -c 'No such'; type -t h`, "parent\nbase\np\n1\nfunction\n"},
		{c, `echo $v; cat f; ls ponly 2>&1 | grep -c 'No such'; type -t h || echo none`, "child\nbase\nc\n1\nnone\n"},
	} {
		if res := run(t, tc.sb, tc.cmd); string(res.Stdout) != tc.want {
			t.Errorf("%q = %q, want %q", tc.cmd, res.Stdout, tc.want)
		}
	}
	pb, _ := sb.ReadFile("big")
	cb, _ := c.ReadFile("big")
	if bytes.Equal(pb, cb) || !bytes.Equal(pb[:60000], cb[:60000]) {
		t.Error("big files not isolated, or the shared part differs")
	}
	if !strings.HasSuffix(string(pb), "Y") || strings.HasSuffix(string(cb), "Y") {
		t.Error("the parent's append shows in the child, or is missing")
	}
	// $RANDOM continues identically in both from the fork point.
	d, err := sb.Fork(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	a, b := run(t, sb, "echo $RANDOM $RANDOM; head -c 8 /dev/urandom | od -An -tx1"), run(t, d, "echo $RANDOM $RANDOM; head -c 8 /dev/urandom | od -An -tx1")
	if string(a.Stdout) != string(b.Stdout) {
		t.Errorf("random after fork: %q vs %q", a.Stdout, b.Stdout)
	}
}

func TestForkWhileRunning(t *testing.T) {
	ctx := context.Background()
	sb, err := New(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	pr, pw := io.Pipe()
	done := make(chan *RunResult)
	go func() {
		res, _ := sb.Run(ctx, "read line; echo got $line", WithStdin(pr))
		done <- res
	}()
	// Wait until the Run holds the sandbox.
	for sb.runMu.TryLock() {
		sb.runMu.Unlock()
		time.Sleep(time.Millisecond)
	}
	if _, err := sb.Fork(ctx); !errors.Is(err, ErrBusy) {
		t.Errorf("Fork during a Run: %v, want ErrBusy", err)
	}
	if _, err := sb.Snapshot(); !errors.Is(err, ErrBusy) {
		t.Errorf("Snapshot during a Run: %v, want ErrBusy", err)
	}
	fmt.Fprintln(pw, "x")
	pw.Close()
	if res := <-done; string(res.Stdout) != "got x\n" {
		t.Errorf("the Run gave %q", res.Stdout)
	}
	c, err := sb.Fork(ctx)
	if err != nil {
		t.Fatalf("Fork after the Run: %v", err)
	}
	c.Close()
}

// resum fixes the checksum of the section starting at off.
func resum(b []byte, off int) {
	size := binary.LittleEndian.Uint64(b[off+4:])
	p := b[off+16 : off+16+int(size)]
	binary.LittleEndian.PutUint32(b[off+12:], crc32.Checksum(p, castagnoli))
}

func TestRestoreChecks(t *testing.T) {
	ctx := context.Background()
	sb, err := New(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	run(t, sb, `echo hello > f; x=1`)
	snap, err := sb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	hdr := len(snapshotMagic) + 4
	check := func(name string, b []byte, opts Options, want string) {
		t.Helper()
		_, err := Restore(ctx, b, opts)
		var se *SnapshotError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v, want a *SnapshotError", name, err)
			return
		}
		if se.Check != want {
			t.Errorf("%s: check %q (%v), want %q", name, se.Check, err, want)
		}
	}
	check("empty", nil, Options{}, CheckTruncated)
	check("foreign", []byte("PK\x03\x04 a zip file, not a snapshot"), Options{}, CheckMagic)
	check("text", []byte("hello"), Options{}, CheckMagic)
	v := bytes.Clone(snap)
	v[len(snapshotMagic)] = 2
	check("version", v, Options{}, CheckVersion)
	for off := hdr; off < len(snap); off += 1 + off/7 {
		c := bytes.Clone(snap)
		c[off] ^= 0x40
		_, err := Restore(ctx, c, Options{})
		var se *SnapshotError
		if !errors.As(err, &se) {
			t.Fatalf("byte %d flipped: %v", off, err)
		}
	}
	c := bytes.Clone(snap)
	c[len(c)-1] ^= 1
	check("checksum", c, Options{}, CheckChecksum)
	for n := 1; n < len(snap); n += 1 + n/11 {
		check(fmt.Sprintf("truncated to %d", n), snap[:n], Options{}, CheckTruncated)
	}
	check("trailing", append(bytes.Clone(snap), 0), Options{}, CheckFormat)
	// A well-checksummed section with bad contents.
	c = bytes.Clone(snap)
	c[hdr+16] = 0x7f // META's timeout: a varint now out of place
	c[hdr+17] = 0xff
	resum(c, hdr)
	check("format", c, Options{}, CheckFormat)
	// Files larger than the limit asked for.
	run(t, sb, `s=x; for ((i=0;i<17;i++)); do s=$s$s; done; echo "$s" > big`)
	big, err := sb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	check("limits", big, Options{FSLimit: 1000}, CheckLimits)
	if _, err := Restore(ctx, big, Options{}); err != nil {
		t.Errorf("the same snapshot with its own limits: %v", err)
	}
}

func FuzzRestore(f *testing.F) {
	ctx := context.Background()
	sb, err := New(ctx, Options{Seed: 5, Clock: snapClock})
	if err != nil {
		f.Fatal(err)
	}
	fresh, _ := sb.Snapshot()
	f.Add(fresh)
	run(f, sb, `mkdir -p d; echo hi > d/f; a=(1 2); declare -A m=([k]=v); f() { echo f; }; alias l=ls; cd d`)
	full, _ := sb.Snapshot()
	f.Add(full)
	sb.Close()
	f.Fuzz(func(t *testing.T, b []byte) {
		// A short timeout: a snapshot may make /dev/null a FIFO, whose
		// open blocks as a real one would.
		r, err := Restore(ctx, b, Options{Clock: snapClock, Timeout: time.Second})
		if err != nil {
			var se *SnapshotError
			if !errors.As(err, &se) {
				t.Fatalf("not a *SnapshotError: %v", err)
			}
			return
		}
		defer r.Close()
		if _, err := r.Snapshot(); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Run(ctx, "echo ok; cd /; declare -p >/dev/null"); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSnapshotFunctions checks that functions defined in every way bash
// allows survive a snapshot: they print and run the same after Restore.
func TestSnapshotFunctions(t *testing.T) {
	ctx := context.Background()
	sb, err := New(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	res := run(t, sb, `
function k { echo "k $1"; }
s() ( echo "sub $BASH_SUBSHELL" )
r() { echo "to stderr" >&2; } 2>&1
h() {
	cat <<-EOF
	heredoc $1
	EOF
}
eval 'e() { echo "from eval"; }'
shopt -s expand_aliases; alias say='echo said'
a() { say "$@"; }
n() { local -n ref=$1; ref=set; }
declare -fr ro
ro() { :; } 2>/dev/null
q() { [[ $1 == x* ]] && echo "match ${1#x}"; }
export -f k
`)
	if res.ExitCode != 0 {
		t.Fatalf("setup: %s", res.Stderr)
	}
	snap, err := sb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Restore(ctx, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const probe = `declare -f; k 1; s; r; h doc 2>&1 || echo "h: $?"; e; a 1; n v; echo $v; q xyz; bash -c 'k child'`
	want, got := run(t, sb, probe), run(t, r, probe)
	if string(got.Stdout) != string(want.Stdout) || string(got.Stderr) != string(want.Stderr) {
		t.Errorf("restored:\n%s%s\noriginal:\n%s%s", got.Stdout, got.Stderr, want.Stdout, want.Stderr)
	}
}

// TestSnapshotMount: a mount's directory is in a snapshot, empty, and none
// of the host's files; Restore attaches the mounts its Options ask for;
// a fork has the directory, empty.
func TestSnapshotMount(t *testing.T) {
	ctx := context.Background()
	host := t.TempDir()
	if err := os.WriteFile(host+"/h.txt", []byte("from the host\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb, err := New(ctx, Options{Mounts: []Mount{{Path: "/mnt/data", HostPath: host}}})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	run(t, sb, `echo mine > /home/user/f`)
	snap, err := sb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(snap, []byte("from the host")) {
		t.Error("the snapshot holds a file of the mount")
	}
	plain := restoreTest(t, snap, Options{})
	if res := run(t, plain, `read -r l < /home/user/f; echo $l`); string(res.Stdout) != "mine\n" {
		t.Errorf("restored without mounts: %q %q", res.Stdout, res.Stderr)
	}
	if ents, err := plain.ReadDir("/mnt/data"); err != nil || len(ents) != 0 {
		t.Errorf("the mount's directory after a restore: %v, %v; want empty", ents, err)
	}
	if _, err := plain.ReadFile("/mnt/data/h.txt"); err == nil {
		t.Error("the mount's file is there without a mount")
	}
	mounted := restoreTest(t, snap, Options{Mounts: []Mount{{Path: "/mnt/data", HostPath: host, ReadOnly: true}}})
	if b, err := mounted.ReadFile("/mnt/data/h.txt"); err != nil || string(b) != "from the host\n" {
		t.Errorf("restored with the mount: %q, %v", b, err)
	}
	c, err := sb.Fork(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ReadFile("/mnt/data/h.txt"); err == nil {
		t.Error("a fork sees the parent's mount")
	}
}
