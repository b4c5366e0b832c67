package diff

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// TestAgainstGNU compares the output of random edits with GNU diff's, byte
// for byte, in the normal, unified and context formats.
func TestAgainstGNU(t *testing.T) {
	iterations, maxLines := 600, 40
	if os.Getenv("DIFF_FUZZ") != "" {
		iterations, maxLines = 5000, 300
	}
	gnu, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("GNU diff not installed")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	rng := rand.New(rand.NewSource(1))
	mtime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	words := []string{"a", "b", "c", "d", "", "}", "x y", "x  y", "X Y"}
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[rng.Intn(len(words))])
			b.WriteByte('\n')
		}
		return b.String()
	}
	mutate := func(s string) string {
		lines := strings.SplitAfter(s, "\n")
		for range rng.Intn(6 + maxLines/10) {
			i := rng.Intn(len(lines))
			switch rng.Intn(3) {
			case 0:
				lines = append(lines[:i], lines[i+1:]...)
			case 1:
				lines = append(lines[:i], append([]string{words[rng.Intn(len(words))] + "\n"}, lines[i:]...)...)
			default:
				lines[i] = words[rng.Intn(len(words))] + "\n"
			}
			if len(lines) == 0 {
				lines = []string{""}
			}
		}
		return strings.Join(lines, "")
	}
	optSets := [][]string{{}, {"-u"}, {"-c"}, {"-U1"}, {"-U0"}, {"-C1"}, {"-b"}, {"-w"}, {"-i", "-u"}, {"-B"}, {"-B", "-u"}, {"-p", "-u"}, {"-d"}, {"-E", "-Z"}, {"-E"}, {"--strip-trailing-cr"}}
	fails := 0
	failed := map[string]int{}
	for iter := range iterations {
		a := gen(rng.Intn(maxLines))
		b := mutate(a)
		if rng.Intn(5) == 0 {
			b = gen(rng.Intn(maxLines))
		}
		if rng.Intn(6) == 0 {
			b = strings.TrimSuffix(b, "\n")
		}
		os.WriteFile("a", []byte(a), 0o644)
		os.WriteFile("b", []byte(b), 0o644)
		os.Chtimes("a", mtime, mtime)
		os.Chtimes("b", mtime, mtime)
		opts := optSets[iter%len(optSets)]
		args := append(append([]string{"diff"}, opts...), "a", "b")
		cmd := exec.Command(gnu, args[1:]...)
		cmd.Env = append(os.Environ(), "TZ=UTC", "LC_ALL=C")
		want, _ := cmd.Output()
		wantCode := cmd.ProcessState.ExitCode()
		got, errOut, code := tool.Exec(Main, "", args...)
		if got != string(want) || code != wantCode {
			fails++
			failed[fmt.Sprint(opts)]++
			if fails < 4 {
				t.Errorf("%v on\n%q\n%q\ngot (%d, %q):\n%s\nwant (%d):\n%s", opts, a, b, code, errOut, got, wantCode, want)
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d differ: %v", fails, iterations, failed)
	}
}
