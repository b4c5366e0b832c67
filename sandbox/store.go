package sandbox

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Store keeps snapshots by name: a directory on disk (package
// platform/native's DirStore), an S3-compatible bucket (package s3store),
// files through Node's fs or IndexedDB in the browser (the js/wasm
// build), or anything else that can hold bytes.
//
// Put must be atomic: it writes the new bytes beside the old ones and
// swaps them in only once they are complete, so a failed Put leaves the
// previous snapshot of that name as it was. A Put that fails for lack of
// space returns an error that matches ErrQuota (errors.Is). Get and
// Delete of an unknown name return an error matching ErrNotFound.
type Store interface {
	Put(ctx context.Context, name string, data []byte) error
	Get(ctx context.Context, name string) ([]byte, error)
	List(ctx context.Context) ([]StoreEntry, error)
	Delete(ctx context.Context, name string) error
}

// StoreEntry describes one stored snapshot.
type StoreEntry struct {
	Name     string
	Size     int64
	Modified time.Time
}

// Errors of stores.
var (
	ErrNotFound = errors.New("no such snapshot")
	ErrQuota    = errors.New("storage quota exceeded")
	ErrNoStore  = errors.New("sandbox: no Options.Store to save to or load from")
)

// StoreError is a failed store operation.
type StoreError struct {
	Op   string // "put", "get", "list" or "delete"; other stores may add theirs (s3store: "create bucket")
	Name string
	Err  error // matches ErrQuota or ErrNotFound when that is the cause
}

func (e *StoreError) Error() string {
	if e.Name == "" {
		return "sandbox: store " + e.Op + ": " + e.Err.Error()
	}
	return "sandbox: store " + e.Op + " " + e.Name + ": " + e.Err.Error()
}

func (e *StoreError) Unwrap() error { return e.Err }

// CheckName reports whether name can name a stored snapshot: 1 to 128
// bytes of letters, digits, '.', '_' and '-', not starting with '.'.
func CheckName(name string) error {
	if name == "" || len(name) > 128 || name[0] == '.' {
		return fmt.Errorf("sandbox: bad snapshot name %q", name)
	}
	for _, c := range []byte(name) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("sandbox: bad snapshot name %q (letters, digits, '.', '_' and '-' only)", name)
		}
	}
	return nil
}

// Save snapshots the sandbox into Options.Store under name. It waits for
// a Run in progress to end.
func (s *Sandbox) Save(ctx context.Context, name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	if s.opts.Store == nil {
		return ErrNoStore
	}
	s.runMu.Lock()
	if s.closed.Load() {
		s.runMu.Unlock()
		return ErrClosed
	}
	b := s.snapshotLocked()
	s.runMu.Unlock()
	return s.opts.Store.Put(ctx, name, b)
}

// Load restores the sandbox saved in opts.Store under name, as Restore
// does with opts.
func Load(ctx context.Context, name string, opts Options) (*Sandbox, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	if opts.Store == nil {
		return nil, ErrNoStore
	}
	b, err := opts.Store.Get(ctx, name)
	if err != nil {
		return nil, err
	}
	return Restore(ctx, b, opts)
}

// newPersistent is New with Options.Persist: the sandbox saved under
// that name if there is one, else a fresh one.
func newPersistent(ctx context.Context, opts Options) (*Sandbox, bool, error) {
	if opts.Persist == "" {
		return nil, false, nil
	}
	if err := CheckName(opts.Persist); err != nil {
		return nil, true, err
	}
	if opts.Store == nil {
		return nil, true, ErrNoStore
	}
	b, err := opts.Store.Get(ctx, opts.Persist)
	if errors.Is(err, ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	s, err := Restore(ctx, b, opts)
	return s, true, err
}

// persist saves the sandbox after a Run when Options.Persist is set. The
// caller holds runMu.
func (s *Sandbox) persist(ctx context.Context) error {
	if s.opts.Persist == "" || s.opts.Store == nil {
		return nil
	}
	return s.opts.Store.Put(context.WithoutCancel(ctx), s.opts.Persist, s.snapshotLocked())
}
