package testutil

import (
	"bytes"
	"io"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Records returns n lines of "date region amount code", as
// guesttest.Records.
func Records(n int) []byte { return guesttest.Records(n) }

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
