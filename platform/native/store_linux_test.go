package native

import (
	"bytes"
	"context"
	"errors"
	"os"
	"syscall"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
)

// TestDirStoreQuota fills the file size limit (RLIMIT_FSIZE) during a Put:
// the error matches sandbox.ErrQuota and the previous snapshot stays intact.
func TestDirStoreQuota(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st := DirStore(dir)
	if err := st.Put(ctx, "s", []byte("previous")); err != nil {
		t.Fatal(err)
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skip(err)
	}
	lim := old
	lim.Cur = 4096
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Skip(err)
	}
	err := st.Put(ctx, "s", bytes.Repeat([]byte("x"), 100_000))
	syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	if !errors.Is(err, sandbox.ErrQuota) {
		t.Errorf("Put past the limit: %v, want sandbox.ErrQuota", err)
	}
	var se *sandbox.StoreError
	if !errors.As(err, &se) || se.Op != "put" {
		t.Errorf("not a *StoreError: %v", err)
	}
	if b, err := st.Get(ctx, "s"); err != nil || string(b) != "previous" {
		t.Errorf("after a failed Put: %q, %v", b, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}
