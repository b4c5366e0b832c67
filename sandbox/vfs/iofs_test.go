package vfs

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestIOFS(t *testing.T) {
	f := newFS(t)
	must(t, f.MkdirAll("/a/b/c", 0o755))
	must(t, f.MkdirAll("/empty", 0o755))
	write(t, f, "/top.txt", "top")
	write(t, f, "/a/one", "1")
	write(t, f, "/a/b/two", "22")
	write(t, f, "/a/b/c/three", string(make([]byte, 100_000)))
	must(t, f.Symlink("b/two", RootIno, "/a/link"))
	must(t, f.Symlink("/a/b", RootIno, "/dirlink"))
	if err := fstest.TestFS(f.IOFS(), "top.txt", "a/one", "a/b/two", "a/b/c/three", "a/link", "empty"); err != nil {
		t.Fatal(err)
	}
	b, err := fs.ReadFile(f.IOFS(), "a/link")
	if err != nil || string(b) != "22" {
		t.Fatalf("ReadFile through symlink = %q %v", b, err)
	}
	if _, err := fs.Stat(f.IOFS(), "/abs"); err == nil {
		t.Fatal("invalid path accepted")
	}
	if _, err := fs.Stat(f.IOFS(), "missing"); !errorsIsNotExist(err) {
		t.Fatalf("Stat(missing) = %v", err)
	}
}

func errorsIsNotExist(err error) bool {
	pe, ok := err.(*fs.PathError)
	return ok && pe.Path == "missing" && errnoIs(pe.Err, fs.ErrNotExist)
}

func errnoIs(err, target error) bool {
	e, ok := err.(Errno)
	return ok && e.Is(target)
}
