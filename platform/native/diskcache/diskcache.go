// Package diskcache keeps instrumented guest modules in a directory, so
// that a tool is instrumented once per machine rather than once per
// process: instrumenting a multi-megabyte tool takes a few hundred
// milliseconds, reading it back a few. Store implements
// sandbox.ModuleStore; package platform/native gives it to sandboxes
// with Options.CacheDir set. Trim keeps a cache directory within a size.
package diskcache

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
)

// Store is a sandbox.ModuleStore in a directory: the module instrumented
// from raw for variant is the file SHA256(raw)-variant.wasm.
type Store struct{ Dir string }

func (s Store) file(raw []byte, variant string) string {
	return filepath.Join(s.Dir, fmt.Sprintf("%x-%s.wasm", sha256.Sum256(raw), variant))
}

// Load returns the stored module, if there is one.
// A hit marks the file as used, for Trim.
func (s Store) Load(_ context.Context, raw []byte, variant string) ([]byte, bool) {
	p := s.file(raw, variant)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	touch(p)
	return b, true
}

// Store writes the module beside its place and renames it there, so a
// concurrent Load never sees half of it. The cache is an optimisation:
// failing to write it is not an error.
func (s Store) Store(_ context.Context, raw []byte, variant string, instrumented []byte) {
	if os.MkdirAll(s.Dir, 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(s.Dir, "tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(instrumented)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), s.file(raw, variant)) != nil {
		os.Remove(tmp.Name())
	}
}
