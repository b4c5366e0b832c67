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
