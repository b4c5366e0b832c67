package vfs

import (
	"errors"
	"io"
	"io/fs"
	"path"
)

// IOFS returns a read-only io/fs view of f rooted at "/". It implements
// fs.ReadDirFS, fs.StatFS, fs.ReadFileFS and fs.ReadLinkFS, follows
// symlinks like os.DirFS, and checks permissions as the sandbox user. FIFOs
// open non-blocking.
func (f *FS) IOFS() fs.FS { return ioFS{f} }

type ioFS struct{ f *FS }

var (
	_ fs.ReadDirFS  = ioFS{}
	_ fs.StatFS     = ioFS{}
	_ fs.ReadFileFS = ioFS{}
	_ fs.ReadLinkFS = ioFS{}
)

// abs maps an io/fs name to an absolute VFS path.
func abs(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return "/", nil
	}
	return "/" + name, nil
}

// rename puts the io/fs name into an error from the FS.
func rename(err error, op, name string) error {
	var e Errno
	if errors.As(err, &e) {
		return &fs.PathError{Op: op, Path: name, Err: e}
	}
	return err
}

func (v ioFS) Open(name string) (fs.File, error) {
	p, err := abs("open", name)
	if err != nil {
		return nil, err
	}
	st, err := v.f.Stat(RootIno, p, true)
	if err != nil {
		return nil, rename(err, "open", name)
	}
	flags := ORead
	if st.Type == TypeFIFO {
		flags |= ONonblock
	}
	h, err := v.f.OpenIno(st.Ino, flags)
	if err != nil {
		return nil, rename(err, "open", name)
	}
	base := path.Base(name)
	if name == "." {
		base = "."
	}
	if st.Type == TypeDir {
		return &ioDir{h: h, name: base}, nil
	}
	return &ioFile{h: h, name: base}, nil
}

func (v ioFS) Stat(name string) (fs.FileInfo, error) {
	return v.stat("stat", name, true)
}

func (v ioFS) Lstat(name string) (fs.FileInfo, error) {
	return v.stat("lstat", name, false)
}

func (v ioFS) stat(op, name string, follow bool) (fs.FileInfo, error) {
	p, err := abs(op, name)
	if err != nil {
		return nil, err
	}
	st, err := v.f.Stat(RootIno, p, follow)
	if err != nil {
		return nil, rename(err, op, name)
	}
	return st.FileInfo(path.Base(name)), nil
}

func (v ioFS) ReadLink(name string) (string, error) {
	p, err := abs("readlink", name)
	if err != nil {
		return "", err
	}
	t, err := v.f.Readlink(RootIno, p)
	return t, rename(err, "readlink", name)
}

func (v ioFS) ReadFile(name string) ([]byte, error) {
	p, err := abs("readfile", name)
	if err != nil {
		return nil, err
	}
	b, err := v.f.ReadFile(p)
	return b, rename(err, "readfile", name)
}

func (v ioFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := abs("readdir", name)
	if err != nil {
		return nil, err
	}
	list, err := v.f.ReadDir(RootIno, p)
	if err != nil {
		return nil, rename(err, "readdir", name)
	}
	out := make([]fs.DirEntry, len(list))
	for i, e := range list {
		out[i] = ioDirEntry{v.f, e}
	}
	return out, nil
}

type ioDirEntry struct {
	f *FS
	e DirEntry
}

func (d ioDirEntry) Name() string      { return d.e.Name }
func (d ioDirEntry) IsDir() bool       { return d.e.Type == TypeDir }
func (d ioDirEntry) Type() fs.FileMode { return d.e.Type.fsMode() }
func (d ioDirEntry) String() string    { return fs.FormatDirEntry(d) }
func (d ioDirEntry) Info() (fs.FileInfo, error) {
	st, err := d.f.StatIno(d.e.Ino)
	if err != nil {
		return nil, rename(err, "stat", d.e.Name)
	}
	return st.FileInfo(d.e.Name), nil
}

// ioFile is a non-directory opened through IOFS.
type ioFile struct {
	h    *File
	name string
}

func (f *ioFile) Stat() (fs.FileInfo, error) {
	st, err := f.h.Stat()
	if err != nil {
		return nil, f.err("stat", err)
	}
	return st.FileInfo(f.name), nil
}

func (f *ioFile) Read(p []byte) (int, error) {
	n, err := f.h.Read(p)
	return n, f.err("read", err)
}

func (f *ioFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.h.ReadAt(p, off)
	return n, f.err("read", err)
}

func (f *ioFile) Seek(off int64, whence int) (int64, error) {
	n, err := f.h.Seek(off, whence)
	return n, f.err("seek", err)
}

func (f *ioFile) Close() error { return f.err("close", f.h.Close()) }

// err passes io.EOF through and wraps errnos in a PathError.
func (f *ioFile) err(op string, err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	if f.h.closed.Load() && op != "close" {
		return &fs.PathError{Op: op, Path: f.name, Err: fs.ErrClosed}
	}
	return &fs.PathError{Op: op, Path: f.name, Err: err}
}

// ioDir is a directory opened through IOFS; it implements fs.ReadDirFile.
type ioDir struct {
	h       *File
	name    string
	entries []DirEntry // listed on the first ReadDir
	listed  bool
	pos     int
}

func (d *ioDir) Stat() (fs.FileInfo, error) {
	st, err := d.h.Stat()
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: d.name, Err: fs.ErrClosed}
	}
	return st.FileInfo(d.name), nil
}

func (d *ioDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: EISDIR}
}

func (d *ioDir) Close() error { return d.h.Close() }

func (d *ioDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.listed {
		list, err := d.h.ReadDir()
		if err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: d.name, Err: err}
		}
		d.entries, d.listed = list, true
	}
	rest := d.entries[d.pos:]
	if n > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(n, len(rest))]
	}
	d.pos += len(rest)
	out := make([]fs.DirEntry, len(rest))
	for i, e := range rest {
		out[i] = ioDirEntry{d.h.fs, e}
	}
	return out, nil
}
