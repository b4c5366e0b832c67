package vfs

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"time"
)

func TestCloneIsolation(t *testing.T) {
	f := newFS(t)
	must(t, f.MkdirAll("/d/e", 0o755))
	big := bytes.Repeat([]byte("0123456789abcdef"), 300_000/16) // several chunks
	must(t, f.WriteFile("/big", big, 0o644))
	write(t, f, "/d/small", "small")
	must(t, f.Link(RootIno, "/d/small", RootIno, "/hard"))
	must(t, f.Symlink("/d", RootIno, "/ld"))
	h, err := f.Open(RootIno, "/big", ORead|OWrite, 0)
	must(t, err)
	defer h.Close()

	c := f.Clone()
	checkInvariants(t, f)
	checkInvariants(t, c)
	fb, fi := f.Usage()
	cb, ci := c.Usage()
	if fb != cb || fi != ci {
		t.Fatalf("Usage differs after clone: %d/%d vs %d/%d", fb, fi, cb, ci)
	}

	// Writes in the clone.
	ch, err := c.Open(RootIno, "/big", OWrite, 0)
	must(t, err)
	ch.WriteAt([]byte("CLONE"), 70_000) // inside the second chunk
	ch.Close()
	cs, _ := c.Open(RootIno, "/hard", OWrite|OAppend, 0)
	cs.Write([]byte("+c"))
	cs.Close()
	must(t, c.Truncate(RootIno, "/d/small", 2)) // through the other link
	must(t, c.Mkdir(RootIno, "/d/e/new", 0o755))
	must(t, c.Rename(RootIno, "/d/e", RootIno, "/moved"))
	must(t, c.Chmod(RootIno, "/big", 0o600, true))
	must(t, c.Unlink(RootIno, "/ld"))

	// Writes in the original, including through a handle opened before.
	h.WriteAt([]byte("ORIG"), 70_000)
	h.WriteAt([]byte("tail"), int64(len(big)))
	write(t, f, "/d/only-in-f", "f")

	gotF, _ := f.ReadFile("/big")
	gotC, _ := c.ReadFile("/big")
	wantF := append(append([]byte{}, big...), "tail"...)
	copy(wantF[70_000:], "ORIG")
	wantC := append([]byte{}, big...)
	copy(wantC[70_000:], "CLONE")
	if !bytes.Equal(gotF, wantF) || !bytes.Equal(gotC, wantC) {
		t.Fatal("big file content leaked between copies")
	}
	if s := read(t, f, "/hard"); s != "small" {
		t.Fatalf("original /hard = %q", s)
	}
	if s := read(t, c, "/hard"); s != "sm" {
		t.Fatalf("clone /hard = %q", s)
	}
	if _, err := f.Stat(RootIno, "/d/e", true); err != nil {
		t.Fatal("rename in clone moved the original")
	}
	if _, err := c.Stat(RootIno, "/moved/new", true); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Stat(RootIno, "/d/only-in-f", true); err == nil {
		t.Fatal("file created in original visible in clone")
	}
	if st, _ := f.Stat(RootIno, "/big", true); st.Mode != 0o644 {
		t.Fatal("chmod in clone changed the original")
	}
	if _, err := f.Readlink(RootIno, "/ld"); err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, f)
	checkInvariants(t, c)

	// A clone of a clone is isolated from both.
	cc := c.Clone()
	write(t, cc, "/hard", "cc")
	if read(t, c, "/hard") != "sm" || read(t, f, "/hard") != "small" {
		t.Fatal("second-generation clone leaked")
	}
}

func TestCloneSkipsOrphans(t *testing.T) {
	f := newFS(t)
	write(t, f, "/f", "data")
	h, _ := f.Open(RootIno, "/f", ORead, 0)
	defer h.Close()
	must(t, f.Unlink(RootIno, "/f"))
	c := f.Clone()
	if b, n := c.Usage(); b != 0 || n != 1 {
		t.Fatalf("clone Usage = %d, %d", b, n)
	}
	_, err := c.StatIno(h.Ino())
	wantErr(t, err, ENOENT)
	checkInvariants(t, c)
	// New inode numbers in the clone do not collide with the orphan's.
	write(t, c, "/g", "")
	if ino, _ := c.Lookup(RootIno, "/g", true); ino == h.Ino() {
		t.Fatal("inode number reused")
	}
}

func TestCloneSharesData(t *testing.T) {
	const size = 64 << 20
	f := New(Options{})
	h, err := f.Open(RootIno, "/big", OWrite|OCreate, 0o644)
	must(t, err)
	chunk := bytes.Repeat([]byte{'x'}, 1<<20)
	for range size / len(chunk) {
		h.Write(chunk)
	}
	h.Close()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	c := f.Clone()
	runtime.ReadMemStats(&m1)
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 1<<20 {
		t.Fatalf("Clone of a 64 MiB file allocated %d bytes", alloc)
	}
	// One write copies one chunk, not the file.
	ch, _ := c.Open(RootIno, "/big", OWrite, 0)
	runtime.ReadMemStats(&m0)
	ch.WriteAt([]byte("y"), size/2)
	runtime.ReadMemStats(&m1)
	ch.Close()
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 2*chunkSize {
		t.Fatalf("one-byte write after Clone allocated %d bytes", alloc)
	}
	if b, _ := f.ReadFile("/big"); b[size/2] != 'x' {
		t.Fatal("write leaked into original")
	}
}

func TestCloneTime10k(t *testing.T) {
	f := buildTree(t, 10_000)
	start := time.Now()
	c := f.Clone()
	d := time.Since(start)
	t.Logf("Clone of %d inodes: %v", len(c.inodes), d)
	checkInvariants(t, c)
	if d > 2*time.Second {
		t.Fatalf("Clone of 10k files took %v", d)
	}
}

// buildTree makes n small files spread over 100 directories.
func buildTree(t testing.TB, n int) *FS {
	f := New(Options{})
	for i := range n {
		dir := fmt.Sprintf("/d%02d", i%100)
		if i < 100 {
			must(t, f.Mkdir(RootIno, dir, 0o755))
		}
		must(t, f.WriteFile(fmt.Sprintf("%s/f%d", dir, i), []byte("some file content"), 0o644))
	}
	return f
}

func BenchmarkClone10k(b *testing.B) {
	f := buildTree(b, 10_000)
	b.ResetTimer()
	for range b.N {
		f.Clone()
	}
}
