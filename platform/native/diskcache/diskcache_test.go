package diskcache

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestStore(t *testing.T) {
	ctx := context.Background()
	s := Store{Dir: filepath.Join(t.TempDir(), "instrumented")} // made on first Store
	raw := []byte("\x00asm raw")
	if _, ok := s.Load(ctx, raw, "4096-v2"); ok {
		t.Fatal("Load from an empty cache hit")
	}
	s.Store(ctx, raw, "4096-v2", []byte("instrumented"))
	if b, ok := s.Load(ctx, raw, "4096-v2"); !ok || string(b) != "instrumented" {
		t.Fatalf("Load = %q, %v", b, ok)
	}
	if _, ok := s.Load(ctx, raw, "8192-v2"); ok {
		t.Error("another variant hit")
	}
	if _, ok := s.Load(ctx, []byte("other"), "4096-v2"); ok {
		t.Error("other bytes hit")
	}
	ents, _ := os.ReadDir(s.Dir)
	if len(ents) != 1 || filepath.Ext(ents[0].Name()) != ".wasm" {
		t.Errorf("cache holds %v, want one .wasm file and no temporary ones", ents)
	}
}

func TestTrim(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	write := func(name string, size int, age time.Duration) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	write("wazero-v1/old", 400, 3*time.Hour)
	write("instrumented/older", 300, 4*time.Hour)
	write("instrumented/new", 200, time.Minute)
	write("wazero-v1/newest", 100, 0)
	write("tools/not-a-cache-file", 10000, 100*time.Hour)
	dirs := []string{filepath.Join(dir, "wazero-v1"), filepath.Join(dir, "instrumented")}

	if freed, err := Trim(1000, dirs...); err != nil || freed != 0 {
		t.Fatalf("Trim within the limit = %d, %v; want 0, nil", freed, err)
	}
	freed, err := Trim(650, dirs...)
	if err != nil {
		t.Fatal(err)
	}
	if freed != 700 {
		t.Errorf("freed %d bytes, want 700 (the two oldest files)", freed)
	}
	for name, want := range map[string]bool{"wazero-v1/old": false, "instrumented/older": false, "instrumented/new": true, "wazero-v1/newest": true, "tools/not-a-cache-file": true} {
		_, err := os.Stat(filepath.Join(dir, name))
		if got := err == nil; got != want {
			t.Errorf("%s kept = %v, want %v", name, got, want)
		}
	}
	if freed, err := Trim(0, filepath.Join(dir, "missing")); err != nil || freed != 0 {
		t.Errorf("Trim of a missing directory = %d, %v", freed, err)
	}
}

func TestLoadMarksUse(t *testing.T) {
	ctx := context.Background()
	s := Store{Dir: t.TempDir()}
	raw := []byte("\x00asm raw")
	s.Store(ctx, raw, "v", []byte("x"))
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(s.file(raw, "v"), old, old); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Load(ctx, raw, "v"); !ok {
		t.Fatal("Load missed")
	}
	info, err := os.Stat(s.file(raw, "v"))
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(info.ModTime()) > time.Hour {
		t.Errorf("a hit left the file's time at %v: Trim would take it for unused", info.ModTime())
	}
}
