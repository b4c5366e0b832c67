package vfs

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/internal/wire"
)

// snapshotTree builds a tree with every kind of inode.
func snapshotTree(t testing.TB) *FS {
	f := newFS(t)
	must(t, f.MkdirAll("/a/b/c", 0o750))
	must(t, f.MkdirAll("/bin", 0o755))
	big := bytes.Repeat([]byte("0123456789abcdef"), 300_000/16)
	must(t, f.WriteFile("/a/big", big, 0o600))
	write(t, f, "/a/b/small", "small")
	write(t, f, "/bin/ls", "#!tool ls\n")
	must(t, f.Link(RootIno, "/a/b/small", RootIno, "/hard"))
	must(t, f.Symlink("../a/b", RootIno, "/a/link"))
	must(t, f.Mkfifo(RootIno, "/a/fifo", 0o640))
	must(t, f.Mknod("/null", DevNull, 0o666))
	must(t, f.Chmod(RootIno, "/a/b", 0o1777, false))
	// A sparse file: a hole, then data in its third chunk.
	h, err := f.Open(RootIno, "/sparse", OWrite|OCreate, 0o644)
	must(t, err)
	h.WriteAt([]byte("tail"), 2*chunkSize+10)
	h.Close()
	old := time.Date(2001, 2, 3, 4, 5, 6, 7, time.UTC)
	must(t, f.SetTimes(RootIno, "/a/big", false, &old, &old))
	write(t, f, "/gone", "x")
	must(t, f.Unlink(RootIno, "/gone"))
	return f
}

func abbrevTool(p []byte) (string, bool) {
	return strings.CutPrefix(string(p), "#!tool ")
}

func expandTool(k string) ([]byte, bool) { return []byte("#!tool " + k), true }

func TestSnapshotRoundTrip(t *testing.T) {
	f := snapshotTree(t)
	b := f.AppendSnapshot(nil, &SnapshotOptions{Abbrev: abbrevTool})
	g, err := DecodeSnapshot(b, Options{}, expandTool)
	must(t, err)
	checkInvariants(t, g)
	if b2 := g.AppendSnapshot(nil, &SnapshotOptions{Abbrev: abbrevTool}); !bytes.Equal(b, b2) {
		t.Fatalf("re-encoding differs: %d vs %d bytes", len(b), len(b2))
	}
	fb, fi := f.Usage()
	gb, gi := g.Usage()
	if fb != gb || fi != gi {
		t.Errorf("Usage %d/%d, want %d/%d", gb, gi, fb, fi)
	}
	for _, p := range []string{"/", "/a", "/a/b", "/a/b/c", "/a/big", "/hard", "/a/link", "/a/fifo", "/null", "/sparse"} {
		want, err := f.Stat(RootIno, p, false)
		must(t, err)
		got, err := g.Stat(RootIno, p, false)
		must(t, err)
		if !want.Atime.Equal(got.Atime) || !want.Mtime.Equal(got.Mtime) || !want.Ctime.Equal(got.Ctime) {
			t.Errorf("%s: times %v, want %v", p, got, want)
		}
		want.Atime, want.Mtime, want.Ctime = time.Time{}, time.Time{}, time.Time{}
		got.Atime, got.Mtime, got.Ctime = time.Time{}, time.Time{}, time.Time{}
		if got != want {
			t.Errorf("%s: %+v, want %+v", p, got, want)
		}
	}
	for _, p := range []string{"/a/big", "/a/b/small", "/hard", "/sparse", "/bin/ls"} {
		want, err := f.ReadFile(p)
		must(t, err)
		got, err := g.ReadFile(p)
		must(t, err)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: contents differ", p)
		}
	}
	if l, err := g.Readlink(RootIno, "/a/link"); err != nil || l != "../a/b" {
		t.Errorf("Readlink = %q, %v", l, err)
	}
	// The decoded tree works: new inodes get fresh numbers, writes go on.
	write(t, g, "/a/b/c/new", "new")
	st, err := g.Stat(RootIno, "/a/b/c/new", false)
	must(t, err)
	if fst, _ := f.Stat(RootIno, "/hard", false); st.Ino <= fst.Ino {
		t.Errorf("new inode %d reuses an old number", st.Ino)
	}
	must(t, g.Unlink(RootIno, "/a/b/c/new"))
	must(t, g.Rmdir(RootIno, "/a/b/c"))
	checkInvariants(t, g)
}

