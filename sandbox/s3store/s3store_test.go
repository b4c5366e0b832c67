package s3store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/s3store"
	"github.com/wasmsand/wasmsand/sandbox/s3store/miniotest"
)

func TestStore(t *testing.T) {
	srv := miniotest.Start(t)
	ctx := context.Background()
	st := s3store.New(srv.Client(t), "snaps", "team/a/")
	if err := st.CreateBucket(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateBucket(ctx); err != nil {
		t.Fatalf("second CreateBucket: %v", err)
	}
	if _, err := st.Get(ctx, "x"); !errors.Is(err, sandbox.ErrNotFound) {
		t.Fatalf("get missing: %v", err)
	}
	if err := st.Delete(ctx, "x"); !errors.Is(err, sandbox.ErrNotFound) {
		t.Fatalf("delete missing: %v", err)
	}
	if l, err := st.List(ctx); err != nil || len(l) != 0 {
		t.Fatalf("empty list: %v %v", l, err)
	}
	for _, name := range []string{"b", "a", "a"} {
		if err := st.Put(ctx, name, []byte("data of "+name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Put(ctx, "a", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, err := st.Get(ctx, "a"); err != nil || string(b) != "new" {
		t.Fatalf("get: %q %v", b, err)
	}
	// Another prefix of the same bucket is another store.
	other := s3store.New(srv.Client(t), "snaps", "team/b/")
	if err := other.Put(ctx, "c", []byte("c")); err != nil {
		t.Fatal(err)
	}
	l, err := st.List(ctx)
	if err != nil || len(l) != 2 || l[0].Name != "a" || l[0].Size != 3 || l[1].Name != "b" || l[0].Modified.IsZero() {
		t.Fatalf("list: %+v %v", l, err)
	}
	if err := st.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, "a"); !errors.Is(err, sandbox.ErrNotFound) {
		t.Fatalf("get deleted: %v", err)
	}
	for _, bad := range []string{"", ".x", "a/b", "../b"} {
		if err := st.Put(ctx, bad, nil); err == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
	// A missing bucket is an error, and not ErrNotFound.
	if _, err := s3store.New(srv.Client(t), "nobucket", "").Get(ctx, "a"); err == nil || errors.Is(err, sandbox.ErrNotFound) {
		t.Fatalf("missing bucket: %v", err)
	}
}

// TestSandboxRoundTrip saves a real sandbox to MinIO and restores it.
func TestSandboxRoundTrip(t *testing.T) {
	srv := miniotest.Start(t)
	srv.MakeBucket(t, "sbx")
	ctx := context.Background()
	st := s3store.New(srv.Client(t), "sbx", "")
	sb, err := sandbox.New(ctx, sandbox.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Run(ctx, "echo hi > /tmp/f; V=7"); err != nil {
		t.Fatal(err)
	}
	if err := sb.Save(ctx, "one"); err != nil {
		t.Fatal(err)
	}
	sb.Close()
	sb2, err := sandbox.Load(ctx, "one", sandbox.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	defer sb2.Close()
	r, err := sb2.Run(ctx, "read -r l < /tmp/f; echo $l $V")
	if err != nil || string(r.Stdout) != "hi 7\n" {
		t.Fatalf("%q %v", r.Stdout, err)
	}
}
