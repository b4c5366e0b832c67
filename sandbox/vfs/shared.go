package vfs

import (
	"io"
	"io/fs"
	"sync"
)

// A SharedFile is the bytes of a read-only file that any number of FS
// values may hold (WriteSharedFile) at the cost of one copy: a tool's
// files placed in many sandboxes cost their bytes once. Its bytes are a
// slice the caller never changes (SharedBytes), or lie at some offset of
// an io.ReaderAt (NewSharedFile) and are read the first time one of the
// FS values needs them (a read, a write that copies a chunk, a snapshot):
// a tool's library then costs only the files its commands open (python3
// opens a few dozen of its library's thousand).
type SharedFile struct {
	once      sync.Once
	r         io.ReaderAt
	off, size int64
	data      []byte
}

// SharedBytes returns the file whose bytes are data, which the caller must
// never change afterwards.
func SharedBytes(data []byte) *SharedFile {
	sf := &SharedFile{size: int64(len(data)), data: data}
	sf.once.Do(func() {})
	return sf
}

// NewSharedFile returns the file of the size bytes at off in r, read when
// first needed. r must not change; a read that fails leaves the bytes it
// did not give as zeros.
func NewSharedFile(r io.ReaderAt, off, size int64) *SharedFile {
	return &SharedFile{r: r, off: off, size: size}
}

// Size returns the file's size.
func (sf *SharedFile) Size() int64 { return sf.size }

// bytes returns the file's bytes, reading them the first time.
func (sf *SharedFile) bytes() []byte {
	sf.once.Do(func() {
		sf.data = make([]byte, sf.size)
		if n, _ := sf.r.ReadAt(sf.data, sf.off); n < len(sf.data) {
			clear(sf.data[max(n, 0):])
		}
		sf.r = nil
	})
	return sf.data
}

// WriteFileShared creates or replaces the regular file path with contents
// data, without copying it: WriteSharedFile of SharedBytes(data).
func (f *FS) WriteFileShared(path string, data []byte, perm fs.FileMode) error {
	return f.WriteSharedFile(path, SharedBytes(data), perm)
}

// WriteSharedFile creates or replaces the regular file path with the
// bytes of sf, which its chunks share with every other FS that holds sf;
// a write to the file copies the chunk it touches, as after Clone. The
// bytes count toward Usage and the byte limit like any file's. Where path
// is in a mount, the bytes are written to the host.
func (f *FS) WriteSharedFile(path string, sf *SharedFile, perm fs.FileMode) error {
	h, err := f.Open(RootIno, path, OWrite|OCreate|OTrunc, perm)
	if err != nil {
		return err
	}
	defer h.Close()
	if h.hf != nil {
		// A file in a mount is the host's: its bytes are written there.
		if _, err := h.Write(sf.bytes()); err != nil {
			return &fs.PathError{Op: "write", Path: path, Err: err}
		}
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	n := h.node
	if n.typ != TypeRegular {
		return &fs.PathError{Op: "write", Path: path, Err: EINVAL}
	}
	if sf.size < 0 || sf.size > MaxFileSize {
		return &fs.PathError{Op: "write", Path: path, Err: EFBIG}
	} else if sf.size-n.size > f.maxB-f.used {
		return &fs.PathError{Op: "write", Path: path, Err: ENOSPC}
	}
	f.truncateData(n, 0)
	chunks := make([]*chunk, 0, (sf.size+chunkSize-1)/chunkSize)
	for off := int64(0); off < sf.size; off += chunkSize {
		// Generation 0 belongs to no FS (genCounter starts at 1), so the
		// chunk is read-only for all of them.
		chunks = append(chunks, &chunk{gen: 0, src: sf, at: len(chunks)})
	}
	n.chunks = chunks
	n.size = sf.size
	f.used += n.size
	now := f.nowNano()
	n.mtime, n.ctime = now, now
	return nil
}
