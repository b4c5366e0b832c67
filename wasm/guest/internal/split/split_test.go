package split

import (
	"os"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestNames(t *testing.T) {
	n := &namer{prefix: "x", alphabet: "abcdefghijklmnopqrstuvwxyz", digits: make([]int, 2), auto: true}
	var last string
	for i := 0; i < 651; i++ {
		last, _ = n.next()
	}
	if last != "xzaaa" {
		t.Errorf("651st name %q, want xzaaa", last)
	}
	fixed := &namer{prefix: "x", alphabet: "01", digits: make([]int, 1)}
	fixed.next()
	fixed.next()
	if _, ok := fixed.next(); ok {
		t.Error("suffixes not exhausted")
	}
}

func TestSplitLines(t *testing.T) {
	t.Chdir(t.TempDir())
	if _, errOut, code := tool.Exec(Main, "1\n2\n3\n", "split", "-l", "2"); code != 0 {
		t.Fatal(errOut)
	}
	a, _ := os.ReadFile("xaa")
	b, _ := os.ReadFile("xab")
	if string(a) != "1\n2\n" || string(b) != "3\n" {
		t.Errorf("xaa %q xab %q", a, b)
	}
}
