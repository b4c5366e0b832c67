package csplit

import (
	"os"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCsplit(t *testing.T) {
	t.Chdir(t.TempDir())
	out, errOut, code := tool.Exec(Main, "a\nb\nc\nd\n", "csplit", "-", "/c/")
	if code != 0 || out != "4\n4\n" {
		t.Fatalf("got (%q, %q, %d)", out, errOut, code)
	}
	b, _ := os.ReadFile("xx01")
	if string(b) != "c\nd\n" {
		t.Errorf("xx01 = %q", b)
	}
	_, errOut, code = tool.Exec(Main, "a\n", "csplit", "-", "/zz/")
	if code != 1 || errOut != "csplit: '/zz/': match not found\n" {
		t.Errorf("got (%q, %d)", errOut, code)
	}
	if _, err := os.Stat("xx00"); err == nil {
		t.Error("files kept after an error")
	}
}
