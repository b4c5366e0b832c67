package vfs

import (
	"context"
	"io"
	"io/fs"
	"sync"
	"sync/atomic"
	"time"
)

// OpenFlag selects how Open opens a file.
type OpenFlag uint32

// Open flags. ORead and OWrite may be combined; with neither, the file is
// open for Stat, Chmod, SetTimes and ReadDir only.
const (
	ORead OpenFlag = 1 << iota
	OWrite
	OAppend
	OCreate
	OExcl
	OTrunc
	ODirectory
	ONoFollow
	ONonblock
)

// File is one open file description: an inode, an offset and flags. It is
// safe for concurrent use.
type File struct {
	fs    *FS
	node  *inode
	pipe  *pipe // FIFOs: the pipe this handle is attached to
	flags atomic.Uint32
	mu    sync.Mutex // guards off
	off   int64
	// closed is set once by Close.
	closed atomic.Bool
	hf     HostFile // regular files in a mount (mount.go)
}

// Open resolves path like Lookup (following the final symlink unless
// ONoFollow, which gives ELOOP on a final symlink) and opens it, creating a
// regular file with permission bits perm if OCreate is set and the name is
// missing. OCreate|OExcl on an existing name (even a dangling symlink):
// EEXIST; ODirectory on a non-directory: ENOTDIR; OWrite or OCreate on a
// directory: EISDIR. Reading needs the owner r bit, writing w, and every directory on
// the way x: EACCES. A file just created is opened whatever perm says.
func (f *FS) Open(base Ino, path string, flags OpenFlag, perm fs.FileMode) (*File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h, e := f.open(base, path, flags, perm)
	if e != 0 {
		return nil, pathErr("open", path, e)
	}
	return h, nil
}

func (f *FS) open(base Ino, path string, flags OpenFlag, perm fs.FileMode) (*File, Errno) {
	follow := flags&ONoFollow == 0 && flags&(OCreate|OExcl) != OCreate|OExcl
	w, e := f.walk(base, path, follow)
	if e != 0 {
		return nil, e
	}
	if w.inMount() {
		return f.hostOpen(w, flags, perm)
	}
	n := w.node
	created := false
	switch {
	case n == nil && flags&OCreate == 0:
		return nil, ENOENT
	case n == nil:
		if w.slash || flags&ODirectory != 0 {
			return nil, EISDIR
		}
		if e := f.checkCreate(w.dir); e != 0 {
			return nil, e
		}
		n = f.create(w.dir, w.name, TypeRegular, perm)
		created = true
	case flags&(OCreate|OExcl) == OCreate|OExcl:
		return nil, EEXIST
	case flags&OCreate != 0 && n.typ == TypeDir:
		return nil, EISDIR
	case n.typ == TypeSymlink:
		return nil, ELOOP
	}
	if !created {
		if e := f.checkOpen(n, flags); e != 0 {
			return nil, e
		}
		if flags&OTrunc != 0 && flags&OWrite != 0 && n.typ == TypeRegular && n.size > 0 {
			f.truncateData(n, 0)
			now := f.nowNano()
			n.mtime, n.ctime = now, now
		}
	}
	return f.newFile(n, flags), 0
}

// checkOpen checks type and permissions for opening n with flags.
func (f *FS) checkOpen(n *inode, flags OpenFlag) Errno {
	switch {
	case flags&ODirectory != 0 && n.typ != TypeDir:
		return ENOTDIR
	case n.typ == TypeDir && flags&(OWrite|OTrunc) != 0:
		return EISDIR
	case flags&ORead != 0 && !n.can(permR):
		return EACCES
	case flags&(OWrite|OTrunc) != 0 && !n.can(permW):
		return EACCES
	}
	return 0
}

// newFile opens a handle on n. f.mu is held.
func (f *FS) newFile(n *inode, flags OpenFlag) *File {
	h := &File{fs: f, node: n}
	h.flags.Store(uint32(flags &^ (OCreate | OExcl | OTrunc | ONoFollow)))
	n.open++
	if n.typ == TypeFIFO {
		if n.pipe == nil {
			n.pipe = newPipe()
		}
		n.pipe.attach(flags&ORead != 0, flags&OWrite != 0)
		h.pipe = n.pipe
	}
	return h
}

