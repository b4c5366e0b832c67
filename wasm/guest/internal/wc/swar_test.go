package wc

import (
	"bytes"
	"math/rand"
	"testing"
)

func TestCountByte(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 300; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Intn(4)) + '\n' - 1 // 0x09..0x0c, and 0x0a often
			if rng.Intn(7) == 0 {
				b[i] = byte(rng.Intn(256))
			}
		}
		for _, c := range []byte{'\n', 0, 0xff, 0x80} {
			if got, want := CountByte(b, c), bytes.Count(b, []byte{c}); got != want {
				t.Fatalf("CountByte(%q, %q) = %d, want %d", b, c, got, want)
			}
		}
	}
}

func BenchmarkCountByte(b *testing.B) {
	buf := bytes.Repeat([]byte("hello world, a line of text\n"), 4096)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		CountByte(buf, '\n')
	}
}

// TestIndex checks IndexByte and Index against package bytes at every
// alignment and length around the 32-byte steps.
func TestIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for range 20000 {
		b := make([]byte, rng.Intn(100))
		for i := range b {
			b[i] = "abc\x80\xff"[rng.Intn(5)]
		}
		c := "abcd\x80\xff"[rng.Intn(6)]
		if got, want := IndexByte(b, c), bytes.IndexByte(b, c); got != want {
			t.Fatalf("IndexByte(%q, %q) = %d, want %d", b, c, got, want)
		}
		sep := b[rng.Intn(len(b)+1):]
		sep = append([]byte(nil), sep[:min(len(sep), rng.Intn(4))]...)
		if rng.Intn(3) == 0 {
			sep = append(sep, 'd')
		}
		if got, want := Index(b, sep), bytes.Index(b, sep); got != want {
			t.Fatalf("Index(%q, %q) = %d, want %d", b, sep, got, want)
		}
	}
}
