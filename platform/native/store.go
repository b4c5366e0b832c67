package native

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/sandbox"
)

// snapshotExt ends the file names of a DirStore.
const snapshotExt = ".wsbx"

// DirStore returns a Store keeping each snapshot as the file NAME.wsbx
// in dir, which it creates if needed. Put writes a temporary file in dir,
// syncs it and renames it over the old one.
func DirStore(dir string) sandbox.Store { return dirStore{dir} }

type dirStore struct{ dir string }

func (d dirStore) path(name string) string { return filepath.Join(d.dir, name+snapshotExt) }

func storeErr(op, name string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = fmt.Errorf("%w (%v)", sandbox.ErrNotFound, err)
	case isQuota(err):
		err = fmt.Errorf("%w (%v)", sandbox.ErrQuota, err)
	}
	return &sandbox.StoreError{Op: op, Name: name, Err: err}
}

func isQuota(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EFBIG)
}

func (d dirStore) Put(ctx context.Context, name string, data []byte) error {
	if err := sandbox.CheckName(name); err != nil {
		return &sandbox.StoreError{Op: "put", Name: name, Err: err}
	}
	if err := ctx.Err(); err != nil {
		return &sandbox.StoreError{Op: "put", Name: name, Err: err}
	}
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return storeErr("put", name, err)
	}
	f, err := os.CreateTemp(d.dir, "."+name+".tmp-*")
	if err != nil {
		return storeErr("put", name, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, d.path(name))
	}
	if err != nil {
		os.Remove(tmp)
		return storeErr("put", name, err)
	}
	if dir, err := os.Open(d.dir); err == nil {
		dir.Sync()
		dir.Close()
	}
	return nil
}

func (d dirStore) Get(ctx context.Context, name string) ([]byte, error) {
	if err := sandbox.CheckName(name); err != nil {
		return nil, &sandbox.StoreError{Op: "get", Name: name, Err: err}
	}
	b, err := os.ReadFile(d.path(name))
	if err != nil {
		return nil, storeErr("get", name, err)
	}
	return b, nil
}

func (d dirStore) List(ctx context.Context) ([]sandbox.StoreEntry, error) {
	ents, err := os.ReadDir(d.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, storeErr("list", "", err)
	}
	var out []sandbox.StoreEntry
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), snapshotExt)
		if !ok || !e.Type().IsRegular() || sandbox.CheckName(name) != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, sandbox.StoreEntry{Name: name, Size: info.Size(), Modified: info.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (d dirStore) Delete(ctx context.Context, name string) error {
	if err := sandbox.CheckName(name); err != nil {
		return &sandbox.StoreError{Op: "delete", Name: name, Err: err}
	}
	if err := os.Remove(d.path(name)); err != nil {
		return storeErr("delete", name, err)
	}
	return nil
}
