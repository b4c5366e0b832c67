package vfs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"time"
)

func openFIFO(t *testing.T, f *FS, flags OpenFlag) *File {
	t.Helper()
	h, err := f.Open(RootIno, "/p", flags, 0)
	must(t, err)
	t.Cleanup(func() { h.Close() })
	return h
}

func TestFIFOBasic(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkfifo(RootIno, "/p", 0o644))
	wantErr(t, f.Mkfifo(RootIno, "/p", 0o644), EEXIST)
	st, _ := f.Stat(RootIno, "/p", true)
	if st.Type != TypeFIFO || st.FileInfo("p").Mode()&0o777 != 0o644 {
		t.Fatalf("stat %+v", st)
	}
	r := openFIFO(t, f, ORead)
	// No writer has opened yet: a non-blocking read has nothing, not EOF.
	r.SetFlags(ONonblock)
	_, err := r.Read(make([]byte, 4))
	wantErr(t, err, EAGAIN)
	r.SetFlags(0)
	w := openFIFO(t, f, OWrite)
	if n, err := w.Write([]byte("hello")); n != 5 || err != nil {
		t.Fatal(n, err)
	}
	buf := make([]byte, 3)
	if n, _ := r.Read(buf); string(buf[:n]) != "hel" {
		t.Fatalf("read %q", buf[:n])
	}
	if n, _ := r.Read(buf); string(buf[:n]) != "lo" {
		t.Fatalf("read %q", buf[:n])
	}
	_, err = w.WriteAt([]byte("x"), 0)
	wantErr(t, err, ESPIPE)
	_, err = r.ReadAt(buf, 0)
	wantErr(t, err, ESPIPE)
	_, err = r.Seek(0, io.SeekStart)
	wantErr(t, err, ESPIPE)
	// Reader blocks until data arrives.
	go func() {
		time.Sleep(10 * time.Millisecond)
		w.Write([]byte("late"))
	}()
	if n, err := r.Read(make([]byte, 10)); n != 4 || err != nil {
		t.Fatalf("blocking read %d %v", n, err)
	}
	// ctx ends a blocked read.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err = r.ReadContext(ctx, buf)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ReadContext = %v", err)
	}
	// All writers closed: EOF once the buffer is drained.
	w.Write([]byte("end"))
	w.Close()
	if n, _ := r.Read(make([]byte, 10)); n != 3 {
		t.Fatalf("drain read %d", n)
	}
	if _, err := r.Read(buf); err != io.EOF {
		t.Fatalf("read after writers closed = %v", err)
	}
}

func TestFIFOBlockingRead(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkfifo(RootIno, "/p", 0o644))
	r := openFIFO(t, f, ORead)
	done := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 1))
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("read returned before any writer: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	// The FS lock is free while the reader blocks.
	write(t, f, "/other", "x")
	w := openFIFO(t, f, OWrite)
	w.Close()
	if err := <-done; err != io.EOF {
		t.Fatalf("read after writer opened and closed = %v", err)
	}
}

func TestFIFOFullAndEPIPE(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkfifo(RootIno, "/p", 0o644))
	w := openFIFO(t, f, OWrite|ONonblock)
	// Before any reader, writes fill the buffer.
	n, err := w.Write(make([]byte, PipeBuf+10))
	if n != PipeBuf {
		t.Fatalf("non-blocking write n = %d", n)
	}
	wantErr(t, err, EAGAIN)
	_, err = w.Write([]byte("x"))
	wantErr(t, err, EAGAIN)
	w.SetFlags(0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	n, err = w.WriteContext(ctx, []byte("x"))
	if n != 0 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("blocked write = %d %v", n, err)
	}
	r := openFIFO(t, f, ORead)
	// A blocked writer resumes as the reader drains.
	done := make(chan error, 1)
	go func() {
		_, err := w.Write(make([]byte, 1000))
		done <- err
	}()
	got, _ := io.ReadFull(r, make([]byte, PipeBuf+1000))
	if got != PipeBuf+1000 {
		t.Fatalf("read %d", got)
	}
	must(t, <-done)
	r.Close()
	_, err = w.Write([]byte("x"))
	wantErr(t, err, EPIPE)
}

