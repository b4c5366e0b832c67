package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// ErrNotFound is returned by a Store that has no snapshot for an ID.
var ErrNotFound = errors.New("session: not found")

// Store keeps session snapshots by session ID. Implementations must be safe
// for concurrent use; Save replaces a snapshot as a whole (a reader sees
// the old bytes or the new, never a mix).
type Store interface {
	Load(ctx context.Context, id string) ([]byte, error) // ErrNotFound if absent
	Save(ctx context.Context, id string, snapshot []byte) error
	Delete(ctx context.Context, id string) error // ErrNotFound if absent
}

// DirStore is a Store of files in a host directory, one per session.
type DirStore struct {
	Dir string
}

// validID is what a session ID may be to name a file: MCP session IDs are
// visible ASCII; this is narrower, and safe as a file name.
var validID = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,200}$`)

func (d DirStore) file(id string) (string, error) {
	if !validID.MatchString(id) || id == "." || id == ".." {
		return "", fmt.Errorf("session: ID %q cannot name a file", id)
	}
	return filepath.Join(d.Dir, id+".snapshot"), nil
}

// Load reads the snapshot of id.
func (d DirStore) Load(ctx context.Context, id string) ([]byte, error) {
	name, err := d.file(id)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return b, err
}

// Save writes the snapshot of id through a temporary file and a rename.
func (d DirStore) Save(ctx context.Context, id string, snapshot []byte) error {
	name, err := d.file(id)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(d.Dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(d.Dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(snapshot)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Delete removes the snapshot of id.
func (d DirStore) Delete(ctx context.Context, id string) error {
	name, err := d.file(id)
	if err != nil {
		return err
	}
	err = os.Remove(name)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return err
}
