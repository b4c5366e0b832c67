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

// TestCountWords checks the eight-bytes-a-step word count against a byte
// at a time, for every byte value, at every alignment and in pieces.
func TestCountWords(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for range 5000 {
		b := make([]byte, rng.Intn(80))
		for i := range b {
			b[i] = " \t\n\v\f\r\x08\x0e\x1f\x89\x8a\xa0ax"[rng.Intn(14)]
			if rng.Intn(5) == 0 {
				b[i] = byte(rng.Intn(256))
			}
		}
		want, in := 0, false
		for _, c := range b {
			w := wordByte[c] == 1
			if w && !in {
				want++
			}
			in = w
		}
		cut := rng.Intn(len(b) + 1)
		n1, mid := countWords(b[:cut], false)
		n2, end := countWords(b[cut:], mid)
		if n1+n2 != want || end != in {
			t.Fatalf("countWords(%q) cut at %d = %d, %v; want %d, %v", b, cut, n1+n2, end, want, in)
		}
	}
}

// TestCountLinesWith checks CountLinesWith against splitting the lines
// and bytes.Contains, at every alignment and with near misses.
func TestCountLinesWith(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for range 20000 {
		b := make([]byte, rng.Intn(120))
		for i := range b {
			b[i] = "aab\n\xffxy"[rng.Intn(7)]
		}
		sep := []byte([]string{"a", "ab", "aab", "xy", "ba", "axya", "bxb", ""}[rng.Intn(8)])
		want := 0
		if len(b) > 0 {
			for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
				if bytes.Contains(line, sep) {
					want++
				}
			}
		}
		if got := CountLinesWith(b, sep, '\n'); got != want {
			t.Fatalf("CountLinesWith(%q, %q) = %d, want %d", b, sep, got, want)
		}
	}
}

func BenchmarkCountLinesWith(b *testing.B) {
	buf := bytes.Repeat([]byte("2024-08-07 island 66906 K9K0\n2024-09-03 xray 45182 D8I0\n"), 4096)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		CountLinesWith(buf, []byte("xray"), '\n')
	}
}

// TestCountLinesWithAny checks CountLinesWithAny against splitting the
// lines and bytes.Contains, at every alignment and with near misses.
func TestCountLinesWithAny(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	words := []string{"a", "ab", "aab", "xy", "ba", "axya", "bxb", "yyyyyyyyyyy", "b"}
	for range 20000 {
		b := make([]byte, rng.Intn(120))
		for i := range b {
			b[i] = "aab\n\xffxy"[rng.Intn(7)]
		}
		seps := make([][]byte, 2+rng.Intn(3))
		for k := range seps {
			seps[k] = []byte(words[rng.Intn(len(words))])
		}
		want := 0
		if len(b) > 0 {
			for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
				for _, sep := range seps {
					if bytes.Contains(line, sep) {
						want++
						break
					}
				}
			}
		}
		if got := CountLinesWithAny(b, seps, '\n'); got != want {
			t.Fatalf("CountLinesWithAny(%q, %q) = %d, want %d", b, seps, got, want)
		}
	}
}

func BenchmarkCountLinesWithAny(b *testing.B) {
	buf := bytes.Repeat([]byte("2024-08-07 island 66906 K9K0\n2024-09-03 north 45182 D8I0\n"), 4096)
	seps := [][]byte{[]byte("north"), []byte("K7"), []byte("2024-13")}
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		CountLinesWithAny(buf, seps, '\n')
	}
}
