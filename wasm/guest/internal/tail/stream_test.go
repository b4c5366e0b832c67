package tail

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// yes is an endless reader of "y\n".
type yes struct{}

func (yes) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "y\n"[i%2]
	}
	return len(p) &^ 1, nil
}

// TestStreamMemory checks that tail holds the tail, not the input: 256 MiB
// go through with a few hundred KiB allocated.
func TestStreamMemory(t *testing.T) {
	for _, args := range [][]string{{"tail", "-1"}, {"tail", "-c", "3"}, {"tail", "-n", "1000"}} {
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		var out bytes.Buffer
		env := &tool.Env{Args: args, Stdin: io.LimitReader(yes{}, 256<<20), Stdout: &out, Stderr: io.Discard}
		if code := tool.Run(Main, env); code != 0 {
			t.Fatalf("%q: status %d", args, code)
		}
		runtime.ReadMemStats(&ms1)
		if n := ms1.TotalAlloc - ms0.TotalAlloc; n > 4<<20 {
			t.Errorf("%q allocated %d bytes", args, n)
		}
		if out.Len() == 0 {
			t.Errorf("%q: no output", args)
		}
	}
}

// TestStreamPieces checks the window against whole-input answers when the
// input arrives a byte at a time and in odd sizes.
func TestStreamPieces(t *testing.T) {
	var b strings.Builder
	for i := range 30000 {
		b.WriteString(strings.Repeat("x", i%97))
		b.WriteByte('\n')
	}
	b.WriteString("last, unterminated")
	in := b.String()
	for _, args := range [][]string{{"-1"}, {"-n", "5000"}, {"-c", "70000"}, {"-n", "0"}, {"-c", "1"}, {"-n", "40000"}} {
		want, _, _ := tool.Exec(Main, in, append([]string{"tail"}, args...)...)
		for _, r := range []io.Reader{iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in))} {
			var out bytes.Buffer
			env := &tool.Env{Args: append([]string{"tail"}, args...), Stdin: r, Stdout: &out, Stderr: io.Discard}
			tool.Run(Main, env)
			if out.String() != want {
				t.Errorf("tail %q in pieces: %d bytes, want %d", args, out.Len(), len(want))
			}
		}
		if args[0] == "-1" && !strings.HasSuffix(want, "last, unterminated") {
			t.Errorf("tail -1: %q", want)
		}
	}
}
