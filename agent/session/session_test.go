package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/platform/native"
	"github.com/wasmsand/wasmsand/sandbox"
)

// clock is a settable time for idle eviction.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestManySessionsAreIsolated(t *testing.T) {
	m, err := NewManager(Config{Sandbox: sandbox.Options{FSLimit: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprint("s", i)
			s, release, err := m.Acquire(ctx, id)
			if err != nil {
				errs <- err
				return
			}
			defer release()
			if err := s.Sandbox().WriteFile("/home/user/mine", []byte(id), 0o644); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if st := m.Stats(); st.Live != 50 || st.Created != 50 {
		t.Fatalf("stats %+v", st)
	}
	for i := range 50 {
		id := fmt.Sprint("s", i)
		s, release, err := m.Acquire(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Sandbox().ReadFile("/home/user/mine")
		release()
		if err != nil || string(b) != id {
			t.Fatalf("%s sees %q, %v", id, b, err)
		}
	}
}

func TestGlobalCap(t *testing.T) {
	m, err := NewManager(Config{MaxSessions: 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, r1, err := m.Acquire(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	_, r2, err := m.Acquire(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	r1()
	r2()
	if _, _, err := m.Acquire(ctx, "c"); !errors.Is(err, ErrTooManySessions) {
		t.Fatalf("third session: %v", err)
	}
	// Reusing a live session is fine.
	if _, r, err := m.Acquire(ctx, "a"); err != nil {
		t.Fatal(err)
	} else {
		r()
	}
	if err := m.End(ctx, "a", false); err != nil {
		t.Fatal(err)
	}
	if _, r, err := m.Acquire(ctx, "c"); err != nil {
		t.Fatalf("after End: %v", err)
	} else {
		r()
	}
	m.Close(ctx)
	if _, _, err := m.Acquire(ctx, "a"); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

func TestIdleEviction(t *testing.T) {
	c := &clock{t: time.Unix(1e9, 0)}
	m, err := NewManager(Config{IdleTimeout: time.Hour, now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	ctx := context.Background()
	s, release, _ := m.Acquire(ctx, "busy")
	_, r, _ := m.Acquire(ctx, "idle")
	r()
	c.add(2 * time.Hour)
	if n := m.EvictIdle(ctx); n != 1 {
		t.Fatalf("evicted %d, want 1 (the busy session stays)", n)
	}
	release()
	if _, err := s.Sandbox().Run(ctx, "true"); err != nil {
		t.Fatalf("busy session was closed: %v", err)
	}
	c.add(30 * time.Minute)
	if n := m.EvictIdle(ctx); n != 0 {
		t.Fatalf("evicted %d too early", n)
	}
	c.add(time.Hour)
	if n := m.EvictIdle(ctx); n != 1 {
		t.Fatalf("evicted %d, want 1", n)
	}
	if _, err := s.Sandbox().Run(ctx, "true"); !errors.Is(err, sandbox.ErrClosed) {
		t.Fatalf("evicted sandbox: %v", err)
	}
	if st := m.Stats(); st.Live != 0 || st.Evicted != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestPersistenceNeedsAllThree(t *testing.T) {
	if _, err := NewManager(Config{Store: native.DirStore(t.TempDir())}); err == nil {
		t.Fatal("a Store without Snapshot and Restore was accepted")
	}
}

func persistentConfig(st sandbox.Store) Config {
	return Config{
		IdleTimeout: time.Hour,
		Store:       st,
		Snapshot:    (*sandbox.Sandbox).Snapshot,
		Restore:     sandbox.Restore,
	}
}

// TestPersistentSessions evicts a session to a native.DirStore and brings
// it back, in the same Manager and in another one sharing the directory.
func TestPersistentSessions(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := &clock{t: time.Unix(1e9, 0)}
	cfg := persistentConfig(native.DirStore(dir))
	cfg.now = c.now
	m, err := NewManager(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, release, err := m.Acquire(ctx, "work")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sandbox().Run(ctx, "echo kept > f.txt; X=42; greet() { echo hello $1; }"); err != nil {
		t.Fatal(err)
	}
	release()
	c.add(2 * time.Hour)
	if n := m.EvictIdle(ctx); n != 1 {
		t.Fatalf("evicted %d, want 1", n)
	}
	check := func(m *Manager) {
		t.Helper()
		s, release, err := m.Acquire(ctx, "work")
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		r, err := s.Sandbox().Run(ctx, "read -r l < f.txt; echo $l; echo $X; greet bob")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(r.Stdout), "kept\n42\nhello bob\n"; got != want {
			t.Fatalf("restored session says %q, want %q", got, want)
		}
	}
	check(m)
	// The snapshot tool keeps the session's snapshots beside it.
	s, release, err = m.Acquire(ctx, "work")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Tools.Call(ctx, "snapshot", []byte(`{"name":"cp"}`)); err != nil {
		t.Fatal(err)
	}
	release()
	if _, err := native.DirStore(dir).Get(ctx, "work..cp"); err != nil {
		t.Fatalf("the snapshot tool's snapshot: %v", err)
	}
	if st := m.Stats(); st.Restored != 1 || st.Saved != 1 {
		t.Fatalf("stats %+v", st)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	m2, err := NewManager(persistentConfig(native.DirStore(dir)))
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close(ctx)
	check(m2)

	if err := m2.End(ctx, "work", false); err != nil {
		t.Fatal(err)
	}
	if _, err := native.DirStore(dir).Get(ctx, "work"); !errors.Is(err, sandbox.ErrNotFound) {
		t.Fatalf("after End without keep: %v", err)
	}
	for _, bad := range []string{"", "..", ".hidden", "a/b", "../../etc/passwd", "a..b"} {
		if _, _, err := m2.Acquire(ctx, bad); !errors.Is(err, ErrBadID) {
			t.Errorf("ID %q: %v", bad, err)
		}
	}
}
