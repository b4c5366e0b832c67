package tar

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// BenchmarkCreate archives a tree of 10,000 small files in 100
// directories, the bench table's tar case.
func BenchmarkCreate(b *testing.B) {
	dir := b.TempDir()
	for i := range 100 {
		d := filepath.Join(dir, "t", fmt.Sprintf("d%02d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		for j := range 100 {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%04d.txt", i*100+j)), fmt.Appendf(nil, "file %d %d\n", i, j), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	out := filepath.Join(b.TempDir(), "t.tar")
	b.ReportAllocs()
	for b.Loop() {
		if _, errOut, code := tool.Exec(Main, "", "tar", "-C", dir, "-cf", out, "t"); code != 0 {
			b.Fatal(errOut)
		}
	}
}