func TestSnapshotDeterministic(t *testing.T) {
	a := snapshotTree(t).AppendSnapshot(nil, nil)
	b := snapshotTree(t).AppendSnapshot(nil, nil)
	if !bytes.Equal(a, b) {
		t.Fatal("the same tree gave different bytes")
	}
	// A file written as zeros and a sparse file of the same size encode
	// the same.
	f, g := newFS(t), newFS(t)
	write(t, f, "/z", string(make([]byte, 100_000)))
	h, err := g.Open(RootIno, "/z", OWrite|OCreate, 0o644)
	must(t, err)
	must(t, h.Truncate(100_000))
	h.Close()
	if !bytes.Equal(f.AppendSnapshot(nil, nil), g.AppendSnapshot(nil, nil)) {
		t.Error("zeros and a hole encode differently")
	}
}

func TestSnapshotCorrupt(t *testing.T) {
	b := snapshotTree(t).AppendSnapshot(nil, &SnapshotOptions{Abbrev: abbrevTool})
	for n := 0; n < len(b); n += 1 + n/50 {
		_, err := DecodeSnapshot(b[:n], Options{}, expandTool)
		var we *wire.Error
		if !errors.As(err, &we) {
			t.Fatalf("prefix of %d bytes: %v, want a *wire.Error", n, err)
		}
	}
	if _, err := DecodeSnapshot(b, Options{}, nil); err == nil {
		t.Error("an abbreviation with no expand decoded")
	}
	// Flip each byte of a small tree: never a panic, never an invalid tree.
	f := newFS(t)
	must(t, f.MkdirAll("/d/e", 0o755))
	write(t, f, "/d/x", "xy")
	must(t, f.Link(RootIno, "/d/x", RootIno, "/d/e/y"))
	small := f.AppendSnapshot(nil, nil)
	for i := range small {
		for _, v := range []byte{0, 1, 2, 0x7f, 0xff, small[i] + 1} {
			c := bytes.Clone(small)
			c[i] = v
			if g, err := DecodeSnapshot(c, Options{}, nil); err == nil {
				checkInvariants(t, g)
			}
		}
	}
}

func FuzzDecodeSnapshot(f *testing.F) {
	f.Add(snapshotTree(f).AppendSnapshot(nil, &SnapshotOptions{Abbrev: abbrevTool}))
	f.Add(New(Options{}).AppendSnapshot(nil, nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := DecodeSnapshot(b, Options{}, expandTool)
		if err != nil {
			return
		}
		checkInvariants(t, g)
		// What decodes re-encodes to the same bytes.
		if b2 := g.AppendSnapshot(nil, &SnapshotOptions{Abbrev: abbrevTool}); !bytes.Equal(b, b2) {
			g2, err := DecodeSnapshot(b2, Options{}, expandTool)
			if err != nil {
				t.Fatalf("re-encoding does not decode: %v", err)
			}
			if b3 := g2.AppendSnapshot(nil, &SnapshotOptions{Abbrev: abbrevTool}); !bytes.Equal(b2, b3) {
				t.Fatal("encoding is not stable")
			}
		}
	})
}

func TestSnapshotOmitShared(t *testing.T) {
	f := newFS(t)
	must(t, f.MkdirAll("/lib", 0o755))
	shared := []byte("library bytes that a tool placed")
	must(t, f.WriteFileShared("/lib/a.py", shared, 0o644))
	must(t, f.WriteFileShared("/lib/b.py", shared, 0o644))
	must(t, f.WriteFileShared("/lib/linked.py", shared, 0o644))
	must(t, f.Link(RootIno, "/lib/linked.py", RootIno, "/lib/other-name.py"))
	h, err := f.Open(RootIno, "/lib/b.py", OWrite|OAppend, 0)
	must(t, err)
	h.Write([]byte(" changed"))
	h.Close()
	g, err := DecodeSnapshot(f.AppendSnapshot(nil, &SnapshotOptions{OmitShared: true}), Options{}, nil)
	must(t, err)
	checkInvariants(t, g)
	if _, err := g.Stat(RootIno, "/lib/a.py", false); err == nil {
		t.Error("an untouched shared file was written")
	}
	for _, p := range []string{"/lib/b.py", "/lib/linked.py", "/lib/other-name.py"} {
		want, _ := f.ReadFile(p)
		if got, err := g.ReadFile(p); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %q, %v; want %q", p, got, err, want)
		}
	}
	// Without the option every file is there.
	g, err = DecodeSnapshot(f.AppendSnapshot(nil, nil), Options{}, nil)
	must(t, err)
	if got, err := g.ReadFile("/lib/a.py"); err != nil || !bytes.Equal(got, shared) {
		t.Errorf("a.py without OmitShared: %q, %v", got, err)
	}
}
