package vfs

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"
	"time"
)

// tick is a deterministic clock advancing one second per call.
func tick() func() time.Time {
	t := time.Unix(1_700_000_000, 0)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

func newFS(t testing.TB) *FS {
	t.Helper()
	return New(Options{Clock: tick()})
}

// errno extracts the Errno of err, or 0.
func errno(err error) Errno {
	var e Errno
	if errors.As(err, &e) {
		return e
	}
	return 0
}

func wantErr(t testing.TB, err error, want Errno) {
	t.Helper()
	if got := errno(err); got != want {
		t.Fatalf("error %v (errno %d), want %v (%d)", err, got, want, want)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func write(t testing.TB, f *FS, path, data string) {
	t.Helper()
	must(t, f.WriteFile(path, []byte(data), 0o644))
}

func read(t testing.TB, f *FS, path string) string {
	t.Helper()
	b, err := f.ReadFile(path)
	must(t, err)
	return string(b)
}

func TestErrno(t *testing.T) {
	if got := ENOENT.Error(); got != "no such file or directory" {
		t.Errorf("ENOENT.Error() = %q", got)
	}
	if got := Errno(999).Error(); got != "errno 999" {
		t.Errorf("Errno(999).Error() = %q", got)
	}
	tests := []struct {
		e      Errno
		target error
		want   bool
	}{
		{ENOENT, fs.ErrNotExist, true},
		{EEXIST, fs.ErrExist, true},
		{EACCES, fs.ErrPermission, true},
		{EPERM, fs.ErrPermission, true},
		{ENOENT, fs.ErrExist, false},
		{ENOTDIR, fs.ErrNotExist, false},
	}
	for _, tt := range tests {
		if got := errors.Is(tt.e, tt.target); got != tt.want {
			t.Errorf("errors.Is(%v, %v) = %v", tt.e, tt.target, got)
		}
	}
	f := newFS(t)
	_, err := f.Stat(RootIno, "/nope", true)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "stat" || pe.Path != "/nope" || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat error = %#v", err)
	}
}

func TestNewRoot(t *testing.T) {
	f := newFS(t)
	st, err := f.Stat(RootIno, "/", true)
	must(t, err)
	if st.Ino != RootIno || st.Type != TypeDir || st.Mode != 0o755 || st.Nlink != 2 || st.Dev != DevID {
		t.Fatalf("root stat = %+v", st)
	}
	if b, n := f.Usage(); b != 0 || n != 1 {
		t.Fatalf("Usage = %d, %d", b, n)
	}
}

func TestMkdirNlinkTimes(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkdir(RootIno, "/a", 0o750))
	st0, _ := f.Stat(RootIno, "/a", true)
	must(t, f.Mkdir(RootIno, "/a/b", 0o755))
	must(t, f.Mkdir(RootIno, "/a/c", 0o755))
	write(t, f, "/a/file", "x")
	st, err := f.Stat(RootIno, "/a", true)
	must(t, err)
	if st.Nlink != 4 {
		t.Errorf("nlink of /a with 2 subdirs = %d, want 4", st.Nlink)
	}
	if st.Mode != 0o750 {
		t.Errorf("mode = %o", st.Mode)
	}
	if !st.Mtime.After(st0.Mtime) || !st.Ctime.After(st0.Ctime) {
		t.Errorf("directory times did not advance: %v -> %v", st0.Mtime, st.Mtime)
	}
	root, _ := f.Stat(RootIno, "/", true)
	if root.Nlink != 3 {
		t.Errorf("root nlink = %d, want 3", root.Nlink)
	}
	wantErr(t, f.Mkdir(RootIno, "/a", 0o755), EEXIST)
	wantErr(t, f.Mkdir(RootIno, "/a/file", 0o755), EEXIST)
	wantErr(t, f.Mkdir(RootIno, "/nope/x", 0o755), ENOENT)
	wantErr(t, f.Mkdir(RootIno, "/a/file/x", 0o755), ENOTDIR)
	wantErr(t, f.Mkdir(RootIno, "/", 0o755), EEXIST)
	wantErr(t, f.Mkdir(RootIno, "/a/.", 0o755), EEXIST)
	must(t, f.Mkdir(RootIno, "/a/d/", 0o755)) // trailing slash is fine for mkdir
	must(t, f.Rmdir(RootIno, "/a/b"))
	must(t, f.Rmdir(RootIno, "/a/d"))
	st, _ = f.Stat(RootIno, "/a", true)
	if st.Nlink != 3 {
		t.Errorf("nlink after rmdir = %d, want 3", st.Nlink)
	}
}

func TestMkdirAll(t *testing.T) {
	f := newFS(t)
	must(t, f.MkdirAll("/x/y/z", 0o755))
	must(t, f.MkdirAll("/x/y/z", 0o755))
	must(t, f.MkdirAll("/x//y/w/", 0o755))
	must(t, f.Symlink("/x/y", RootIno, "/ln"))
	must(t, f.MkdirAll("/ln/v", 0o755))
	if _, err := f.Stat(RootIno, "/x/y/v", false); err != nil {
		t.Fatal(err)
	}
	write(t, f, "/x/file", "")
	wantErr(t, f.MkdirAll("/x/file/q", 0o755), ENOTDIR)
	wantErr(t, f.MkdirAll("/x/file", 0o755), ENOTDIR)
	wantErr(t, f.MkdirAll("rel", 0o755), EINVAL)
}

func TestResolve(t *testing.T) {
	f := newFS(t)
	must(t, f.MkdirAll("/a/b/c", 0o755))
	write(t, f, "/a/b/c/f", "hello")
	must(t, f.Symlink("b/c", RootIno, "/a/rel"))      // relative to /a
	must(t, f.Symlink("/a/b", RootIno, "/a/b/c/abs")) // absolute
	must(t, f.Symlink("../..", RootIno, "/a/b/c/up")) // -> /a
	must(t, f.Symlink("f", RootIno, "/a/b/c/lf"))
	must(t, f.Symlink("loop2", RootIno, "/loop1"))
	must(t, f.Symlink("loop1", RootIno, "/loop2"))
	must(t, f.Symlink("nowhere", RootIno, "/dangling"))
	must(t, f.Symlink("/a/b/c/f/", RootIno, "/fileslash"))
	fIno, _ := f.Lookup(RootIno, "/a/b/c/f", false)
	cIno, _ := f.Lookup(RootIno, "/a/b/c", false)
	aIno, _ := f.Lookup(RootIno, "/a", false)
	bIno, _ := f.Lookup(RootIno, "/a/b", false)
	relIno, _ := f.Lookup(RootIno, "/a/rel", false)
	long := strings.Repeat("x", 256)
	tests := []struct {
		base   Ino
		path   string
		follow bool
		want   Ino
		err    Errno
	}{
		{RootIno, "/", true, RootIno, 0},
		{RootIno, "", true, RootIno, 0},
		{RootIno, ".", true, RootIno, 0},
		{RootIno, "..", true, RootIno, 0},
		{RootIno, "/../../..", true, RootIno, 0},
		{RootIno, "/a/../a/./b//c/f", true, fIno, 0},
		{cIno, "f", true, fIno, 0},
		{cIno, "../../b/c/f", true, fIno, 0},
		{cIno, "/a", true, aIno, 0},
		{cIno, "", true, cIno, 0},
		{cIno, "../../../../..", true, RootIno, 0},
		{RootIno, "/a/rel/f", true, fIno, 0},
		{RootIno, "/a/rel", true, cIno, 0},
		{RootIno, "/a/rel", false, relIno, 0},
		{RootIno, "/a/rel/", false, cIno, 0}, // trailing slash follows
		{RootIno, "/a/b/c/abs/c/f", true, fIno, 0},
		{RootIno, "/a/b/c/up/b", true, bIno, 0},
		{RootIno, "/a/b/c/up/..", true, RootIno, 0},
		{RootIno, "/a/b/c/lf", true, fIno, 0},
		{RootIno, "/a/b/c/f/", true, 0, ENOTDIR},
		{RootIno, "/a/b/c/f/x", true, 0, ENOTDIR},
		{RootIno, "/a/b/c/f/..", true, 0, ENOTDIR},
		{RootIno, "/fileslash", true, 0, ENOTDIR},
		{RootIno, "/a/nope", true, 0, ENOENT},
		{RootIno, "/a/nope/x", true, 0, ENOENT},
		{RootIno, "/loop1", true, 0, ELOOP},
		{RootIno, "/loop1/x", false, 0, ELOOP},
		{RootIno, "/dangling", true, 0, ENOENT},
		{RootIno, "/" + long, true, 0, ENAMETOOLONG},
		{RootIno, "/" + strings.Repeat("a/", 2100), true, 0, ENAMETOOLONG},
		{fIno, "x", true, 0, ENOTDIR},
		{Ino(9999), "x", true, 0, EBADF},
		{Ino(9999), "/a", true, aIno, 0},
	}
	for _, tt := range tests {
		got, err := f.Lookup(tt.base, tt.path, tt.follow)
		if errno(err) != tt.err || got != tt.want {
			t.Errorf("Lookup(%d, %.40q, %v) = %d, %v; want %d, %v", tt.base, tt.path, tt.follow, got, err, tt.want, tt.err)
		}
	}
	if _, err := f.Lookup(RootIno, "/dangling", false); err != nil {
		t.Errorf("lstat of dangling symlink: %v", err)
	}
	// A chain of exactly 40 symlinks resolves; 41 is ELOOP.
	write(t, f, "/target", "t")
	prev := "/target"
	for i := range 41 {
		name := "/chain" + itoa(uint64(i))
		must(t, f.Symlink(prev, RootIno, name))
		prev = name
	}
	if _, err := f.Lookup(RootIno, "/chain39", true); err != nil {
		t.Errorf("40 links: %v", err)
	}
	_, err := f.Lookup(RootIno, "/chain40", true)
	wantErr(t, err, ELOOP)
}

func TestSymlinkReadlink(t *testing.T) {
	f := newFS(t)
	must(t, f.Symlink("some/where", RootIno, "/l"))
	got, err := f.Readlink(RootIno, "/l")
	must(t, err)
	if got != "some/where" {
		t.Fatalf("Readlink = %q", got)
	}
	st, _ := f.Stat(RootIno, "/l", false)
	if st.Type != TypeSymlink || st.Size != 10 || st.Mode != 0o777 {
		t.Fatalf("symlink stat = %+v", st)
	}
	if b, _ := f.Usage(); b != 10 {
		t.Fatalf("symlink bytes = %d", b)
	}
	write(t, f, "/file", "")
	_, err = f.Readlink(RootIno, "/file")
	wantErr(t, err, EINVAL)
	wantErr(t, f.Symlink("x", RootIno, "/l"), EEXIST)
	wantErr(t, f.Symlink("x", RootIno, "/file"), EEXIST)
	wantErr(t, f.Symlink("", RootIno, "/empty"), ENOENT)
	wantErr(t, f.Symlink(strings.Repeat("x", PathMax), RootIno, "/big"), ENAMETOOLONG)
	must(t, f.Unlink(RootIno, "/l"))
	if b, _ := f.Usage(); b != 0 {
		t.Fatalf("bytes after unlinking symlink = %d", b)
	}
	// Creating through a dangling symlink creates its target.
	must(t, f.Symlink("made", RootIno, "/ln"))
	h, err := f.Open(RootIno, "/ln", OWrite|OCreate, 0o644)
	must(t, err)
	h.Close()
	if _, err := f.Stat(RootIno, "/made", false); err != nil {
		t.Fatal(err)
	}
}

func TestRmdirUnlink(t *testing.T) {
	f := newFS(t)
	must(t, f.MkdirAll("/d/sub", 0o755))
	write(t, f, "/d/f", "x")
	must(t, f.Symlink("/d", RootIno, "/ld"))
	wantErr(t, f.Rmdir(RootIno, "/d"), ENOTEMPTY)
	wantErr(t, f.Rmdir(RootIno, "/d/f"), ENOTDIR)
	wantErr(t, f.Rmdir(RootIno, "/ld"), ENOTDIR)
	wantErr(t, f.Rmdir(RootIno, "/"), EBUSY)
	wantErr(t, f.Rmdir(RootIno, "/d/sub/."), EINVAL)
	wantErr(t, f.Rmdir(RootIno, "/d/sub/.."), ENOTEMPTY)
	wantErr(t, f.Rmdir(RootIno, "/nope"), ENOENT)
	wantErr(t, f.Unlink(RootIno, "/d"), EISDIR)
	wantErr(t, f.Unlink(RootIno, "/d/f/"), ENOTDIR)
	wantErr(t, f.Unlink(RootIno, "/nope"), ENOENT)
	must(t, f.Unlink(RootIno, "/ld")) // removes the link, not the target
	if _, err := f.Stat(RootIno, "/d", true); err != nil {
		t.Fatal(err)
	}
	must(t, f.Unlink(RootIno, "/d/f"))
	must(t, f.Rmdir(RootIno, "/d/sub/"))
	must(t, f.Rmdir(RootIno, "/d"))
	if b, n := f.Usage(); b != 0 || n != 1 {
		t.Fatalf("Usage after removing everything = %d, %d", b, n)
	}
}

func TestLinks(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkdir(RootIno, "/d", 0o755))
	write(t, f, "/a", "data")
	must(t, f.Link(RootIno, "/a", RootIno, "/d/b"))
	must(t, f.Symlink("/a", RootIno, "/s"))
	must(t, f.Link(RootIno, "/s", RootIno, "/s2")) // links the symlink itself
	sa, _ := f.Stat(RootIno, "/a", true)
	sb, _ := f.Stat(RootIno, "/d/b", true)
	if sa.Ino != sb.Ino || sa.Nlink != 2 {
		t.Fatalf("link: %+v %+v", sa, sb)
	}
	if st, _ := f.Stat(RootIno, "/s2", false); st.Type != TypeSymlink || st.Nlink != 2 {
		t.Fatalf("linked symlink: %+v", st)
	}
	wantErr(t, f.Link(RootIno, "/d", RootIno, "/d2"), EPERM)
	wantErr(t, f.Link(RootIno, "/a", RootIno, "/d/b"), EEXIST)
	wantErr(t, f.Link(RootIno, "/nope", RootIno, "/x"), ENOENT)
	wantErr(t, f.Link(RootIno, "/a", RootIno, "/nope/x"), ENOENT)
	must(t, f.Unlink(RootIno, "/a"))
	if got := read(t, f, "/d/b"); got != "data" {
		t.Fatalf("data through second link = %q", got)
	}
	if st, _ := f.Stat(RootIno, "/d/b", true); st.Nlink != 1 {
		t.Fatalf("nlink after unlink = %d", st.Nlink)
	}
	if b, _ := f.Usage(); b != 4+2 {
		t.Fatalf("bytes = %d, want 6 (file + symlink target)", b)
	}
	must(t, f.Unlink(RootIno, "/d/b"))
	if b, _ := f.Usage(); b != 2 {
		t.Fatalf("bytes after last unlink = %d", b)
	}
}

