package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/cguest"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// hostTree makes a host directory top holding data/ (the one to mount)
// next to outside/secret.txt, with escape routes planted in data/.
func hostTree(t *testing.T) (top, data string) {
	t.Helper()
	top = t.TempDir()
	data = filepath.Join(top, "data")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(data, "docs", "deep", "er"), 0o755))
	must(os.MkdirAll(filepath.Join(top, "outside"), 0o755))
	must(os.WriteFile(filepath.Join(top, "outside", "secret.txt"), []byte("SECRET\n"), 0o644))
	must(os.WriteFile(filepath.Join(data, "readme.txt"), []byte("hello from the host\n"), 0o644))
	must(os.WriteFile(filepath.Join(data, "docs", "a.csv"), []byte("x,y\n1,2\n3,4\n"), 0o644))
	must(os.WriteFile(filepath.Join(data, "docs", "deep", "er", "leaf.txt"), []byte("leaf\n"), 0o644))
	var big bytes.Buffer
	for i := range 200000 {
		big.WriteString(strings.Repeat("z", i%50))
		big.WriteByte('\n')
	}
	must(os.WriteFile(filepath.Join(data, "big.txt"), big.Bytes(), 0o644))
	must(os.Symlink("/etc/hostname", filepath.Join(data, "abs")))
	must(os.Symlink("../outside/secret.txt", filepath.Join(data, "climb")))
	must(os.Symlink("../../../../../../../../etc/passwd", filepath.Join(data, "climbs")))
	must(os.Symlink("docs/a.csv", filepath.Join(data, "ok")))
	must(os.Link(filepath.Join(top, "outside", "secret.txt"), filepath.Join(data, "hard.txt")))
	return top, data
}

func TestMountReadOnlyTools(t *testing.T) {
	top, data := hostTree(t)
	sb := newTest(t, Options{Mounts: []Mount{{Path: "/mnt/data", HostPath: data, ReadOnly: true}}})
	for _, tt := range []struct{ cmd, out string }{
		{"cat /mnt/data/readme.txt", "hello from the host\n"},
		{"ls /mnt/data", "abs\nbig.txt\nclimb\nclimbs\ndocs\nhard.txt\nok\nreadme.txt\n"},
		{"cd /mnt/data/docs && cat a.csv | wc -l && pwd", "3\n/mnt/data/docs\n"},
		{"find /mnt/data/docs | sort", "/mnt/data/docs\n/mnt/data/docs/a.csv\n/mnt/data/docs/deep\n/mnt/data/docs/deep/er\n/mnt/data/docs/deep/er/leaf.txt\n"},
		{"find /mnt/data -name '*.txt' -type f | sort", "/mnt/data/big.txt\n/mnt/data/docs/deep/er/leaf.txt\n/mnt/data/hard.txt\n/mnt/data/readme.txt\n"},
		{"wc -l < /mnt/data/big.txt; wc -c /mnt/data/big.txt", "200000\n5100000 /mnt/data/big.txt\n"},
		{"cat /mnt/data/big.txt | sort -u | wc -l", "50\n"},
		{"cat /mnt/data/ok", "x,y\n1,2\n3,4\n"},
		{"echo /mnt/data/docs/*", "/mnt/data/docs/a.csv /mnt/data/docs/deep\n"},
		{"test -d /mnt/data/docs && test -f /mnt/data/readme.txt && echo yes", "yes\n"},
		{"readlink /mnt/data/abs", "/etc/hostname\n"},
		{"tar -cf /tmp/a.tar -C /mnt/data docs && tar -tf /tmp/a.tar | sort", "docs/\ndocs/a.csv\ndocs/deep/\ndocs/deep/er/\ndocs/deep/er/leaf.txt\n"},
		{"cp -r /mnt/data/docs /tmp/copy && cat /tmp/copy/deep/er/leaf.txt", "leaf\n"},
	} {
		res := run(t, sb, tt.cmd)
		if string(res.Stdout) != tt.out || res.ExitCode != 0 {
			t.Errorf("%q: %q exit %d (stderr %q), want %q", tt.cmd, res.Stdout, res.ExitCode, res.Stderr, tt.out)
		}
	}
	// Every write is refused with EROFS, through the tools and the shell.
	for _, cmd := range []string{
		"echo x > /mnt/data/readme.txt",
		"echo x >> /mnt/data/readme.txt",
		"echo x > /mnt/data/new.txt",
		"rm /mnt/data/readme.txt",
		"rm -r /mnt/data/docs",
		"mv /mnt/data/readme.txt /mnt/data/r2",
		"mv /mnt/data/readme.txt /tmp/r2",
		"touch /mnt/data/readme.txt",
		"touch /mnt/data/new",
		"mkdir /mnt/data/d",
		"rmdir /mnt/data/docs/deep/er",
		"chmod 600 /mnt/data/readme.txt",
		"ln -s readme.txt /mnt/data/l",
		"ln /mnt/data/readme.txt /mnt/data/l2",
		"cp /tmp/a.tar /mnt/data/",
		"tar -xf /tmp/a.tar -C /mnt/data",
		"sed -i s/hello/bye/ /mnt/data/readme.txt",
		"truncate -s 0 /mnt/data/readme.txt",
	} {
		res := run(t, sb, cmd)
		if res.ExitCode == 0 {
			t.Errorf("%q succeeded on a read-only mount", cmd)
		} else if !strings.Contains(string(res.Stderr), "Read-only file system") && !strings.Contains(strings.ToLower(string(res.Stderr)), "read-only file system") {
			t.Errorf("%q: stderr %q, want EROFS", cmd, res.Stderr)
		}
	}
	checkHostUnchanged(t, top, data)
}

