package native

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
)

func TestDirStore(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "snaps")
	st := DirStore(dir)
	if list, err := st.List(ctx); err != nil || len(list) != 0 {
		t.Fatalf("List of a missing directory = %v, %v", list, err)
	}
	if _, err := st.Get(ctx, "a"); !errors.Is(err, sandbox.ErrNotFound) {
		t.Errorf("Get of nothing: %v, want sandbox.ErrNotFound", err)
	}
	before := time.Now().Add(-time.Second)
	if err := st.Put(ctx, "a", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ctx, "b.2", []byte("four")); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ctx, "a", []byte("three")); err != nil {
		t.Fatal(err)
	}
	if b, err := st.Get(ctx, "a"); err != nil || string(b) != "three" {
		t.Errorf("Get = %q, %v", b, err)
	}
	list, err := st.List(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "a" || list[0].Size != 5 || list[1].Name != "b.2" || list[1].Size != 4 || list[0].Modified.Before(before) {
		t.Errorf("List = %+v, %v", list, err)
	}
	for _, bad := range []string{"", ".x", "a/b", "../x", "a b"} {
		if err := st.Put(ctx, bad, nil); err == nil {
			t.Errorf("Put(%q) succeeded", bad)
		}
	}
	if err := st.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, "a"); !errors.Is(err, sandbox.ErrNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left in the directory: %v", ents)
	}
}
