package sed

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// TestFastMatchesGeneral checks the whole-buffer s///g path against the
// line-by-line machine on random text, with tiny buffers so that matches
// straddle buffer boundaries.
func TestFastMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := "aab\nxé"
	for iter := 0; iter < 300; iter++ {
		var b strings.Builder
		for n := rng.Intn(200); n > 0; n-- {
			b.WriteByte(alphabet[rng.Intn(len(alphabet))])
		}
		in := b.String()
		for _, script := range []string{"s/a/X/g", "s/ab/<>/g", "s/aab/-/g", "s/a//g", "s/é/e/g", "s/a/X/", "s/ab/<>/", "s/b//"} {
			var want, got bytes.Buffer
			// The general machine: the same script with a no-op second
			// command defeats planFast.
			env := &tool.Env{Args: []string{"sed", "-e", script, "-e", "b"}, Stdin: strings.NewReader(in), Stdout: &want, Stderr: &want}
			tool.Run(Main, env)
			for _, size := range []int{1, 2, 3, 7, 64} {
				got.Reset()
				env := &tool.Env{Args: []string{"sed", script}, Stdin: strings.NewReader(in), Stdout: &got, Stderr: &got}
				fastBufSize = size
				tool.Run(Main, env)
				fastBufSize = 0
				if got.String() != want.String() {
					t.Fatalf("%s on %q, buffer %d:\n got %q\nwant %q", script, in, size, got.String(), want.String())
				}
			}
		}
	}
}
