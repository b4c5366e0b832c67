package vfs

import (
	"bytes"
	"io"
	"testing"
)

func TestWriteFileShared(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), chunkSize/16*2+3) // two chunks and a bit
	orig := bytes.Clone(data)
	a := New(Options{})
	b := New(Options{})
	for _, f := range []*FS{a, b} {
		if err := f.WriteFileShared("/lib.txt", data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := f.ReadFile("/lib.txt")
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read back: %v, equal %v", err, bytes.Equal(got, data))
		}
	}
	if used, _ := a.Usage(); used != int64(len(data)) {
		t.Errorf("usage %d, want %d", used, len(data))
	}
	// Writing in one FS copies the chunk: the shared bytes stay as they were.
	h, err := a.Open(RootIno, "/lib.txt", OWrite, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.WriteAt([]byte("XYZ"), chunkSize+1); err != nil {
		t.Fatal(err)
	}
	if _, err := h.WriteAt([]byte("tail"), int64(len(data))); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if !bytes.Equal(data, orig) {
		t.Fatal("a write changed the shared data")
	}
	got, _ := b.ReadFile("/lib.txt")
	if !bytes.Equal(got, orig) {
		t.Fatal("a write in one FS shows in the other")
	}
	got, _ = a.ReadFile("/lib.txt")
	if string(got[chunkSize+1:chunkSize+4]) != "XYZ" || !bytes.HasSuffix(got, []byte("tail")) {
		t.Fatal("the write is missing")
	}
	if err := a.Unlink(RootIno, "/lib.txt"); err != nil {
		t.Fatal(err)
	}
	if used, _ := a.Usage(); used != 0 {
		t.Errorf("usage after unlink %d", used)
	}
	small := New(Options{MaxBytes: 10})
	if err := small.WriteFileShared("/x", data, 0o644); err == nil {
		t.Error("no ENOSPC past the byte limit")
	}
}

// countingReader is an io.ReaderAt over b that counts the bytes read.
type countingReader struct {
	b    []byte
	read int
}

func (r *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n := copy(p, r.b[off:])
	r.read += n
	return n, nil
}

// TestWriteSharedFile: the bytes are read only once some FS needs them,
// once for all, and behave as WriteFileShared's after that.
func TestWriteSharedFile(t *testing.T) {
	lib := bytes.Repeat([]byte("0123456789abcdef"), chunkSize/16*2+3) // two chunks and a bit
	payload := append(append([]byte("header"), lib...), "trailer"...)
	r := &countingReader{b: payload}
	libFile, unread := NewSharedFile(r, 6, int64(len(lib))), NewSharedFile(r, 0, 6)
	a := New(Options{})
	b := New(Options{})
	for _, f := range []*FS{a, b} {
		if err := f.WriteSharedFile("/lib.txt", libFile, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := f.WriteSharedFile("/unread.txt", unread, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if used, _ := a.Usage(); used != int64(len(lib))+6 {
		t.Errorf("usage %d, want %d", used, len(lib)+6)
	}
	if st, err := a.Stat(RootIno, "/lib.txt", false); err != nil || st.Size != int64(len(lib)) {
		t.Fatalf("stat: %+v, %v", st, err)
	}
	// A snapshot without the shared files reads none of them.
	snap := a.AppendSnapshot(nil, &SnapshotOptions{OmitShared: true})
	if r.read != 0 {
		t.Fatalf("%d bytes read before any FS read the files", r.read)
	}
	if g, err := DecodeSnapshot(snap, Options{}, nil); err != nil {
		t.Fatal(err)
	} else if _, err := g.Stat(RootIno, "/lib.txt", false); err == nil {
		t.Error("OmitShared kept a shared file")
	}
	c := a.Clone()
	for _, f := range []*FS{a, b, c} {
		got, err := f.ReadFile("/lib.txt")
		if err != nil || !bytes.Equal(got, lib) {
			t.Fatalf("read back: %v, equal %v", err, bytes.Equal(got, lib))
		}
	}
	if r.read != len(lib) {
		t.Errorf("%d bytes read for three FS reading lib.txt, want %d (once)", r.read, len(lib))
	}
	// A write copies the chunk it touches; a truncate keeps what is below.
	h, err := a.Open(RootIno, "/lib.txt", OWrite, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.WriteAt([]byte("XYZ"), chunkSize+1); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if err := a.Truncate(RootIno, "/lib.txt", chunkSize+10); err != nil {
		t.Fatal(err)
	}
	got, _ := a.ReadFile("/lib.txt")
	want := append(bytes.Clone(lib[:chunkSize+1]), "XYZ"...)
	want = append(want, lib[chunkSize+4:chunkSize+10]...)
	if !bytes.Equal(got, want) {
		t.Fatal("after a write and a truncate the file reads wrong")
	}
	if got, _ := b.ReadFile("/lib.txt"); !bytes.Equal(got, lib) {
		t.Fatal("a write in one FS shows in another")
	}
	if err := b.Truncate(RootIno, "/lib.txt", 5); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.ReadFile("/lib.txt"); string(got) != "01234" {
		t.Fatalf("truncated shared file reads %q", got)
	}
	// A full snapshot holds the bytes.
	g, err := DecodeSnapshot(c.AppendSnapshot(nil, nil), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := g.ReadFile("/unread.txt"); err != nil || string(got) != "header" {
		t.Errorf("unread.txt from a snapshot: %q, %v", got, err)
	}
	small := New(Options{MaxBytes: 10})
	if err := small.WriteSharedFile("/x", NewSharedFile(r, 0, int64(len(payload))), 0o644); err == nil {
		t.Error("no ENOSPC past the byte limit")
	}
}

// shortReader gives only the first n bytes of what is asked.
type shortReader struct{ n int }

func (r shortReader) ReadAt(p []byte, off int64) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return min(r.n, len(p)), io.ErrUnexpectedEOF
}

// TestWriteSharedFileShortRead: bytes a failed read did not give read
// as zeros.
func TestWriteSharedFileShortRead(t *testing.T) {
	f := New(Options{})
	if err := f.WriteSharedFile("/f", NewSharedFile(shortReader{3}, 0, 6), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := f.ReadFile("/f"); err != nil || string(got) != "xxx\x00\x00\x00" {
		t.Errorf("read %q, %v", got, err)
	}
}
