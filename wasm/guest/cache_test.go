package guest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRemoveStale(t *testing.T) {
	root := t.TempDir()
	now := time.Now()
	mk := func(name string, age time.Duration) string {
		p := filepath.Join(root, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keep := mk("tools-new", 0)
	mk("tools-a", time.Hour)
	mk("tools-b", 30*time.Hour)
	mk("tools-c", 40*time.Hour)
	mk("tools-d", 50*time.Hour) // fourth of the others and stale: removed
	mk("tools-e", 60*time.Hour) // removed
	mk("build-old", 30*time.Hour)
	mk("build-new", time.Minute) // another process is building it
	mk("other", 90*time.Hour)    // not ours
	removeStale(root, keep)
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	want := "[build-new other tools-a tools-b tools-c tools-new]"
	if got := fmt.Sprint(left); got != want {
		t.Errorf("left %s, want %s", got, want)
	}
}
