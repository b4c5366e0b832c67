package hostdir_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/wasmsand/wasmsand/platform/native/hostdir"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// setup makes a host tree:
//
//	outside/secret.txt          (next to the mounted directory)
//	data/a.txt
//	data/sub/b.txt
//	data/abs -> /etc/passwd     (absolute symlink)
//	data/up -> ../outside       (relative, climbs out)
//	data/in -> sub/b.txt        (relative, stays in)
//	data/hard.txt               (hard link to outside/secret.txt)
//
// and mounts data at /mnt/data of a new FS.
func setup(t *testing.T, ro bool) (*vfs.FS, string) {
	t.Helper()
	top := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(top, "data")
	must(os.MkdirAll(filepath.Join(data, "sub"), 0o755))
	must(os.MkdirAll(filepath.Join(top, "outside"), 0o755))
	must(os.WriteFile(filepath.Join(top, "outside", "secret.txt"), []byte("SECRET\n"), 0o644))
	must(os.WriteFile(filepath.Join(data, "a.txt"), []byte("alpha\n"), 0o644))
	must(os.WriteFile(filepath.Join(data, "sub", "b.txt"), []byte("beta\n"), 0o644))
	must(os.Symlink("/etc/passwd", filepath.Join(data, "abs")))
	must(os.Symlink("../outside", filepath.Join(data, "up")))
	must(os.Symlink("sub/b.txt", filepath.Join(data, "in")))
	must(os.Link(filepath.Join(top, "outside", "secret.txt"), filepath.Join(data, "hard.txt")))

	f := vfs.New(vfs.Options{MaxBytes: 1 << 20})
	must(f.MkdirAll("/mnt/data", 0o755))
	must(f.MkdirAll("/etc", 0o755))
	must(f.WriteFile("/etc/passwd", []byte("user:x:1000:1000::/home/user:/bin/bash\n"), 0o644))
	d, err := hostdir.Open(data)
	must(err)
	must(f.Mount("/mnt/data", d, vfs.MountOptions{ReadOnly: ro}))
	t.Cleanup(func() { f.Unmount("/mnt/data") })
	return f, top
}

func errnoOf(err error) vfs.Errno {
	var e vfs.Errno
	if errors.As(err, &e) {
		return e
	}
	return 0
}

