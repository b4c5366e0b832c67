package uniq

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	tests := []struct {
		args           []string
		stdin          string
		stdout, stderr string
		code           int
	}{
		{args: []string{"uniq"}, stdin: "a\na\nb\na\n", stdout: "a\nb\na\n"},
		{args: []string{"uniq", "-c"}, stdin: "a\na\nb\n", stdout: "      2 a\n      1 b\n"},
		{args: []string{"uniq", "-d"}, stdin: "a\na\nb\n", stdout: "a\n"},
		{args: []string{"uniq", "-u"}, stdin: "a\na\nb\n", stdout: "b\n"},
		{args: []string{"uniq", "-i"}, stdin: "a\nA\n", stdout: "a\n"},
		{args: []string{"uniq", "-f1"}, stdin: "x a\ny a\n", stdout: "x a\n"},
		{args: []string{"uniq", "-D"}, stdin: "a\na\nb\n", stdout: "a\na\n"},
	}
	for _, tc := range tests {
		out, errOut, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || errOut != tc.stderr || code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, out, errOut, code, tc.stdout, tc.stderr, tc.code)
		}
	}
}

// sortedRecords is 200,000 records sorted, with runs of equal dates.
func sortedKeys(b *testing.B) []byte {
	b.Helper()
	lines := bytes.SplitAfter(testutil.Records(200000), []byte("\n"))
	for i, l := range lines {
		lines[i] = l[:11] // the date
	}
	slices.SortFunc(lines, bytes.Compare)
	return bytes.Join(lines, []byte("\n"))
}

func BenchmarkUniqCount(b *testing.B) {
	testutil.Bench(b, Main, testutil.Records(200000), "uniq", "-c")
}

func BenchmarkUniqCountRuns(b *testing.B) {
	testutil.Bench(b, Main, sortedKeys(b), "uniq", "-c")
}

// TestBuffers checks uniq over inputs larger than its buffer, arriving
// in random pieces, against a model: groups that span reads, lines longer
// than the buffer, a last line without its end, and the options that
// change what is compared.
func TestBuffers(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 12 {
		var lines []string
		for len(lines) < 30000 {
			l := []string{"a", "A", "b x", "c x", "", "dd"}[rng.IntN(6)]
			if rng.IntN(5000) == 0 {
				l = strings.Repeat("long", 20000+rng.IntN(2))
			}
			for range 1 + rng.IntN(4) {
				lines = append(lines, l)
			}
		}
		in := strings.Join(lines, "\n")
		if round%2 == 0 {
			in += "\n"
		}
		for _, args := range [][]string{{"-c"}, {"-d"}, {"-u"}, {}, {"-i", "-c"}, {"-f", "1", "-c"}} {
			var out bytes.Buffer
			env := &tool.Env{Args: append([]string{"uniq"}, args...), Stdin: &pieces{s: in, rng: rng}, Stdout: &out, Stderr: io.Discard}
			tool.Run(Main, env)
			if want := model(lines, args); out.String() != want {
				t.Fatalf("round %d: uniq %q: output differs (%d bytes, want %d)", round, args, out.Len(), len(want))
			}
		}
	}
}

// model is uniq for the argument lists of TestBuffers.
func model(lines []string, args []string) string {
	key := func(l string) string { return l }
	count, only := false, ""
	for _, a := range args {
		switch a {
		case "-c":
			count = true
		case "-d", "-u":
			only = a
		case "-i":
			key = strings.ToLower
		case "-f":
			key = func(l string) string {
				if i := strings.IndexByte(l, ' '); i >= 0 {
					return l[i:]
				}
				return ""
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && key(lines[j]) == key(lines[i]) {
			j++
		}
		if only == "" || only == "-d" && j-i > 1 || only == "-u" && j-i == 1 {
			if count {
				fmt.Fprintf(&b, "%7d ", j-i)
			}
			b.WriteString(lines[i] + "\n")
		}
		i = j
	}
	return b.String()
}

// pieces reads s a random number of bytes at a time.
type pieces struct {
	s   string
	rng *rand.Rand
}

func (p *pieces) Read(b []byte) (int, error) {
	if p.s == "" {
		return 0, io.EOF
	}
	n := copy(b[:min(len(b), 1+p.rng.IntN(100000))], p.s)
	p.s = p.s[n:]
	return n, nil
}
