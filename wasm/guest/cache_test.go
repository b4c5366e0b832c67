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

// TestSourceHashCountsProfiles checks that a profile go build optimises
// by (default.pgo in a module's directory) is part of the cache key, so a
// new profile rebuilds the tools.
func TestSourceHashCountsProfiles(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "wasm", "guest")
	for _, d := range []string{filepath.Join(src, "awk"), filepath.Join(root, "wasm", "preinit"), filepath.Join(root, "wasm", "binary")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "go.mod"), "module example.com/m\n")
	write(filepath.Join(src, "awk", "main.go"), "package main\n")
	hash := func() string {
		t.Helper()
		h, err := sourceHash(src)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	before := hash()
	write(filepath.Join(src, "awk", "default.pgo"), "profile 1")
	withProfile := hash()
	if withProfile == before {
		t.Error("adding awk/default.pgo left the source hash unchanged")
	}
	write(filepath.Join(src, "awk", "default.pgo"), "profile 2")
	changed := hash()
	if changed == withProfile {
		t.Error("changing awk/default.pgo left the source hash unchanged")
	}
	// Other files beside the sources are not inputs of the build.
	write(filepath.Join(src, "awk", "notes.pgo.txt"), "not a source")
	if hash() != changed {
		t.Error("a file that is neither a source nor default.pgo changed the source hash")
	}
}
