package vfs

import (
	"bytes"
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