// OpenIno opens inode ino, which may be unlinked but still open elsewhere,
// with the same type and permission checks as Open. OCreate, OExcl and
// ONoFollow are ignored.
func (f *FS) OpenIno(ino Ino, flags OpenFlag) (*File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name := "#" + itoa(uint64(ino))
	n, ok := f.inode(ino)
	if !ok {
		return nil, pathErr("open", name, ENOENT)
	}
	if n.host != nil {
		h, e := f.hostOpenNode(n, flags)
		if e != 0 {
			return nil, pathErr("open", name, e)
		}
		return h, nil
	}
	if n.typ == TypeSymlink {
		return nil, pathErr("open", name, ELOOP)
	}
	if e := f.checkOpen(n, flags); e != 0 {
		return nil, pathErr("open", name, e)
	}
	if flags&OTrunc != 0 && flags&OWrite != 0 && n.typ == TypeRegular && n.size > 0 {
		f.truncateData(n, 0)
		now := f.nowNano()
		n.mtime, n.ctime = now, now
	}
	return f.newFile(n, flags), nil
}

// Ino returns the inode number of the open file.
func (h *File) Ino() Ino { return h.node.ino }

// Flags returns the flags the file is open with (OCreate, OExcl, OTrunc and
// ONoFollow are not kept).
func (h *File) Flags() OpenFlag { return OpenFlag(h.flags.Load()) }

// SetFlags changes OAppend and ONonblock to their values in flags; other
// flags are unchanged.
func (h *File) SetFlags(flags OpenFlag) {
	const mask = OAppend | ONonblock
	for {
		old := h.flags.Load()
		nw := old&^uint32(mask) | uint32(flags&mask)
		if h.flags.CompareAndSwap(old, nw) {
			return
		}
	}
}

// Read reads from the current offset; it returns io.EOF (with n == 0) at
// end of file. On a FIFO it blocks like ReadContext with a background
// context.
func (h *File) Read(p []byte) (int, error) {
	return h.ReadContext(context.Background(), p)
}

// ReadContext reads like Read. On a FIFO it blocks until data arrives, all
// writers have closed (io.EOF) or ctx is done (ctx.Err()); with ONonblock
// it returns EAGAIN instead of blocking.
func (h *File) ReadContext(ctx context.Context, p []byte) (int, error) {
	flags := h.Flags()
	if h.closed.Load() || flags&ORead == 0 {
		return 0, EBADF
	}
	n := h.node
	switch n.typ {
	case TypeRegular:
		h.mu.Lock()
		defer h.mu.Unlock()
		m, err := h.readAt(p, h.off)
		h.off += int64(m)
		return m, err
	case TypeFIFO:
		return h.pipe.read(ctx, p, flags&ONonblock != 0)
	case TypeDir:
		return 0, EISDIR
	}
	return h.readDevice(p)
}

// Ready reports whether a read, or a write of n bytes, would go ahead
// without waiting: always, but on a FIFO opened without ONonblock only
// while it has bytes to read or its writers are gone (a read), or has room
// for all n bytes or its readers are gone (a write). What it tells holds
// until another handle reads or writes the FIFO.
func (h *File) Ready(write bool, n int) bool {
	if h.node.typ != TypeFIFO || h.pipe == nil || h.Flags()&ONonblock != 0 || h.closed.Load() {
		return true
	}
	return h.pipe.ready(write, n)
}

func (h *File) readDevice(p []byte) (int, error) {
	switch h.node.dev {
	case DevNull:
		return 0, io.EOF
	case DevZero:
		clear(p)
		return len(p), nil
	case DevRandom:
		rs := h.fs.random.Load()
		rs.mu.Lock()
		defer rs.mu.Unlock()
		m, err := io.ReadFull(rs.r, p)
		if err != nil && m == 0 {
			return 0, EIO
		}
		return m, nil
	}
	return 0, ENXIO
}

// readAt reads a regular file under the FS read lock.
func (h *File) readAt(p []byte, off int64) (int, error) {
	if h.hf != nil {
		return h.hostReadAt(p, off)
	}
	f := h.fs
	f.mu.RLock()
	m := h.node.readData(p, off)
	f.mu.RUnlock()
	h.node.atime.Store(f.nowNano())
	if m == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return m, nil
}

