package vfs

import (
	"io"
	"testing"
)

const benchSize = 64 << 20

// BenchmarkWrite writes 64 MiB sequentially in 32 KiB chunks.
func BenchmarkWrite(b *testing.B) {
	buf := make([]byte, 32<<10)
	b.SetBytes(benchSize)
	for range b.N {
		f := New(Options{})
		h, err := f.Open(RootIno, "/f", OWrite|OCreate, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		for range benchSize / len(buf) {
			if _, err := h.Write(buf); err != nil {
				b.Fatal(err)
			}
		}
		h.Close()
	}
}

// BenchmarkRead reads a 64 MiB file sequentially in 32 KiB chunks.
func BenchmarkRead(b *testing.B) {
	f := New(Options{})
	must(b, f.WriteFile("/f", make([]byte, benchSize), 0o644))
	buf := make([]byte, 32<<10)
	b.SetBytes(benchSize)
	b.ResetTimer()
	for range b.N {
		h, err := f.Open(RootIno, "/f", ORead, 0)
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := h.Read(buf)
			if err == io.EOF {
				break
			}
		}
		h.Close()
	}
}

// BenchmarkSmallAppend appends 100-byte records to one file.
func BenchmarkSmallAppend(b *testing.B) {
	f := New(Options{})
	h, _ := f.Open(RootIno, "/f", OWrite|OCreate|OAppend, 0o644)
	rec := make([]byte, 100)
	b.SetBytes(int64(len(rec)))
	b.ReportAllocs()
	for i := range b.N {
		if i%(1<<20) == 0 {
			h.Truncate(0) // stay within the byte limit
		}
		if _, err := h.Write(rec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLookup resolves a 6-component path.
func BenchmarkLookup(b *testing.B) {
	f := New(Options{})
	must(b, f.MkdirAll("/usr/local/lib/python3/site", 0o755))
	must(b, f.WriteFile("/usr/local/lib/python3/site/x.py", nil, 0o644))
	b.ReportAllocs()
	for range b.N {
		if _, err := f.Lookup(RootIno, "/usr/local/lib/python3/site/x.py", true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPipeLine sends one short line through a new pipe, as each step
// of a shell loop of `echo a | tr a b` does.
func BenchmarkPipeLine(b *testing.B) {
	f := New(Options{})
	line := []byte("a\n")
	buf := make([]byte, 64<<10)
	b.ReportAllocs()
	for b.Loop() {
		r, w := f.Pipe()
		if _, err := w.Write(line); err != nil {
			b.Fatal(err)
		}
		w.Close()
		if n, _ := r.Read(buf); n != len(line) {
			b.Fatalf("read %d bytes", n)
		}
		r.Close()
	}
}