func TestUnlinkWhileOpen(t *testing.T) {
	f := newFS(t)
	write(t, f, "/f", "still here")
	h, err := f.Open(RootIno, "/f", ORead|OWrite, 0)
	must(t, err)
	ino := h.Ino()
	must(t, f.Unlink(RootIno, "/f"))
	if _, err := f.Stat(RootIno, "/f", true); errno(err) != ENOENT {
		t.Fatalf("name still present: %v", err)
	}
	if b, n := f.Usage(); b != 10 || n != 2 {
		t.Fatalf("Usage while open = %d, %d", b, n)
	}
	st, err := h.Stat()
	must(t, err)
	if st.Nlink != 0 {
		t.Fatalf("nlink = %d", st.Nlink)
	}
	if _, err := f.StatIno(ino); err != nil {
		t.Fatalf("StatIno of open orphan: %v", err)
	}
	h2, err := f.OpenIno(ino, ORead)
	must(t, err)
	b, err := io.ReadAll(h)
	must(t, err)
	if string(b) != "still here" {
		t.Fatalf("read %q", b)
	}
	if _, err := h.Write([]byte("!")); err != nil {
		t.Fatal(err)
	}
	must(t, h.Close())
	must(t, h.Close()) // idempotent
	if b, _ := f.Usage(); b != 11 {
		t.Fatalf("bytes with one handle left = %d", b)
	}
	b, _ = io.ReadAll(h2)
	if string(b) != "still here!" {
		t.Fatalf("second handle read %q", b)
	}
	must(t, h2.Close())
	if b, n := f.Usage(); b != 0 || n != 1 {
		t.Fatalf("Usage after last close = %d, %d", b, n)
	}
	_, err = f.StatIno(ino)
	wantErr(t, err, ENOENT)
	_, err = h.Read(make([]byte, 1))
	wantErr(t, err, EBADF)
}