// ReadAt reads len(p) bytes at off without moving the offset. As
// io.ReaderAt requires, it returns io.EOF when fewer than len(p) bytes
// remain. FIFOs and devices: ESPIPE.
func (h *File) ReadAt(p []byte, off int64) (int, error) {
	if h.closed.Load() || h.Flags()&ORead == 0 {
		return 0, EBADF
	}
	switch h.node.typ {
	case TypeRegular:
	case TypeDir:
		return 0, EISDIR
	default:
		return 0, ESPIPE
	}
	if off < 0 {
		return 0, EINVAL
	}
	m, err := h.readAt(p, off)
	if err == nil && m < len(p) {
		err = io.EOF
	}
	return m, err
}

// Write writes at the current offset (at the end of file with OAppend).
// Past the byte limit it writes what fits and returns n < len(p) with
// ENOSPC, as io.Writer requires; a WASI host should report n to the guest
// when n > 0, as Linux does. Not open for writing: EBADF. On a FIFO it
// blocks like WriteContext with a background context.
func (h *File) Write(p []byte) (int, error) {
	return h.WriteContext(context.Background(), p)
}

// WriteContext writes like Write. On a FIFO it blocks while the buffer is
// full until everything is written or ctx is done, and fails with EPIPE
// once every reader has closed; with ONonblock it writes what fits and
// returns EAGAIN if nothing did.
func (h *File) WriteContext(ctx context.Context, p []byte) (int, error) {
	flags := h.Flags()
	if h.closed.Load() || flags&OWrite == 0 {
		return 0, EBADF
	}
	n := h.node
	switch n.typ {
	case TypeRegular:
		if h.hf != nil {
			return h.hostWrite(p, flags)
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		f := h.fs
		f.mu.Lock()
		off := h.off
		if flags&OAppend != 0 {
			off = n.size
		}
		m, err := f.writeAt(n, p, off)
		f.mu.Unlock()
		h.off = off + int64(m)
		return m, err
	case TypeFIFO:
		return h.pipe.write(ctx, p, flags&ONonblock != 0)
	case TypeDir:
		return 0, EISDIR
	}
	switch n.dev {
	case DevNull, DevZero, DevRandom:
		return len(p), nil
	}
	return 0, ENXIO
}

// writeAt writes to a regular file with limits checked. f.mu is held.
func (f *FS) writeAt(n *inode, p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if off >= MaxFileSize {
		return 0, EFBIG
	}
	want := p
	var err error
	if end := off + int64(len(p)); end > MaxFileSize {
		p = p[:MaxFileSize-off]
		err = EFBIG
	}
	if grow := off + int64(len(p)) - n.size; grow > 0 {
		if room := f.maxB - f.used; grow > room {
			// Write what fits: bytes up to the current size cost nothing.
			fit := n.size + max(room, 0) - off
			if fit <= 0 {
				return 0, ENOSPC
			}
			p = p[:fit]
			err = ENOSPC
		}
	}
	f.writeData(n, p, off)
	now := f.nowNano()
	n.mtime, n.ctime = now, now
	if len(p) < len(want) && err == nil {
		err = ENOSPC
	}
	return len(p), err
}

// WriteAt writes p at off without moving the offset (OAppend does not
// apply). FIFOs and devices: ESPIPE.
func (h *File) WriteAt(p []byte, off int64) (int, error) {
	if h.closed.Load() || h.Flags()&OWrite == 0 {
		return 0, EBADF
	}
	switch h.node.typ {
	case TypeRegular:
	case TypeDir:
		return 0, EISDIR
	default:
		return 0, ESPIPE
	}
	if off < 0 {
		return 0, EINVAL
	}
	if h.hf != nil {
		return h.hostWriteAt(p, off)
	}
	f := h.fs
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writeAt(h.node, p, off)
}

// Seek sets the offset for the next Read or Write (io.SeekStart,
// io.SeekCurrent or io.SeekEnd) and returns it. FIFOs: ESPIPE. Devices
// always stay at 0.
func (h *File) Seek(offset int64, whence int) (int64, error) {
	if h.closed.Load() {
		return 0, EBADF
	}
	n := h.node
	switch n.typ {
	case TypeFIFO:
		return 0, ESPIPE
	case TypeCharDevice:
		return 0, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = h.off
	case io.SeekEnd:
		if h.hf != nil {
			st, err := h.hf.Stat()
			if err != nil {
				return 0, hostErrno(err)
			}
			base = st.Size
			break
		}
		h.fs.mu.RLock()
		base = n.size
		h.fs.mu.RUnlock()
	default:
		return 0, EINVAL
	}
	off := base + offset
	if off < 0 || (offset > 0 && off < base) {
		return 0, EINVAL
	}
	h.off = off
	return off, nil
}

// Truncate sets the size of the open regular file; it must be open for
// writing (EBADF otherwise).
func (h *File) Truncate(size int64) error {
	if h.closed.Load() || h.Flags()&OWrite == 0 {
		return EBADF
	}
	switch h.node.typ {
	case TypeRegular:
	case TypeDir:
		return EISDIR
	default:
		return EINVAL
	}
	f := h.fs
	f.mu.Lock()
	defer f.mu.Unlock()
	if h.hf != nil {
		if e := f.hostTruncate(h.node, h.hf, size); e != 0 {
			return e
		}
		return nil
	}
	if e := f.truncate(h.node, size); e != 0 {
		return e
	}
	return nil
}

// Stat returns the Stat of the open file's inode, which may be unlinked.
func (h *File) Stat() (Stat, error) {
	if h.closed.Load() {
		return Stat{}, EBADF
	}
	if h.node.host != nil {
		return h.hostFileStat()
	}
	h.fs.mu.RLock()
	defer h.fs.mu.RUnlock()
	return h.node.stat(), nil
}

// Chmod sets the permission bits of the open file's inode.
func (h *File) Chmod(mode fs.FileMode) error {
	if h.closed.Load() {
		return EBADF
	}
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	if h.node.host != nil {
		if e := h.fs.hostChmod(h.node, mode); e != 0 {
			return e
		}
		return nil
	}
	h.fs.chmod(h.node, mode)
	return nil
}

// SetTimes sets the access and modification times of the open file's
// inode; nil leaves one unchanged.
func (h *File) SetTimes(atime, mtime *time.Time) error {
	if h.closed.Load() {
		return EBADF
	}
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	if h.node.host != nil {
		if e := h.fs.hostSetTimes(h.node, atime, mtime); e != 0 {
			return e
		}
		return nil
	}
	h.fs.setTimes(h.node, atime, mtime)
	return nil
}

// ReadDir lists the open directory like FS.ReadDir (ENOTDIR if the file is
// not a directory). A removed directory lists as empty. The list is
// shared (the directory's kept listing): callers must not modify it.
func (h *File) ReadDir() ([]DirEntry, error) {
	if h.closed.Load() {
		return nil, EBADF
	}
	if h.node.typ != TypeDir {
		return nil, ENOTDIR
	}
	h.fs.mu.RLock()
	defer h.fs.mu.RUnlock()
	if h.node.host != nil {
		list, e := h.fs.hostReadDir(h.node)
		if e != 0 {
			return nil, e
		}
		return list, nil
	}
	if !h.node.can(permR) {
		return nil, EACCES
	}
	return h.node.dirEntries(), nil
}

// Sync does nothing: data is in memory. It fails only on a closed file.
func (h *File) Sync() error {
	if h.closed.Load() {
		return EBADF
	}
	return nil
}

// Close releases the file. An unlinked inode is freed with its last
// handle. Close is idempotent.
func (h *File) Close() error {
	if h.closed.Swap(true) {
		return nil
	}
	if h.hf != nil {
		h.hf.Close()
	}
	f := h.fs
	f.mu.Lock()
	defer f.mu.Unlock()
	n := h.node
	n.open--
	if h.pipe != nil {
		flags := h.Flags()
		h.pipe.detach(flags&ORead != 0, flags&OWrite != 0)
		if n.open == 0 && n.pipe == h.pipe && !h.pipe.awaitsReader() {
			n.pipe = nil
		}
	}
	f.maybeFree(n)
	return nil
}
