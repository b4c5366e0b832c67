package tr

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	tests := []struct {
		args           []string
		stdin          string
		stdout, stderr string
		code           int
	}{
		{args: []string{"tr", "a-z", "A-Z"}, stdin: "hello\n", stdout: "HELLO\n"},
		{args: []string{"tr", "-d", "l"}, stdin: "hello\n", stdout: "heo\n"},
		{args: []string{"tr", "-s", "l"}, stdin: "hello\n", stdout: "helo\n"},
		{args: []string{"tr", "-cd", "[:digit:]"}, stdin: "a1b2\n", stdout: "12"},
		{args: []string{"tr", "[:lower:]", "[:upper:]"}, stdin: "ab\n", stdout: "AB\n"},
		{args: []string{"tr", "é", "e"}, stdin: "café\n", stdout: "cafe\n"},
		{args: []string{"tr", "abc", "x"}, stdin: "abcd", stdout: "xxxd"},
		{args: []string{"tr", "a"}, stderr: "tr: missing operand after 'a'\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n", code: 1},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}

// TestByteLoops checks the byte-mode loops against a plain model, over
// random text fed in random pieces (so runs cross reads), for squeezing
// one byte, squeezing with translation and deletion, and deleting.
func TestByteLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 300 {
		var b strings.Builder
		for range rng.IntN(3000) {
			b.WriteByte(" ab\n"[rng.IntN(4)])
		}
		in := b.String()
		for _, args := range [][]string{{"-s", " "}, {"-s", "a "}, {"-s", "ab", "ba"}, {"-ds", "a", " "}, {"-d", "a\n"}} {
			want := model(in, args)
			var out bytes.Buffer
			env := &tool.Env{Args: append([]string{"tr"}, args...), Stdin: &pieces{s: in, rng: rng}, Stdout: &out, Stderr: io.Discard}
			tool.Run(Main, env)
			if out.String() != want {
				t.Fatalf("round %d: tr %q on %q:\n got %q\nwant %q", round, args, in, out.String(), want)
			}
		}
	}
}

// model is tr for the few argument lists of TestByteLoops, byte by byte.
func model(in string, args []string) string {
	var out []byte
	last := -1
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch args[0] {
		case "-s":
			if len(args) == 3 { // translate set1 to set2, squeeze set2
				if k := strings.IndexByte(args[1], c); k >= 0 {
					c = args[2][k]
				}
				if strings.IndexByte(args[2], c) >= 0 && int(c) == last {
					continue
				}
			} else if strings.IndexByte(args[1], c) >= 0 && int(c) == last {
				continue
			}
		case "-ds":
			if strings.IndexByte(args[1], c) >= 0 {
				continue
			}
			if strings.IndexByte(args[2], c) >= 0 && int(c) == last {
				continue
			}
		case "-d":
			if strings.IndexByte(args[1], c) >= 0 {
				continue
			}
		}
		last = int(c)
		out = append(out, c)
	}
	return string(out)
}

// pieces reads s a random few bytes at a time.
type pieces struct {
	s   string
	rng *rand.Rand
}

func (p *pieces) Read(b []byte) (int, error) {
	if p.s == "" {
		return 0, io.EOF
	}
	n := copy(b[:min(len(b), 1+p.rng.IntN(40))], p.s)
	p.s = p.s[n:]
	return n, nil
}