func TestRename(t *testing.T) {
	setup := func(t *testing.T) *FS {
		f := newFS(t)
		must(t, f.MkdirAll("/d1/sub/deep", 0o755))
		must(t, f.MkdirAll("/d2", 0o755))
		must(t, f.MkdirAll("/empty", 0o755))
		write(t, f, "/f1", "one")
		write(t, f, "/f2", "two")
		write(t, f, "/d2/x", "x")
		must(t, f.Link(RootIno, "/f1", RootIno, "/f1link"))
		return f
	}
	tests := []struct {
		name     string
		old, new string
		err      Errno
		check    func(t *testing.T, f *FS)
	}{
		{"file to new name", "/f1", "/g", 0, func(t *testing.T, f *FS) {
			if read(t, f, "/g") != "one" {
				t.Error("content")
			}
		}},
		{"file over file", "/f1", "/f2", 0, func(t *testing.T, f *FS) {
			if read(t, f, "/f2") != "one" {
				t.Error("content")
			}
			if b, _ := f.Usage(); b != 3+1 {
				t.Errorf("bytes = %d, replaced file not freed", b)
			}
		}},
		{"file onto its own hard link", "/f1", "/f1link", 0, func(t *testing.T, f *FS) {
			if _, err := f.Stat(RootIno, "/f1", true); err != nil {
				t.Error("both names must stay")
			}
		}},
		{"file over dir", "/f1", "/empty", EISDIR, nil},
		{"dir over file", "/d1", "/f1", ENOTDIR, nil},
		{"dir over empty dir", "/d1", "/empty", 0, func(t *testing.T, f *FS) {
			if _, err := f.Stat(RootIno, "/empty/sub/deep", true); err != nil {
				t.Error(err)
			}
			if st, _ := f.Stat(RootIno, "/", true); st.Nlink != 2+2 {
				t.Errorf("root nlink = %d, want 4", st.Nlink)
			}
		}},
		{"dir over non-empty dir", "/empty", "/d2", ENOTEMPTY, nil},
		{"dir into itself", "/d1", "/d1/sub/x", EINVAL, nil},
		{"dir onto itself", "/d1", "/d1", 0, nil},
		{"dir to child of itself deep", "/d1/sub", "/d1/sub/deep/z", EINVAL, nil},
		{"dir across parents", "/d1/sub", "/d2/sub", 0, func(t *testing.T, f *FS) {
			d1, _ := f.Stat(RootIno, "/d1", true)
			d2, _ := f.Stat(RootIno, "/d2", true)
			if d1.Nlink != 2 || d2.Nlink != 3 {
				t.Errorf("nlink d1=%d d2=%d", d1.Nlink, d2.Nlink)
			}
			ino, err := f.Lookup(RootIno, "/d2/sub/deep/../..", true)
			d2ino, _ := f.Lookup(RootIno, "/d2", true)
			if err != nil || ino != d2ino {
				t.Errorf(".. after move: %d %v", ino, err)
			}
		}},
		{"missing source", "/nope", "/x", ENOENT, nil},
		{"missing target dir", "/f1", "/nope/x", ENOENT, nil},
		{"root", "/", "/x", EBUSY, nil},
		{"dot", "/d1/.", "/x", EBUSY, nil},
		{"file with trailing slash", "/f1/", "/x", ENOTDIR, nil},
		{"to trailing slash", "/f1", "/x/", ENOTDIR, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := setup(t)
			err := f.Rename(RootIno, tt.old, RootIno, tt.new)
			wantErr(t, err, tt.err)
			if tt.check != nil {
				tt.check(t, f)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkdir(RootIno, "/d", 0o755))
	write(t, f, "/f", "x")
	must(t, f.Symlink("/f", RootIno, "/l"))
	must(t, f.Symlink("/missing", RootIno, "/dl"))
	tests := []struct {
		path  string
		flags OpenFlag
		err   Errno
	}{
		{"/f", ORead, 0},
		{"/f", OWrite | OCreate | OExcl, EEXIST},
		{"/l", OWrite | OCreate | OExcl, EEXIST},
		{"/dl", OWrite | OCreate | OExcl, EEXIST},
		{"/nope", ORead, ENOENT},
		{"/nope/x", ORead | OCreate, ENOENT},
		{"/f/x", ORead | OCreate, ENOTDIR},
		{"/f", ORead | ODirectory, ENOTDIR},
		{"/l", ORead | ODirectory, ENOTDIR},
		{"/d", OWrite, EISDIR},
		{"/d", ORead | OTrunc, EISDIR},
		{"/d", ORead | OCreate, EISDIR},
		{"/d", ORead | ODirectory, 0},
		{"/d", 0, 0},
		{"/l", ORead, 0},
		{"/l", ORead | ONoFollow, ELOOP},
		{"/new/", OWrite | OCreate, EISDIR},
		{"/" + strings.Repeat("n", 256), OWrite | OCreate, ENAMETOOLONG},
	}
	for _, tt := range tests {
		h, err := f.Open(RootIno, tt.path, tt.flags, 0o644)
		if errno(err) != tt.err {
			t.Errorf("Open(%.30q, %b) = %v, want %v", tt.path, tt.flags, err, tt.err)
		}
		if h != nil {
			h.Close()
		}
	}
}

func TestPermissions(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkdir(RootIno, "/d", 0o755))
	write(t, f, "/d/f", "secret")
	must(t, f.Chmod(RootIno, "/d/f", 0o200, true)) // write-only
	_, err := f.Open(RootIno, "/d/f", ORead, 0)
	wantErr(t, err, EACCES)
	_, err = f.ReadFile("/d/f")
	wantErr(t, err, EACCES)
	h, err := f.Open(RootIno, "/d/f", OWrite, 0)
	must(t, err)
	h.Close()
	must(t, f.Chmod(RootIno, "/d/f", 0o444, true))
	_, err = f.Open(RootIno, "/d/f", OWrite, 0)
	wantErr(t, err, EACCES)
	wantErr(t, f.Truncate(RootIno, "/d/f", 0), EACCES)
	// A file created with mode 0444 can still be written through the
	// handle that created it.
	h, err = f.Open(RootIno, "/d/ro", OWrite|OCreate, 0o444)
	must(t, err)
	_, err = h.Write([]byte("ok"))
	must(t, err)
	h.Close()
	// Directory without x: no lookup inside.
	must(t, f.Chmod(RootIno, "/d", 0o644, true))
	_, err = f.Stat(RootIno, "/d/f", true)
	wantErr(t, err, EACCES)
	// Without w: no create or remove inside.
	must(t, f.Chmod(RootIno, "/d", 0o555, true))
	wantErr(t, f.Mkdir(RootIno, "/d/x", 0o755), EACCES)
	wantErr(t, f.Unlink(RootIno, "/d/f"), EACCES)
	wantErr(t, f.Rename(RootIno, "/d/f", RootIno, "/g"), EACCES)
	_, err = f.Open(RootIno, "/d/new", OWrite|OCreate, 0o644)
	wantErr(t, err, EACCES)
	// Without r: no listing.
	must(t, f.Chmod(RootIno, "/d", 0o311, true))
	_, err = f.ReadDir(RootIno, "/d")
	wantErr(t, err, EACCES)
	st, _ := f.Stat(RootIno, "/d", true)
	if st.Mode != 0o311 {
		t.Fatalf("mode = %o", st.Mode)
	}
	must(t, f.Chmod(RootIno, "/d", 0o755|fs.ModeSticky, true))
	if st, _ := f.Stat(RootIno, "/d", true); st.Mode != 0o1755 || st.FileInfo("d").Mode() != fs.ModeDir|fs.ModeSticky|0o755 {
		t.Fatalf("sticky mode = %o / %v", st.Mode, st.FileInfo("d").Mode())
	}
}

func TestReadWriteSeek(t *testing.T) {
	f := newFS(t)
	h, err := f.Open(RootIno, "/f", ORead|OWrite|OCreate, 0o644)
	must(t, err)
	defer h.Close()
	if n, err := h.Write([]byte("hello world")); n != 11 || err != nil {
		t.Fatal(n, err)
	}
	if off, _ := h.Seek(0, io.SeekCurrent); off != 11 {
		t.Fatalf("offset = %d", off)
	}
	if _, err := h.Seek(6, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	n, err := h.Read(buf)
	if n != 5 || err != nil || string(buf[:n]) != "world" {
		t.Fatalf("Read = %d %v %q", n, err, buf[:n])
	}
	n, err = h.Read(buf)
	if n != 0 || err != io.EOF {
		t.Fatalf("Read at EOF = %d %v", n, err)
	}
	n, err = h.ReadAt(buf[:5], 0)
	if n != 5 || err != nil || string(buf[:5]) != "hello" {
		t.Fatalf("ReadAt = %d %v", n, err)
	}
	n, err = h.ReadAt(buf, 8)
	if n != 3 || err != io.EOF {
		t.Fatalf("short ReadAt = %d %v", n, err)
	}
	if _, err := h.Seek(-1, io.SeekStart); errno(err) != EINVAL {
		t.Fatalf("negative seek: %v", err)
	}
	if _, err := h.Seek(0, 7); errno(err) != EINVAL {
		t.Fatalf("bad whence: %v", err)
	}
	if off, _ := h.Seek(-5, io.SeekEnd); off != 6 {
		t.Fatalf("SeekEnd = %d", off)
	}
	// Sparse: write far past EOF.
	if _, err := h.WriteAt([]byte("Z"), 200_000); err != nil {
		t.Fatal(err)
	}
	st, _ := h.Stat()
	if st.Size != 200_001 {
		t.Fatalf("size = %d", st.Size)
	}
	hole := make([]byte, 200_001)
	if _, err := h.ReadAt(hole, 0); err != nil {
		t.Fatal(err)
	}
	if string(hole[:11]) != "hello world" || hole[200_000] != 'Z' || bytes.Count(hole[11:200_000], []byte{0}) != 200_000-11 {
		t.Fatal("sparse contents wrong")
	}
	if b, _ := f.Usage(); b != 200_001 {
		t.Fatalf("sparse size counted as %d", b)
	}
	// Truncate down then up: the old bytes must not come back.
	must(t, h.Truncate(3))
	must(t, h.Truncate(70_000))
	got := make([]byte, 70_000)
	h.ReadAt(got, 0)
	if string(got[:3]) != "hel" || bytes.Count(got[3:], []byte{0}) != len(got)-3 {
		t.Fatal("bytes past truncation came back")
	}
	if _, err := h.WriteAt([]byte("abcd"), 2); err != nil {
		t.Fatal(err)
	}
	h.ReadAt(got[:8], 0)
	if string(got[:8]) != "heabcd\x00\x00" {
		t.Fatalf("after truncate+write: %q", got[:8])
	}
	wantErr(t, h.Truncate(-1), EINVAL)
	wantErr(t, h.Truncate(MaxFileSize+1), EFBIG)
	_, err = h.WriteAt([]byte("x"), -1)
	wantErr(t, err, EINVAL)
	_, err = h.WriteAt([]byte("x"), MaxFileSize)
	wantErr(t, err, EFBIG)
}

func TestAppendAndFlags(t *testing.T) {
	f := newFS(t)
	write(t, f, "/f", "abc")
	h, err := f.Open(RootIno, "/f", OWrite|OAppend, 0)
	must(t, err)
	if h.Flags() != OWrite|OAppend {
		t.Fatalf("flags = %b", h.Flags())
	}
	h.Seek(0, io.SeekStart)
	h.Write([]byte("def"))
	h.SetFlags(ONonblock | ORead) // ORead must not change
	if h.Flags() != OWrite|ONonblock {
		t.Fatalf("flags after SetFlags = %b", h.Flags())
	}
	h.Seek(0, io.SeekStart)
	h.Write([]byte("XY"))
	h.Close()
	if got := read(t, f, "/f"); got != "XYcdef" {
		t.Fatalf("got %q", got)
	}
	_, err = h.Write([]byte("x"))
	wantErr(t, err, EBADF)
	r, _ := f.Open(RootIno, "/f", ORead, 0)
	_, err = r.Write([]byte("x"))
	wantErr(t, err, EBADF)
	wantErr(t, r.Truncate(0), EBADF)
	r.Close()
	w, _ := f.Open(RootIno, "/f", OWrite, 0)
	_, err = w.Read(make([]byte, 1))
	wantErr(t, err, EBADF)
	w.Close()
	// OTrunc empties the file.
	w, _ = f.Open(RootIno, "/f", OWrite|OTrunc, 0)
	w.Close()
	if got := read(t, f, "/f"); got != "" {
		t.Fatalf("after OTrunc: %q", got)
	}
}

func TestTimes(t *testing.T) {
	f := newFS(t)
	write(t, f, "/f", "x")
	st0, _ := f.Stat(RootIno, "/f", true)
	h, _ := f.Open(RootIno, "/f", ORead|OWrite, 0)
	h.Write([]byte("y"))
	st1, _ := h.Stat()
	if !st1.Mtime.After(st0.Mtime) || !st1.Ctime.After(st0.Ctime) {
		t.Fatal("write did not advance mtime/ctime")
	}
	h.Read(make([]byte, 1))
	st2, _ := h.Stat()
	if !st2.Atime.After(st1.Atime) || !st2.Mtime.Equal(st1.Mtime) {
		t.Fatal("read must advance atime only")
	}
	h.Close()
	at := time.Unix(100, 5)
	mt := time.Unix(200, 7)
	must(t, f.SetTimes(RootIno, "/f", true, &at, nil))
	st3, _ := f.Stat(RootIno, "/f", true)
	if !st3.Atime.Equal(at) || !st3.Mtime.Equal(st2.Mtime) || !st3.Ctime.After(st2.Ctime) {
		t.Fatalf("SetTimes(atime): %+v", st3)
	}
	must(t, f.SetTimes(RootIno, "/f", true, nil, &mt))
	st4, _ := f.Stat(RootIno, "/f", true)
	if !st4.Atime.Equal(at) || !st4.Mtime.Equal(mt) {
		t.Fatalf("SetTimes(mtime): %+v", st4)
	}
	if !f.Now().After(st4.Ctime) {
		t.Fatal("Now must use the clock")
	}
}

func TestDevices(t *testing.T) {
	f := New(Options{Random: bytes.NewReader([]byte("0123456789"))})
	must(t, f.Mkdir(RootIno, "/dev", 0o755))
	for name, d := range map[string]Device{"null": DevNull, "zero": DevZero, "urandom": DevRandom, "stdout": DevStdout} {
		must(t, f.Mknod("/dev/"+name, d, 0o666))
	}
	wantErr(t, f.Mknod("/dev/bad", DevNone, 0o666), EINVAL)
	wantErr(t, f.Mknod("/dev/null", DevNull, 0o666), EEXIST)
	open := func(name string) *File {
		h, err := f.Open(RootIno, "/dev/"+name, ORead|OWrite, 0)
		must(t, err)
		t.Cleanup(func() { h.Close() })
		return h
	}
	null := open("null")
	if n, err := null.Read(make([]byte, 4)); n != 0 || err != io.EOF {
		t.Fatalf("null read %d %v", n, err)
	}
	if n, err := null.Write(make([]byte, 4)); n != 4 || err != nil {
		t.Fatalf("null write %d %v", n, err)
	}
	zero := open("zero")
	b := []byte("abcd")
	if n, _ := zero.Read(b); n != 4 || string(b) != "\x00\x00\x00\x00" {
		t.Fatalf("zero read %q", b)
	}
	rnd := open("urandom")
	if n, _ := rnd.Read(b); n != 4 || string(b) != "0123" {
		t.Fatalf("urandom read %q", b)
	}
	if _, err := rnd.WriteAt(b, 0); errno(err) != ESPIPE {
		t.Fatalf("WriteAt on device: %v", err)
	}
	st, _ := f.Stat(RootIno, "/dev/stdout", true)
	if st.Type != TypeCharDevice || st.Device != DevStdout {
		t.Fatalf("stdout stat %+v", st)
	}
	if m := st.FileInfo("stdout").Mode(); m&fs.ModeCharDevice == 0 {
		t.Fatalf("mode %v", m)
	}
	_, err := open("stdout").Read(b)
	wantErr(t, err, ENXIO)
	// The default random source reads zeros.
	g := New(Options{})
	must(t, g.Mknod("/r", DevRandom, 0o444))
	h, _ := g.Open(RootIno, "/r", ORead, 0)
	b = []byte("abcd")
	h.Read(b)
	if string(b) != "\x00\x00\x00\x00" {
		t.Fatalf("default random %q", b)
	}
}

func TestReadDir(t *testing.T) {
	f := newFS(t)
	for _, n := range []string{"c", "a", "b"} {
		write(t, f, "/"+n, "")
	}
	must(t, f.Mkdir(RootIno, "/z", 0o755))
	list, err := f.ReadDir(RootIno, "/")
	must(t, err)
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "a,b,c,z" || list[3].Type != TypeDir || list[0].Type != TypeRegular {
		t.Fatalf("ReadDir = %+v", list)
	}
	_, err = f.ReadDir(RootIno, "/a")
	wantErr(t, err, ENOTDIR)
	h, err := f.Open(RootIno, "/z", ORead|ODirectory, 0)
	must(t, err)
	defer h.Close()
	if _, err := h.Read(make([]byte, 1)); errno(err) != EISDIR {
		t.Fatalf("Read on dir: %v", err)
	}
	must(t, f.Rmdir(RootIno, "/z"))
	list, err = h.ReadDir()
	if err != nil || len(list) != 0 {
		t.Fatalf("ReadDir of removed dir = %v %v", list, err)
	}
	// A removed directory accepts no new entries.
	zIno := h.Ino()
	wantErr(t, f.Mkdir(zIno, "x", 0o755), ENOENT)
	_, err = f.Lookup(zIno, "..", true)
	wantErr(t, err, ENOENT)
}

func TestTruncatePath(t *testing.T) {
	f := newFS(t)
	write(t, f, "/f", "hello")
	must(t, f.Truncate(RootIno, "/f", 2))
	if read(t, f, "/f") != "he" {
		t.Fatal("truncate")
	}
	must(t, f.Mkdir(RootIno, "/d", 0o755))
	wantErr(t, f.Truncate(RootIno, "/d", 0), EISDIR)
	must(t, f.Mkfifo(RootIno, "/p", 0o644))
	wantErr(t, f.Truncate(RootIno, "/p", 0), EINVAL)
	wantErr(t, f.Truncate(RootIno, "/nope", 0), ENOENT)
}