// checkHostUnchanged checks the host tree hostTree made.
func checkHostUnchanged(t *testing.T, top, data string) {
	t.Helper()
	if b, _ := os.ReadFile(filepath.Join(data, "readme.txt")); string(b) != "hello from the host\n" {
		t.Errorf("readme.txt on the host is %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(top, "outside", "secret.txt")); string(b) != "SECRET\n" {
		t.Errorf("outside/secret.txt on the host is %q", b)
	}
	ents, _ := os.ReadDir(data)
	if len(ents) != 8 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("host directory holds %v", names)
	}
	ents, _ = os.ReadDir(filepath.Join(top, "outside"))
	if len(ents) != 1 {
		t.Errorf("outside/ holds %d entries", len(ents))
	}
}

// TestNoHostAccessThroughMounts is the hostile test of mounts: every way
// out of a mounted directory that we know of, from the shell and from
// guests, on a read-only and a writable mount.
func TestNoHostAccessThroughMounts(t *testing.T) {
	for _, ro := range []bool{true, false} {
		top, data := hostTree(t)
		sb := newTest(t, Options{Mounts: []Mount{{Path: "/mnt/data", HostPath: data, ReadOnly: ro}}})
		for _, cmd := range []string{
			"cat /mnt/data/../outside/secret.txt",
			"cat /mnt/data/../../outside/secret.txt",
			"cd /mnt/data/docs && cat ../../outside/secret.txt",
			"cd /mnt/data && cd .. && cat outside/secret.txt",
			"cat /mnt/data/climb",
			"ls /mnt/data/climb/",
			"find -L /mnt/data -name secret.txt | grep .",
			"tar -chf - -C /mnt/data climb | tar -xOf - | grep SECRET",
			"cp /mnt/data/climb /tmp/x && cat /tmp/x",
			"ln -s " + top + "/outside /tmp/o && cat /tmp/o/secret.txt",
			"cat " + top + "/outside/secret.txt",
			"cat " + data + "/readme.txt",
		} {
			if res := run(t, sb, cmd); res.ExitCode == 0 || bytes.Contains(res.Stdout, []byte("SECRET")) {
				t.Errorf("ro=%v: %q succeeded: %q", ro, cmd, res.Stdout)
			}
		}
		// Absolute symlinks and ones climbing past the root resolve in the
		// sandbox's own tree.
		for link, file := range map[string]string{"abs": "/etc/hostname", "climbs": "/etc/passwd"} {
			want := run(t, sb, "cat "+file).Stdout
			if res := run(t, sb, "cat /mnt/data/"+link); !bytes.Equal(res.Stdout, want) {
				t.Errorf("cat %s: %q, want the sandbox's %s %q", link, res.Stdout, file, want)
			}
		}
		// The hard link the host directory already holds shows exactly that
		// file (it is inside the directory), and nothing beside it.
		if res := run(t, sb, "cat /mnt/data/hard.txt"); string(res.Stdout) != "SECRET\n" {
			t.Errorf("hard.txt: %q", res.Stdout)
		}
		if !ro {
			for _, cmd := range []string{
				"ln -s /etc/passwd /mnt/data/l",           // absolute targets could be followed by the host
				"ln -s ../outside/secret.txt /mnt/data/l", // and so could climbing ones
				"ln -s docs/../../outside /mnt/data/l",
				"ln /etc/hostname /mnt/data/l",                   // no hard link across the mount
				"mv /mnt/data/docs/../../outside /mnt/data/docs", // .. stays in the sandbox
				"mkdir /tmp/t && cd /tmp/t && ln -s " + top + " up && cp /mnt/data/readme.txt up/outside/",
				// A symlink made inside, then moved up (alone, in a directory, by a hard link).
				"mkdir -p /mnt/data/docs/x && ln -s ../../climb /mnt/data/docs/x/l && mv /mnt/data/docs/x/l /mnt/data/l",
				"mv /mnt/data/docs/x /mnt/data/x",
				"ln /mnt/data/docs/x/l /mnt/data/l",
			} {
				if res := run(t, sb, cmd); res.ExitCode == 0 {
					t.Errorf("%q succeeded", cmd)
				}
			}
			if _, err := os.Lstat(filepath.Join(data, "l")); err == nil {
				t.Error("a link was made on the host")
			}
			// A hostile archive extracted into the mount: a symlink out, then
			// a file through it; an absolute member; a member climbing out.
			sb.WriteFile("/tmp/evil.tar", hostileTar(t), 0o644)
			run(t, sb, "cd /mnt/data && tar -xf /tmp/evil.tar; tar -xPf /tmp/evil.tar; true")
			checkNoNewLinksOut(t, data)
			run(t, sb, "rm -rf /mnt/data/xabs /mnt/data/xescape") // directories tar made for the members
		}
		checkHostUnchanged(t, top, data)
	}
}

