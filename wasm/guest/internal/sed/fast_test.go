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

// TestFastRegexMatchesGeneral checks the whole-buffer path for a regular
// expression against the line-by-line machine on random text with bytes
// past ASCII (lines the automaton leaves to the slower matchers) and tiny
// buffers.
func TestFastRegexMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	alphabet := []string{"a", "a", "b", "x", "\n", "é", "\xff", "0", "12", " "}
	scripts := []struct{ flag, script string }{
		{"-E", `s/(a+)(b)/\2\1/`},
		{"-s", "s/a*/X/g"},
		{"-s", `s/[ab]\+$/Y/`},
		{"-E", `s/^(x|é)+/[&]/2`},
		{"-s", "s/.b/Z/Ig"},
		{"-E", `s/(a|b)\1/D/g`},
		{"-E", `s/a|$/!/g`},
		{"-E", `s/([0-9]+) ([a-z])/\2 \1/3`},
		{"-s", "s/b/B/2"},
		{"-E", `s/\<a/W/g`},
		{"-s", "s/ab/\\U&x/"},
		{"-z", `s/a\nb/Q/g`},
		{"-E", `s/([^ ]*) (.*)$/\2|\1/`},
	}
	for iter := 0; iter < 300; iter++ {
		var b strings.Builder
		for n := rng.Intn(60); n > 0; n-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		in := b.String()
		for _, args := range scripts {
			var want, got bytes.Buffer
			env := &tool.Env{Args: []string{"sed", args.flag, "-e", args.script, "-e", "b"}, Stdin: strings.NewReader(in), Stdout: &want, Stderr: &want}
			tool.Run(Main, env)
			for _, size := range []int{1, 5, 64, 0} {
				got.Reset()
				env := &tool.Env{Args: []string{"sed", args.flag, args.script}, Stdin: strings.NewReader(in), Stdout: &got, Stderr: &got}
				fastBufSize = size
				tool.Run(Main, env)
				fastBufSize = 0
				if got.String() != want.String() {
					t.Fatalf("%q on %q, buffer %d:\n got %q\nwant %q", args, in, size, got.String(), want.String())
				}
			}
		}
	}
}

// TestFastRegexErrors checks that the whole-buffer path stops where the
// general machine does: the lines before the failing one are written, and
// the error ends the run.
func TestFastRegexErrors(t *testing.T) {
	in := "ok\n" + strings.Repeat("a", 60) + "b bx\nlater\n"
	script := `s/\(a\|aa\)*\1bx/X/` // a backreference: the budgeted backtracker
	var want, got bytes.Buffer
	wcode := tool.Run(Main, &tool.Env{Args: []string{"sed", "-e", script, "-e", "b"}, Stdin: strings.NewReader(in), Stdout: &want, Stderr: &want})
	gcode := tool.Run(Main, &tool.Env{Args: []string{"sed", script}, Stdin: strings.NewReader(in), Stdout: &got, Stderr: &got})
	if got.String() != want.String() || gcode != wcode {
		t.Fatalf("got %q (%d), want %q (%d)", got.String(), gcode, want.String(), wcode)
	}
	if wcode == 0 || !strings.HasPrefix(want.String(), "ok\n") {
		t.Fatalf("want the first line, then an error: %q (%d)", want.String(), wcode)
	}
}