func TestMountRead(t *testing.T) {
	f, _ := setup(t, true)
	b, err := f.ReadFile("/mnt/data/a.txt")
	if err != nil || string(b) != "alpha\n" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	ents, err := f.ReadDir(vfs.RootIno, "/mnt/data")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name+":"+e.Type.String())
	}
	if got, want := strings.Join(names, " "), "a.txt:regular abs:symlink hard.txt:regular in:symlink sub:dir up:symlink"; got != want {
		t.Errorf("ReadDir = %s, want %s", got, want)
	}
	// Entries and Stat agree on inode numbers, and Stat reports the host's.
	st, err := f.Stat(vfs.RootIno, "/mnt/data/sub/b.txt", false)
	if err != nil || st.Type != vfs.TypeRegular || st.Size != 5 {
		t.Fatalf("Stat = %+v, %v", st, err)
	}
	for _, e := range ents {
		s, _ := f.Stat(vfs.RootIno, "/mnt/data/"+e.Name, false)
		if s.Ino != e.Ino {
			t.Errorf("%s: Stat ino %d, ReadDir ino %d", e.Name, s.Ino, e.Ino)
		}
	}
	// A relative path from a directory inside the mount, and ".." out of it
	// into the sandbox.
	sub, err := f.Lookup(vfs.RootIno, "/mnt/data/sub", true)
	if err != nil {
		t.Fatal(err)
	}
	h, err := f.Open(sub, "../../../etc/passwd", vfs.ORead, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(h)
	h.Close()
	if !strings.HasPrefix(string(b), "user:x:1000") {
		t.Errorf("../../../etc/passwd from the mount read %q, want the sandbox's", b)
	}
	// Symlink staying inside resolves.
	if b, err := f.ReadFile("/mnt/data/in"); err != nil || string(b) != "beta\n" {
		t.Errorf("in -> sub/b.txt: %q, %v", b, err)
	}
	if tgt, err := f.Readlink(vfs.RootIno, "/mnt/data/abs"); err != nil || tgt != "/etc/passwd" {
		t.Errorf("Readlink = %q, %v", tgt, err)
	}
	// Seek, ReadAt and Stat on an open file.
	h, err = f.Open(vfs.RootIno, "/mnt/data/a.txt", vfs.ORead, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if off, err := h.Seek(-3, io.SeekEnd); err != nil || off != 3 {
		t.Errorf("Seek = %d, %v", off, err)
	}
	p := make([]byte, 8)
	if n, err := h.Read(p); n != 3 || err != nil || string(p[:n]) != "ha\n" {
		t.Errorf("Read = %d %q %v", n, p[:n], err)
	}
	if n, err := h.Read(p); n != 0 || err != io.EOF {
		t.Errorf("Read at end = %d, %v", n, err)
	}
	if st, err := h.Stat(); err != nil || st.Size != 6 || st.Dev == vfs.DevID {
		t.Errorf("File.Stat = %+v, %v (want the mount's own Dev)", st, err)
	}
}

// TestMountEscapes tries every way out of the mounted directory.
func TestMountEscapes(t *testing.T) {
	f, _ := setup(t, false)
	for _, p := range []string{
		"/mnt/data/../../outside/secret.txt", // .. past the mount root stays in the sandbox
		"/mnt/data/up/secret.txt",            // relative symlink climbing out
		"/mnt/data/sub/../../outside/secret.txt",
	} {
		if b, err := f.ReadFile(p); err == nil {
			t.Errorf("%s: read %q, want an error", p, b)
		} else if e := errnoOf(err); e != vfs.ENOENT {
			t.Errorf("%s: %v, want ENOENT", p, err)
		}
	}
	// An absolute symlink resolves in the sandbox, never on the host.
	b, err := f.ReadFile("/mnt/data/abs")
	if err != nil || !strings.HasPrefix(string(b), "user:x:1000") {
		t.Errorf("abs -> /etc/passwd read %q, %v; want the sandbox's file", b, err)
	}
	// up itself resolves to /mnt/outside in the sandbox: it does not exist.
	if _, err := f.Stat(vfs.RootIno, "/mnt/data/up", true); errnoOf(err) != vfs.ENOENT {
		t.Errorf("stat up: %v, want ENOENT", err)
	}
	// A symlink the sandbox makes may not point out of the host directory
	// (the host might follow it one day).
	for _, target := range []string{"/etc/passwd", "../outside/secret.txt", "sub/../../x", "/mnt/data/a.txt"} {
		if err := f.Symlink(target, vfs.RootIno, "/mnt/data/new"); errnoOf(err) != vfs.EPERM {
			t.Errorf("Symlink(%q) = %v, want EPERM", target, err)
		}
	}
	if err := f.Symlink("sub/b.txt", vfs.RootIno, "/mnt/data/ok"); err != nil {
		t.Errorf("Symlink inside: %v", err)
	}
	// Nor may one be moved or linked where its target climbs out, alone
	// or inside a directory moved up.
	if err := f.Symlink("../a.txt", vfs.RootIno, "/mnt/data/sub/l"); err != nil {
		t.Fatal(err)
	}
	if err := f.Rename(vfs.RootIno, "/mnt/data/sub/l", vfs.RootIno, "/mnt/data/l"); errnoOf(err) != vfs.EPERM {
		t.Errorf("moving a symlink up: %v, want EPERM", err)
	}
	if err := f.Link(vfs.RootIno, "/mnt/data/sub/l", vfs.RootIno, "/mnt/data/l"); errnoOf(err) != vfs.EPERM {
		t.Errorf("linking a symlink up: %v, want EPERM", err)
	}
	if err := f.MkdirAll("/mnt/data/p/q/r", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := f.Rename(vfs.RootIno, "/mnt/data/sub/l", vfs.RootIno, "/mnt/data/p/q/r/l0"); err != nil {
		t.Errorf("moving a symlink down: %v", err)
	}
	if err := f.Symlink("../../../a.txt", vfs.RootIno, "/mnt/data/p/q/r/l"); err != nil {
		t.Fatal(err)
	}
	if err := f.Rename(vfs.RootIno, "/mnt/data/p/q", vfs.RootIno, "/mnt/data/q"); errnoOf(err) != vfs.EPERM {
		t.Errorf("moving up a directory holding a symlink that would climb out: %v, want EPERM", err)
	}
	if err := f.Rename(vfs.RootIno, "/mnt/data/p/q", vfs.RootIno, "/mnt/data/sub/q"); err != nil {
		t.Errorf("moving it across: %v", err)
	}
	if b, err := f.ReadFile("/mnt/data/sub/q/r/l"); err != nil || string(b) != "alpha\n" {
		t.Errorf("the moved symlink: %q, %v", b, err)
	}
	if err := f.Rename(vfs.RootIno, "/mnt/data/p", vfs.RootIno, "/mnt/data/sub/q/r/p"); err != nil {
		t.Errorf("moving an empty directory down: %v", err)
	}
	// Hard links: none from the sandbox's own tree into the mount or out.
	if err := f.Link(vfs.RootIno, "/etc/passwd", vfs.RootIno, "/mnt/data/pw"); errnoOf(err) != vfs.EXDEV {
		t.Errorf("Link into the mount = %v, want EXDEV", err)
	}
	if err := f.Link(vfs.RootIno, "/mnt/data/a.txt", vfs.RootIno, "/tmpa"); errnoOf(err) != vfs.EXDEV {
		t.Errorf("Link out of the mount = %v, want EXDEV", err)
	}
	if err := f.Rename(vfs.RootIno, "/mnt/data/a.txt", vfs.RootIno, "/a.txt"); errnoOf(err) != vfs.EXDEV {
		t.Errorf("Rename out of the mount = %v, want EXDEV", err)
	}
	// A hard link the host directory already holds shows what it holds,
	// nothing more: the content of that one file.
	if b, err := f.ReadFile("/mnt/data/hard.txt"); err != nil || string(b) != "SECRET\n" {
		t.Errorf("hard.txt: %q, %v", b, err)
	}
	// The mount point itself cannot be removed or renamed.
	if err := f.Rmdir(vfs.RootIno, "/mnt/data"); errnoOf(err) != vfs.EBUSY {
		t.Errorf("Rmdir mount point = %v, want EBUSY", err)
	}
	if err := f.Rename(vfs.RootIno, "/mnt/data", vfs.RootIno, "/mnt/x"); errnoOf(err) != vfs.EBUSY {
		t.Errorf("Rename mount point = %v, want EBUSY", err)
	}
}

// TestMountSwappedSymlink swaps a checked directory for a symlink out of
// the mount on the host, between the sandbox's walk and its use: the host
// side (os.Root) still refuses to leave the directory.
func TestMountSwappedSymlink(t *testing.T) {
	top := t.TempDir()
	data := filepath.Join(top, "data")
	os.MkdirAll(filepath.Join(data, "d"), 0o755)
	os.WriteFile(filepath.Join(data, "d", "f"), []byte("inside\n"), 0o644)
	os.MkdirAll(filepath.Join(top, "outside"), 0o755)
	os.WriteFile(filepath.Join(top, "outside", "f"), []byte("SECRET\n"), 0o644)
	d, err := hostdir.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// The walk saw d as a directory; now the host has a symlink there.
	if _, err := d.Lstat("d/f"); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(data, "d"))
	if err := os.Symlink(filepath.Join(top, "outside"), filepath.Join(data, "d")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.OpenFile("d/f", vfs.ORead, 0); err == nil {
		t.Fatal("OpenFile through a swapped absolute symlink succeeded")
	}
	os.Remove(filepath.Join(data, "d"))
	os.Symlink("../outside", filepath.Join(data, "d"))
	for name, op := range map[string]func() error{
		"open":    func() error { _, err := d.OpenFile("d/f", vfs.ORead, 0); return err },
		"lstat":   func() error { _, err := d.Lstat("d/f"); return err },
		"readdir": func() error { _, err := d.ReadDir("d"); return err },
		"remove":  func() error { return d.Remove("d/f") },
		"mkdir":   func() error { return d.Mkdir("d/new", 0o755) },
		"rename":  func() error { return d.Rename("d/f", "stolen") },
		"link":    func() error { return d.Link("d/f", "stolen") },
		"chmod":   func() error { return d.Chmod("d/f", 0o777) },
		"create":  func() error { _, err := d.OpenFile("d/g", vfs.OWrite|vfs.OCreate, 0o644); return err },
	} {
		if err := op(); err == nil {
			t.Errorf("%s through a swapped relative symlink succeeded", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(top, "outside", "f")); string(b) != "SECRET\n" {
		t.Errorf("outside file changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(top, "outside", "g")); err == nil {
		t.Error("a file was created outside")
	}
}

func TestMountReadOnly(t *testing.T) {
	f, top := setup(t, true)
	checks := map[string]error{
		"write":    f.WriteFile("/mnt/data/a.txt", []byte("x"), 0o644),
		"create":   f.WriteFile("/mnt/data/new.txt", []byte("x"), 0o644),
		"unlink":   f.Unlink(vfs.RootIno, "/mnt/data/a.txt"),
		"rmdir":    f.Rmdir(vfs.RootIno, "/mnt/data/sub"),
		"mkdir":    f.Mkdir(vfs.RootIno, "/mnt/data/d", 0o755),
		"rename":   f.Rename(vfs.RootIno, "/mnt/data/a.txt", vfs.RootIno, "/mnt/data/b.txt"),
		"chmod":    f.Chmod(vfs.RootIno, "/mnt/data/a.txt", 0o600, true),
		"utimes":   f.SetTimes(vfs.RootIno, "/mnt/data/a.txt", true, nil, nil),
		"truncate": f.Truncate(vfs.RootIno, "/mnt/data/a.txt", 0),
		"symlink":  f.Symlink("a.txt", vfs.RootIno, "/mnt/data/l"),
		"link":     f.Link(vfs.RootIno, "/mnt/data/a.txt", vfs.RootIno, "/mnt/data/l"),
		"mkfifo":   f.Mkfifo(vfs.RootIno, "/mnt/data/p", 0o600),
	}
	_, err := f.Open(vfs.RootIno, "/mnt/data/a.txt", vfs.ORead|vfs.OWrite, 0)
	checks["open rw"] = err
	for op, err := range checks {
		if errnoOf(err) != vfs.EROFS {
			t.Errorf("%s: %v, want EROFS", op, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(top, "data", "a.txt")); string(b) != "alpha\n" {
		t.Errorf("a.txt changed on the host: %q", b)
	}
	ents, _ := os.ReadDir(filepath.Join(top, "data"))
	if len(ents) != 6 {
		t.Errorf("the host directory has %d entries, want 6", len(ents))
	}
}

func TestMountWritable(t *testing.T) {
	f, top := setup(t, false)
	host := func(p string) string { return filepath.Join(top, "data", p) }
	if err := f.MkdirAll("/mnt/data/x/y", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile("/mnt/data/x/y/z.txt", []byte("zed\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(host("x/y/z.txt")); err != nil || string(b) != "zed\n" {
		t.Fatalf("host sees %q, %v", b, err)
	}
	if fi, _ := os.Stat(host("x/y/z.txt")); fi == nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode on the host: %v", fi)
	}
	// Append, rename of a directory with a cached file under it, unlink.
	h, err := f.Open(vfs.RootIno, "/mnt/data/x/y/z.txt", vfs.OWrite|vfs.OAppend, 0)
	if err != nil {
		t.Fatal(err)
	}
	h.Write([]byte("more\n"))
	h.Close()
	if err := f.Rename(vfs.RootIno, "/mnt/data/x", vfs.RootIno, "/mnt/data/w"); err != nil {
		t.Fatal(err)
	}
	if b, err := f.ReadFile("/mnt/data/w/y/z.txt"); err != nil || string(b) != "zed\nmore\n" {
		t.Errorf("after rename: %q, %v", b, err)
	}
	if err := f.Chmod(vfs.RootIno, "/mnt/data/w/y/z.txt", 0o600, true); err != nil {
		t.Error(err)
	}
	if st, _ := f.Stat(vfs.RootIno, "/mnt/data/w/y/z.txt", true); st.Mode != 0o600 {
		t.Errorf("mode after chmod: %o", st.Mode)
	}
	if err := f.Link(vfs.RootIno, "/mnt/data/w/y/z.txt", vfs.RootIno, "/mnt/data/z2"); err != nil {
		t.Error(err)
	}
	if st, _ := f.Stat(vfs.RootIno, "/mnt/data/z2", true); st.Nlink != 2 {
		t.Errorf("nlink after link: %d", st.Nlink)
	}
	for _, p := range []string{"/mnt/data/z2", "/mnt/data/w/y/z.txt"} {
		if err := f.Unlink(vfs.RootIno, p); err != nil {
			t.Error(err)
		}
	}
	if err := f.Rmdir(vfs.RootIno, "/mnt/data/w/y"); err != nil {
		t.Error(err)
	}
	if err := f.Unlink(vfs.RootIno, "/mnt/data/w"); errnoOf(err) != vfs.EISDIR {
		t.Errorf("unlink dir: %v", err)
	}
	if err := f.Rmdir(vfs.RootIno, "/mnt/data/sub"); errnoOf(err) != vfs.ENOTEMPTY {
		t.Errorf("rmdir non-empty: %v", err)
	}
	if _, err := os.Stat(host("w/y")); !os.IsNotExist(err) {
		t.Errorf("w/y still on the host: %v", err)
	}
	if used, _ := f.Usage(); used > 4096 {
		t.Errorf("usage after deleting what was written: %d", used)
	}
}

// TestMountSizeLimit: bytes written into a writable mount count against
// the FS byte limit, and deleting files the host already had frees nothing.
func TestMountSizeLimit(t *testing.T) {
	f, top := setup(t, false)
	f.SetLimits(64<<10, 0)
	used0, _ := f.Usage()
	h, err := f.Open(vfs.RootIno, "/mnt/data/big", vfs.OWrite|vfs.OCreate, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	buf := bytes.Repeat([]byte("x"), 100<<10)
	n, err := h.Write(buf)
	h.Close()
	if errnoOf(err) != vfs.ENOSPC || int64(n) != 64<<10-used0 {
		t.Errorf("Write = %d, %v; want %d, ENOSPC", n, err, 64<<10-used0)
	}
	if fi, _ := os.Stat(filepath.Join(top, "data", "big")); fi == nil || fi.Size() != int64(n) {
		t.Errorf("host file: %v", fi)
	}
	if err := f.WriteFile("/tmpfile", []byte("y"), 0o644); errnoOf(err) != vfs.ENOSPC {
		t.Errorf("the FS itself is full too: %v", err)
	}
	if err := f.Truncate(vfs.RootIno, "/mnt/data/a.txt", 1<<20); errnoOf(err) != vfs.ENOSPC {
		t.Errorf("truncate up: %v", err)
	}
	// Deleting a file the host had does not make room.
	if err := f.Unlink(vfs.RootIno, "/mnt/data/a.txt"); err != nil {
		t.Fatal(err)
	}
	if used, _ := f.Usage(); used != 64<<10 {
		t.Errorf("usage after deleting a host file: %d", used)
	}
	// Deleting what was written does, by unlink or by a rename over it.
	if err := f.Rename(vfs.RootIno, "/mnt/data/sub/b.txt", vfs.RootIno, "/mnt/data/big"); err != nil {
		t.Fatal(err)
	}
	if used, _ := f.Usage(); used != used0 {
		t.Errorf("usage after deleting big: %d, want %d", used, used0)
	}
}

func TestMountRules(t *testing.T) {
	f := vfs.New(vfs.Options{})
	f.MkdirAll("/mnt/full", 0o755)
	f.WriteFile("/mnt/full/keep", []byte("mine"), 0o644)
	f.MkdirAll("/mnt/a", 0o755)
	d, err := hostdir.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Mount("/mnt/full", d, vfs.MountOptions{}); errnoOf(err) != vfs.ENOTEMPTY {
		t.Errorf("mount on a non-empty dir: %v", err)
	}
	if err := f.Mount("/", d, vfs.MountOptions{}); errnoOf(err) != vfs.EBUSY {
		t.Errorf("mount on /: %v", err)
	}
	if err := f.Mount("/mnt/full/keep", d, vfs.MountOptions{}); errnoOf(err) != vfs.ENOTDIR {
		t.Errorf("mount on a file: %v", err)
	}
	if err := f.Mount("/mnt/a", d, vfs.MountOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Mount("/mnt/a", d, vfs.MountOptions{}); errnoOf(err) != vfs.EBUSY {
		t.Errorf("mount twice: %v", err)
	}
	f.WriteFile("/mnt/a/f", []byte("x"), 0o644)
	h, _ := f.Open(vfs.RootIno, "/mnt/a/f", vfs.ORead, 0)
	if err := f.Unmount("/mnt/a"); errnoOf(err) != vfs.EBUSY {
		t.Errorf("unmount while open: %v", err)
	}
	h.Close()
	// A clone does not carry the mount.
	c := f.Clone()
	if ents, err := c.ReadDir(vfs.RootIno, "/mnt/a"); err != nil || len(ents) != 0 {
		t.Errorf("clone sees %v, %v", ents, err)
	}
	if err := f.Unmount("/mnt/a"); err != nil {
		t.Fatal(err)
	}
	if ents, err := f.ReadDir(vfs.RootIno, "/mnt/a"); err != nil || len(ents) != 0 {
		t.Errorf("after unmount: %v, %v", ents, err)
	}
	if b, _ := f.ReadFile("/mnt/full/keep"); string(b) != "mine" {
		t.Error("a refused mount lost a file")
	}
}

// TestMountSpecialFiles: a FIFO or socket on the host is listed but never
// opened (an open could block the host or reach a service).
func TestMountSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip("no mkfifo here:", err)
	}
	f := vfs.New(vfs.Options{})
	f.MkdirAll("/mnt/d", 0o755)
	d, err := hostdir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Mount("/mnt/d", d, vfs.MountOptions{}); err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat(vfs.RootIno, "/mnt/d/fifo", false)
	if err != nil || st.Type != vfs.TypeFIFO {
		t.Errorf("Stat = %+v, %v", st, err)
	}
	for _, flags := range []vfs.OpenFlag{vfs.ORead, vfs.OWrite, vfs.ORead | vfs.ONonblock} {
		if _, err := f.Open(vfs.RootIno, "/mnt/d/fifo", flags, 0); errnoOf(err) != vfs.ENXIO {
			t.Errorf("Open(%v) = %v, want ENXIO", flags, err)
		}
	}
	if err := f.WriteFileShared("/mnt/d/shared", []byte("on the host"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "shared")); string(b) != "on the host" {
		t.Errorf("WriteFileShared into a mount: host has %q", b)
	}
}

// TestMountManyFiles walks a tree larger than the inode cache: numbers
// stay unique, open files stay reachable, and memory stays bounded.
func TestMountManyFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 17,000 host files")
	}
	dir := t.TempDir()
	const dirs, per = 34, 500 // more than the 16,384 inodes the cache keeps
	for i := range dirs {
		d := filepath.Join(dir, "d"+strconv.Itoa(i))
		os.Mkdir(d, 0o755)
		for j := range per {
			os.WriteFile(filepath.Join(d, strconv.Itoa(j)), nil, 0o644)
		}
	}
	f := vfs.New(vfs.Options{})
	f.MkdirAll("/mnt/d", 0o755)
	hd, _ := hostdir.Open(dir)
	if err := f.Mount("/mnt/d", hd, vfs.MountOptions{ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	held, err := f.Open(vfs.RootIno, "/mnt/d/d0/0", vfs.ORead, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	heldIno := held.Ino()
	seen := map[vfs.Ino]string{}
	total := 0
	for i := range dirs {
		p := "/mnt/d/d" + strconv.Itoa(i)
		dh, err := f.Open(vfs.RootIno, p, vfs.ORead|vfs.ODirectory, 0)
		if err != nil {
			t.Fatal(err)
		}
		ents, err := dh.ReadDir()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			name := p + "/" + e.Name
			if prev, dup := seen[e.Ino]; dup && prev != name {
				t.Fatalf("%s and %s share inode %d", prev, name, e.Ino)
			}
			seen[e.Ino] = name
			total++
		}
		// Relative lookups from the open directory keep working.
		if _, err := f.Stat(dh.Ino(), "0", false); err != nil {
			t.Errorf("stat from an open directory: %v", err)
		}
		dh.Close()
	}
	if total != dirs*per {
		t.Errorf("listed %d files, want %d", total, dirs*per)
	}
	if st, err := f.StatIno(heldIno); err != nil || st.Type != vfs.TypeRegular {
		t.Errorf("the open file's inode: %+v, %v", st, err)
	}
	if st, err := held.Stat(); err != nil || st.Ino != heldIno {
		t.Errorf("File.Stat = %+v, %v", st, err)
	}
}
