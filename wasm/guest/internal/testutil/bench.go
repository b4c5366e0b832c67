package testutil

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Records returns n lines of realistic tabular text, "date region amount
// code", as sort, uniq, cut and friends meet in logs and CSV exports:
//
//	2024-03-17 north 48213 K7Q2
//
// The same n gives the same bytes every time.
func Records(n int) []byte {
	regions := []string{"north", "south", "east", "west", "central", "xray", "island", "metro"}
	var b bytes.Buffer
	b.Grow(n * 30)
	x := uint32(2463534242)
	next := func() uint32 { // xorshift32
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		return x
	}
	for range n {
		r := next()
		fmt.Fprintf(&b, "2024-%02d-%02d %s %d %c%d%c%d\n",
			1+r%12, 1+(r>>4)%28, regions[(r>>9)%uint32(len(regions))], next()%100000,
			'A'+byte(r>>12)%26, (r>>17)%10, 'A'+byte(r>>21)%26, (r>>26)%10)
	}
	return b.Bytes()
}

// Bench runs main with args over stdin b.N times, output discarded, and
// reports the throughput and allocations per run.
func Bench(b *testing.B, main tool.MainFunc, stdin []byte, args ...string) {
	b.Helper()
	b.SetBytes(int64(len(stdin)))
	b.ReportAllocs()
	for b.Loop() {
		var errOut bytes.Buffer
		env := &tool.Env{Args: args, Stdin: bytes.NewReader(stdin), Stdout: io.Discard, Stderr: &errOut}
		if code := tool.Run(main, env); code != 0 {
			b.Fatalf("%q: status %d: %s", args, code, errOut.String())
		}
	}
}