func TestMountWritableTools(t *testing.T) {
	_, data := hostTree(t)
	sb := newTest(t, Options{FSLimit: 1 << 20})
	if err := sb.Mount("/mnt/w", data, false); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ cmd, out string }{
		{"echo new > /mnt/w/new.txt && cat /mnt/w/new.txt", "new\n"},
		{"mkdir -p /mnt/w/x/y && touch /mnt/w/x/y/z && ls /mnt/w/x/y", "z\n"},
		{"mv /mnt/w/new.txt /mnt/w/x/ && ls /mnt/w/x", "new.txt\ny\n"},
		{"chmod 600 /mnt/w/x/new.txt && stat -c %a /mnt/w/x/new.txt", "600\n"},
		{"ln -s ../readme.txt /mnt/w/x/r && cat /mnt/w/x/r", "hello from the host\n"},
		{"tar -cf /tmp/d.tar -C /mnt/w docs && mkdir /mnt/w/t && tar -xf /tmp/d.tar -C /mnt/w/t && cat /mnt/w/t/docs/deep/er/leaf.txt", "leaf\n"},
		{"sed -i s/host/sandbox/ /mnt/w/readme.txt && cat /mnt/w/readme.txt", "hello from the sandbox\n"},
		{"mv /mnt/w/x/new.txt /tmp/moved && cat /tmp/moved && ls /mnt/w/x", "new\nr\ny\n"},
		{"rm -r /mnt/w/x /mnt/w/t && ls /mnt/w | wc -l", "8\n"},
	} {
		res := run(t, sb, tt.cmd)
		if string(res.Stdout) != tt.out || res.ExitCode != 0 {
			t.Errorf("%q: %q exit %d (stderr %q), want %q", tt.cmd, res.Stdout, res.ExitCode, res.Stderr, tt.out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(data, "readme.txt")); string(b) != "hello from the sandbox\n" {
		t.Errorf("the host sees %q", b)
	}
	// Rewriting a file in place (a new file renamed over it) many times
	// does not use up the limit.
	res := run(t, sb, "head -c 400000 /dev/zero | tr '\\0' a > /mnt/w/re.txt; for i in 1 2 3 4; do sed -i s/a/b/ /mnt/w/re.txt || exit 1; done; wc -c < /mnt/w/re.txt; rm /mnt/w/re.txt")
	if string(res.Stdout) != "400000\n" || res.ExitCode != 0 {
		t.Errorf("rewriting in place: %q exit %d (stderr %q)", res.Stdout, res.ExitCode, res.Stderr)
	}
	// Writes into the mount count against FSLimit (1 MiB).
	res = run(t, sb, "head -c 2000000 /dev/zero > /mnt/w/fill; echo $?; ls -l /mnt/w/fill | awk '{print $5}'")
	if lines := strings.Fields(string(res.Stdout)); len(lines) != 2 || lines[0] == "0" {
		t.Errorf("filling the mount: %q (stderr %q)", res.Stdout, res.Stderr)
	} else if fi, err := os.Stat(filepath.Join(data, "fill")); err != nil || fi.Size() > 1<<20 {
		t.Errorf("host file: %v %v", fi, err)
	}
	if !strings.Contains(string(res.Stderr), "No space left on device") {
		t.Errorf("stderr %q, want ENOSPC", res.Stderr)
	}
	if res := run(t, sb, "echo x > /home/user/f"); res.ExitCode == 0 {
		t.Error("the sandbox's own tree still has room after the mount filled the limit")
	}
	if res := run(t, sb, "rm /mnt/w/fill && echo x > /home/user/f && cat /home/user/f"); string(res.Stdout) != "x\n" {
		t.Errorf("after rm: %q %q", res.Stdout, res.Stderr)
	}
	if err := sb.Unmount("/mnt/w"); err != nil {
		t.Fatal(err)
	}
	if res := run(t, sb, "ls -A /mnt/w | wc -l"); string(res.Stdout) != "0\n" {
		t.Errorf("after unmount: %q", res.Stdout)
	}
}

func TestMountErrors(t *testing.T) {
	sb := newTest(t, Options{})
	if err := sb.Mount("/mnt/x", filepath.Join(t.TempDir(), "missing"), true); err == nil {
		t.Error("mounting a missing host directory worked")
	}
	if err := sb.Mount("relative", t.TempDir(), true); err == nil {
		t.Error("a relative mount path worked")
	}
	run(t, sb, "echo keep > /home/user/k")
	if err := sb.Mount("/home/user", t.TempDir(), true); err == nil {
		t.Error("mounting over a non-empty directory worked")
	}
	if res := run(t, sb, "cat /home/user/k"); string(res.Stdout) != "keep\n" {
		t.Errorf("a refused mount lost a file: %q", res.Stdout)
	}
	_, err := New(context.Background(), Options{ToolsDir: t.TempDir(), Mounts: []Mount{{Path: "/mnt/a", HostPath: "/nonexistent/dir"}}})
	if err == nil {
		t.Error("New with a bad mount worked")
	}
}

// TestMountSwapRace swaps a directory of the mount for a symlink out of it
// on the host, over and over, while guests read through it: nothing from
// outside may ever come back.
func TestMountSwapRace(t *testing.T) {
	top, data := hostTree(t)
	d := filepath.Join(data, "d")
	os.MkdirAll(filepath.Join(top, "outside", "d"), 0o755)
	os.WriteFile(filepath.Join(top, "outside", "d", "f"), []byte("SECRET\n"), 0o644)
	os.MkdirAll(d, 0o755)
	os.WriteFile(filepath.Join(d, "f"), []byte("inside\n"), 0o644)
	os.Symlink(filepath.Join(top, "outside", "d"), filepath.Join(data, "evil-abs"))
	os.Symlink("../outside/d", filepath.Join(data, "evil-rel"))
	sb := newTest(t, Options{Mounts: []Mount{{Path: "/mnt/data", HostPath: data}}})

	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		swaps := 0
		aside := filepath.Join(data, "d-aside")
		for {
			select {
			case <-stop:
				done <- swaps
				return
			default:
			}
			evil := filepath.Join(data, "evil-abs")
			if swaps%2 == 1 {
				evil = filepath.Join(data, "evil-rel")
			}
			os.Rename(d, aside)
			os.Rename(evil, d) // d is now a symlink out
			os.Rename(d, evil)
			os.Rename(aside, d)
			swaps++
		}
	}()
	res := run(t, sb, "for i in $(seq 80); do cat /mnt/data/d/f; ls /mnt/data/d; cat < /mnt/data/d/f; done 2>/dev/null; "+
		"cd /mnt/data/d 2>/dev/null && for i in $(seq 40); do cat f; cat ./f; done 2>/dev/null; "+
		"find /mnt/data 2>/dev/null | wc -l >/dev/null; true")
	close(stop)
	swaps := <-done
	if bytes.Contains(res.Stdout, []byte("SECRET")) {
		t.Fatalf("read a file outside the mount while swapping (%d swaps)", swaps)
	}
	if !bytes.Contains(res.Stdout, []byte("inside")) {
		t.Errorf("never read the file inside (%d swaps): %q", swaps, res.Stdout)
	}
	t.Logf("%d host swaps, %d bytes read", swaps, len(res.Stdout))
	// And guests racing each other: one renames the host's escaping
	// symlinks over a directory while others read and chmod through it.
	os.Remove(filepath.Join(data, "d-aside"))
	res = run(t, sb, "cd /mnt/data; (for i in $(seq 60); do mv d d2; mv evil-rel d; mv d evil-rel; mv d2 d; done 2>/dev/null) & "+
		"for i in $(seq 60); do cat d/f; chmod 777 d/f; touch d/f; done 2>/dev/null; wait")
	if bytes.Contains(res.Stdout, []byte("SECRET")) {
		t.Fatal("a guest read a file outside the mount by racing renames")
	}
	if fi, err := os.Stat(filepath.Join(top, "outside", "d", "f")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("the outside file changed: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(filepath.Join(top, "outside", "secret.txt")); string(b) != "SECRET\n" {
		t.Error("outside/secret.txt changed")
	}
}

// TestMountPython reads and writes a mount from CPython (when the C guests
// are built: make cguests).
func TestMountPython(t *testing.T) {
	cdir, ok := cguest.Cached()
	if !ok {
		t.Skip("the C guests are not built here (make cguests)")
	}
	tools := t.TempDir()
	goTools := guesttest.Dir(t)
	ents, err := os.ReadDir(goTools)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if err := os.Symlink(filepath.Join(goTools, e.Name()), filepath.Join(tools, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(tools, "manifest.json"))
	b, _ := os.ReadFile(filepath.Join(goTools, "manifest.json"))
	os.WriteFile(filepath.Join(tools, "manifest.json"), b, 0o644)
	if err := cguest.Install(cdir, tools); err != nil {
		t.Fatal(err)
	}
	top, data := hostTree(t)
	out := t.TempDir()
	sb := newTest(t, Options{ToolsDir: tools, Timeout: 2 * time.Minute, Mounts: []Mount{
		{Path: "/mnt/data", HostPath: data, ReadOnly: true},
		{Path: "/mnt/out", HostPath: out},
	}})
	script := `
import os
print(sorted(os.listdir('/mnt/data/docs')))
print(open('/mnt/data/docs/a.csv').read().split())
for p in ['/mnt/data/climb', '/mnt/data/../outside/secret.txt']:
    try:
        print(open(p).read())
    except OSError as e:
        print(type(e).__name__)
try:
    open('/mnt/data/new', 'w')
except OSError as e:
    print(e.strerror)
with open('/mnt/out/py.txt', 'w') as f:
    f.write('written by python\n')
os.rename('/mnt/out/py.txt', '/mnt/out/py2.txt')
print(os.stat('/mnt/out/py2.txt').st_size, os.listdir('/mnt/out'))
`
	sb.WriteFile("/tmp/t.py", []byte(script), 0o644)
	res := run(t, sb, "python3 /tmp/t.py")
	want := "['a.csv', 'deep']\n['x,y', '1,2', '3,4']\nFileNotFoundError\nFileNotFoundError\nRead-only file system\n18 ['py2.txt']\n"
	if string(res.Stdout) != want || res.ExitCode != 0 {
		t.Errorf("python: %q exit %d (stderr %q), want %q", res.Stdout, res.ExitCode, res.Stderr, want)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "py2.txt")); string(b) != "written by python\n" {
		t.Errorf("host sees %q", b)
	}
	checkHostUnchanged(t, top, data)
}

// hostileTar is an archive whose members try to write outside the
// directory it is extracted in.
func hostileTar(t *testing.T) []byte {
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	add := func(h *tar.Header, body string) {
		h.Size = int64(len(body))
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if err := w.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	add(&tar.Header{Name: "xescape", Typeflag: tar.TypeSymlink, Linkname: "../outside"}, "")
	add(&tar.Header{Name: "xescape/secret.txt", Typeflag: tar.TypeReg}, "OVERWRITTEN\n")
	add(&tar.Header{Name: "xabs", Typeflag: tar.TypeSymlink, Linkname: "/mnt/data/../../"}, "")
	add(&tar.Header{Name: "xabs/outside/secret.txt", Typeflag: tar.TypeReg}, "OVERWRITTEN\n")
	add(&tar.Header{Name: "../outside/secret.txt", Typeflag: tar.TypeReg}, "OVERWRITTEN\n")
	add(&tar.Header{Name: "xup", Typeflag: tar.TypeLink, Linkname: "../outside/secret.txt"}, "")
	w.Close()
	return buf.Bytes()
}

// checkNoNewLinksOut fails if data holds a symlink leading out of it that
// hostTree did not plant.
func checkNoNewLinksOut(t *testing.T, data string) {
	t.Helper()
	planted := map[string]bool{"abs": true, "climb": true, "climbs": true}
	filepath.WalkDir(data, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.Type()&os.ModeSymlink == 0 {
			return nil
		}
		rel, _ := filepath.Rel(data, p)
		target, _ := os.Readlink(p)
		resolved := filepath.Join(filepath.Dir(p), target)
		if filepath.IsAbs(target) {
			resolved = target
		}
		if !planted[rel] && !strings.HasPrefix(resolved, data+string(filepath.Separator)) {
			t.Errorf("the sandbox made %s -> %s on the host", rel, target)
		}
		return nil
	})
}
