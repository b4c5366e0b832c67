package diskcache

import (
	"context"
	"os"
	"path/filepath"
	"testing"
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
