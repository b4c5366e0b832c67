package sandbox

import (
	"context"
	"errors"
	"sync"
	"testing"
)

func TestPersist(t *testing.T) {
	ctx := context.Background()
	st := &memStore{m: map[string][]byte{}}
	opts := Options{Store: st, Persist: "work"}
	sb, err := New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	run(t, sb, `echo data > f; v=kept; fn() { echo "fn $v"; }`)
	sb.Close()
	sb, err = New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if res := run(t, sb, `read -r l < f; echo $l; fn`); string(res.Stdout) != "data\nfn kept\n" {
		t.Errorf("resumed sandbox: %q %q", res.Stdout, res.Stderr)
	}
	if err := sb.Save(ctx, "copy"); err != nil {
		t.Fatal(err)
	}
	c, err := Load(ctx, "copy", Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.GetEnv("v") != "kept" {
		t.Errorf("loaded v = %q", c.GetEnv("v"))
	}
	if _, err := Load(ctx, "nothing", Options{Store: st}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load of nothing: %v", err)
	}
	if _, err := Load(ctx, "copy", Options{}); !errors.Is(err, ErrNoStore) {
		t.Errorf("Load without a store: %v", err)
	}
}

// memStore is a Store in memory, for the tests of Save, Load and Persist
// (platform/native's DirStore has tests of its own).
type memStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memStore) Put(_ context.Context, name string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[name] = append([]byte(nil), data...)
	return nil
}

func (s *memStore) Get(_ context.Context, name string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[name]
	if !ok {
		return nil, &StoreError{Op: "get", Name: name, Err: ErrNotFound}
	}
	return b, nil
}

func (s *memStore) List(context.Context) ([]StoreEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []StoreEntry
	for name, b := range s.m {
		out = append(out, StoreEntry{Name: name, Size: int64(len(b))})
	}
	return out, nil
}

func (s *memStore) Delete(_ context.Context, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[name]; !ok {
		return &StoreError{Op: "delete", Name: name, Err: ErrNotFound}
	}
	delete(s.m, name)
	return nil
}