func TestFIFOStream(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkfifo(RootIno, "/p", 0o644))
	r := openFIFO(t, f, ORead)
	w := openFIFO(t, f, OWrite)
	data := make([]byte, 5<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	go func() {
		rest := data
		for len(rest) > 0 {
			k := min(len(rest), 1+rng.IntN(100_000))
			if _, err := w.Write(rest[:k]); err != nil {
				panic(err)
			}
			rest = rest[k:]
		}
		w.Close()
	}()
	got, err := io.ReadAll(r)
	must(t, err)
	if !bytes.Equal(got, data) {
		t.Fatalf("stream corrupted: %x vs %x", sha256.Sum256(got), sha256.Sum256(data))
	}
}

func TestFIFOReopen(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkfifo(RootIno, "/p", 0o644))
	r, _ := f.Open(RootIno, "/p", ORead, 0)
	w, _ := f.Open(RootIno, "/p", OWrite, 0)
	w.Write([]byte("old"))
	w.Close()
	r.Close()
	// Once every end has closed, the pipe starts afresh.
	r = openFIFO(t, f, ORead|ONonblock)
	_, err := r.Read(make([]byte, 4))
	wantErr(t, err, EAGAIN)
}

// TestFIFOWriterBeforeReader: opening a FIFO does not wait for the other
// end, so a writer may write, close and be gone before the reader opens
// (`cmd > fifo & cat < fifo`). The reader still gets what was written,
// then end-of-file, as it would where the writer's open had waited.
func TestFIFOWriterBeforeReader(t *testing.T) {
	f := newFS(t)
	must(t, f.Mkfifo(RootIno, "/p", 0o644))
	w, err := f.Open(RootIno, "/p", OWrite, 0)
	must(t, err)
	if n, err := w.Write([]byte("3\n2\n1\n")); n != 6 || err != nil {
		t.Fatal(n, err)
	}
	must(t, w.Close())
	r := openFIFO(t, f, ORead)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	buf := make([]byte, 16)
	n, err := r.ReadContext(ctx, buf)
	if string(buf[:n]) != "3\n2\n1\n" || err != nil {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	if n, err := r.ReadContext(ctx, buf); n != 0 || err != io.EOF {
		t.Fatalf("read after the data = %d, %v; want EOF", n, err)
	}
	// A writer that wrote nothing leaves end-of-file for the reader.
	must(t, r.Close())
	w, err = f.Open(RootIno, "/p", OWrite, 0)
	must(t, err)
	must(t, w.Close())
	r = openFIFO(t, f, ORead)
	if n, err := r.ReadContext(ctx, make([]byte, 4)); n != 0 || err != io.EOF {
		t.Fatalf("read after an empty writer = %d, %v; want EOF", n, err)
	}
}

// TestFIFORingGrows interleaves non-blocking writes and smaller reads on
// new pipes, so that each ring grows while what it holds wraps around its
// end: the bytes must come out in order, and a writer must always see
// PipeBuf of room.
func TestFIFORingGrows(t *testing.T) {
	f := newFS(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 30 {
		r, w := f.Pipe()
		r.SetFlags(ONonblock)
		w.SetFlags(ONonblock)
		var want, got []byte
		next := byte(0)
		for step := range 300 {
			k := rng.IntN(1 + 40*round)
			b := make([]byte, k)
			for i := range b {
				b[i] = next
				next++
			}
			held := len(want) - len(got)
			n, err := w.Write(b)
			if wantN := min(k, PipeBuf-held); n != wantN {
				t.Fatalf("round %d step %d: write of %d with %d held wrote %d, want %d (%v)", round, step, k, held, n, wantN, err)
			}
			if n < k {
				wantErr(t, err, EAGAIN)
				next -= byte(k - n)
			}
			want = append(want, b[:n]...)
			buf := make([]byte, rng.IntN(1+30*round)+1)
			m, err := r.Read(buf)
			if err != nil && !errors.Is(err, EAGAIN) {
				t.Fatal(err)
			}
			got = append(got, buf[:m]...)
			if !bytes.Equal(got, want[:len(got)]) {
				t.Fatalf("round %d step %d: bytes out of order", round, step)
			}
		}
		w.Close()
		r.SetFlags(0)
		rest, err := io.ReadAll(r)
		must(t, err)
		r.Close()
		if got = append(got, rest...); !bytes.Equal(got, want) {
			t.Fatalf("round %d: read %d bytes, wrote %d", round, len(got), len(want))
		}
	}
}
