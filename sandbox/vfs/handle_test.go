package vfs

import (
	"io/fs"
	"testing"
	"time"
)

func TestHandleMetadata(t *testing.T) {
	f := newFS(t)
	write(t, f, "/f", "abc")
	must(t, f.Mkdir(RootIno, "/d", 0o755))
	h, err := f.Open(RootIno, "/f", 0, 0) // neither read nor write
	must(t, err)
	must(t, h.Chmod(0o600))
	mt := time.Unix(42, 0)
	must(t, h.SetTimes(nil, &mt))
	must(t, h.Sync())
	st, _ := f.Stat(RootIno, "/f", true)
	if st.Mode != 0o600 || !st.Mtime.Equal(mt) {
		t.Fatalf("stat after handle chmod/utimes: %+v", st)
	}
	_, err = h.Read(make([]byte, 1))
	wantErr(t, err, EBADF)
	_, err = h.ReadDir()
	wantErr(t, err, ENOTDIR)
	h.Close()
	wantErr(t, h.Chmod(0o644), EBADF)
	wantErr(t, h.SetTimes(nil, nil), EBADF)
	wantErr(t, h.Sync(), EBADF)
	_, err = h.Stat()
	wantErr(t, err, EBADF)
	_, err = h.Seek(0, 0)
	wantErr(t, err, EBADF)

	// OpenIno checks like Open.
	dIno, _ := f.Lookup(RootIno, "/d", true)
	_, err = f.OpenIno(dIno, OWrite)
	wantErr(t, err, EISDIR)
	_, err = f.OpenIno(9999, ORead)
	wantErr(t, err, ENOENT)
	fIno, _ := f.Lookup(RootIno, "/f", true)
	must(t, f.Chmod(RootIno, "/f", 0o200, true))
	_, err = f.OpenIno(fIno, ORead)
	wantErr(t, err, EACCES)
	w, err := f.OpenIno(fIno, OWrite|OTrunc)
	must(t, err)
	w.Close()
	if st, _ := f.StatIno(fIno); st.Size != 0 {
		t.Fatalf("OpenIno OTrunc left size %d", st.Size)
	}
	must(t, f.Symlink("/f", RootIno, "/l"))
	lIno, _ := f.Lookup(RootIno, "/l", false)
	_, err = f.OpenIno(lIno, ORead)
	wantErr(t, err, ELOOP)
}

func TestIOFSLinks(t *testing.T) {
	f := newFS(t)
	write(t, f, "/f", "abc")
	must(t, f.Symlink("f", RootIno, "/l"))
	v := f.IOFS().(fs.ReadLinkFS)
	target, err := v.ReadLink("l")
	if err != nil || target != "f" {
		t.Fatalf("ReadLink = %q %v", target, err)
	}
	fi, err := v.Lstat("l")
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 || fi.Name() != "l" {
		t.Fatalf("Lstat = %v %v", fi, err)
	}
	if _, ok := fi.Sys().(Stat); !ok {
		t.Fatal("Sys must be a Stat")
	}
	if _, err := v.ReadLink("f"); err == nil {
		t.Fatal("ReadLink of a file")
	}
	h, _ := v.Open(".")
	if _, err := h.Read(make([]byte, 1)); err == nil {
		t.Fatal("Read of a directory")
	}
	h.Close()
	if TypeFIFO.String() != "fifo" || FileType(99).String() != "unknown" {
		t.Fatal("FileType.String")
	}
}
