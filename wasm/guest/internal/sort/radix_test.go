package sort

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// randomLines returns lines built to stress the radix sort: long shared
// prefixes, keys ending inside and at the edge of 8-byte words, NULs,
// numbers with signs, fractions and leading zeros, and many repeats.
func randomLines(r *rand.Rand, n int) string {
	words := []string{"", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh\x00", "x", "2024-01-0", "2024-01-01 ", "\xff", "Z"}
	nums := []string{"0", "-0", "00", "1", "1.5", "1.50", "-1.5", "10", "9", "1.0001", "1.0009", "123456789012345678", "-", ".5", "abc"}
	var b strings.Builder
	for range n {
		for f := range 1 + r.IntN(4) {
			if f > 0 {
				b.WriteByte(" \t"[r.IntN(2)])
			}
			if r.IntN(2) == 0 {
				b.WriteString(words[r.IntN(len(words))])
			} else {
				b.WriteString(nums[r.IntN(len(nums))])
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestRadixAgainstGNU compares sort's output over random lines with GNU
// sort's in the C locale, for the options that take the radix path.
func TestRadixAgainstGNU(t *testing.T) {
	if _, err := exec.LookPath("sort"); err != nil {
		t.Skip("no GNU sort")
	}
	r := rand.New(rand.NewPCG(1, 2))
	args := [][]string{{}, {"-r"}, {"-n"}, {"-rn"}, {"-k2,2"}, {"-k2"}, {"-n", "-k2"}, {"-k2,2", "-r"}, {"-k2r,2", "-k1"},
		{"-u"}, {"-s", "-k2,2"}, {"-t", " ", "-k3n"}, {"-b", "-k2,2"}, {"-u", "-n"}, {"-k1.3,1.12"}}
	for _, n := range []int{10, 100, 3000, 20000} {
		in := randomLines(r, n)
		for _, a := range args {
			out, errOut, code := tool.Exec(Main, in, append([]string{"sort"}, a...)...)
			cmd := exec.Command("sort", a...)
			cmd.Env = []string{"LC_ALL=C"}
			cmd.Stdin = strings.NewReader(in)
			want, err := cmd.Output()
			if err != nil || code != 0 || errOut != "" {
				t.Fatalf("sort %q: %v, %d %q", a, err, code, errOut)
			}
			if out != string(want) {
				t.Errorf("sort %q over %d lines differs from GNU sort", a, n)
				wl, gl := strings.Split(string(want), "\n"), strings.Split(out, "\n")
				for i := range min(len(wl), len(gl)) {
					if wl[i] != gl[i] {
						t.Errorf("line %d: got %q, want %q", i, gl[i], wl[i])
						break
					}
				}
			}
		}
	}
}

// TestFilesAgainstGNU compares sort over several files, some empty or
// without a final newline, and with -z, with GNU sort.
func TestFilesAgainstGNU(t *testing.T) {
	if _, err := exec.LookPath("sort"); err != nil {
		t.Skip("no GNU sort")
	}
	t.Chdir(t.TempDir())
	files := map[string]string{"a": "b\na", "e": "", "n": "\n\n", "c": "c\nb\n", "z": "x\x00b\x00a", "l": strings.Repeat("w\n", 100) + "v", "long": longLines()}
	for name, content := range files {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range [][]string{{"a", "c"}, {"a", "e", "a"}, {"e"}, {"n", "a"}, {"-u", "a", "c", "l"}, {"-r", "l", "a"},
		{"-z", "z", "a"}, {"-zu", "z", "z"}, {"-c", "a"}, {"-c", "c"}, {"-cu", "n"}, {"-n", "l", "c"}, {"-k1,1", "c", "a"}, {"long"}, {"-u", "long", "long"}, {"-r", "long", "c"}} {
		out, errOut, code := tool.Exec(Main, "", append([]string{"sort"}, a...)...)
		cmd := exec.Command("sort", a...)
		cmd.Env = []string{"LC_ALL=C"}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		want, err := cmd.Output()
		wantCode := 0
		if ee, ok := err.(*exec.ExitError); ok {
			wantCode = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if out != string(want) || code != wantCode || errOut != stderr.String() {
			t.Errorf("sort %q: got (%q, %q, %d), want (%q, %q, %d)", a, out, errOut, code, want, stderr.String(), wantCode)
		}
	}
}

// longLines returns lines of every length up to 300 bytes, some twice,
// and lines longer than sort's output buffer, for its copying by words.
func longLines() string {
	var b strings.Builder
	for n := range 301 {
		line := strings.Repeat(string(rune('a'+n%26)), n)
		b.WriteString(line + "\n")
		if n%7 == 0 {
			b.WriteString(line + "\n")
		}
	}
	b.WriteString(strings.Repeat("x", 300<<10) + "\n" + strings.Repeat("y", 130<<10) + "\n" + strings.Repeat("x", 300<<10) + "\n")
	return b.String()
}
