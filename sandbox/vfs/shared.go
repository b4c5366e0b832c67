package vfs

import (
	"io/fs"
)

// WriteFileShared creates or replaces the regular file path with contents
// data, without copying it: the file's chunks point into data, which the
// caller must never change afterwards. Every FS may share the same data
// (a tool's read-only files placed in many sandboxes cost their bytes
// once); a write to the file copies the chunk it touches, as after Clone.
// The bytes count toward Usage and the byte limit like any file's.
func (f *FS) WriteFileShared(path string, data []byte, perm fs.FileMode) error {
	h, err := f.Open(RootIno, path, OWrite|OCreate|OTrunc, perm)
	if err != nil {
		return err
	}
	defer h.Close()
	if h.hf != nil {
		// A file in a mount is the host's: its bytes are written there.
		if _, err := h.Write(data); err != nil {
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
	if size := int64(len(data)); size > MaxFileSize {
		return &fs.PathError{Op: "write", Path: path, Err: EFBIG}
	} else if size-n.size > f.maxB-f.used {
		return &fs.PathError{Op: "write", Path: path, Err: ENOSPC}
	}
	f.truncateData(n, 0)
	chunks := make([]*chunk, 0, (len(data)+chunkSize-1)/chunkSize)
	for off := 0; off < len(data); off += chunkSize {
		end := min(off+chunkSize, len(data))
		// Generation 0 belongs to no FS (genCounter starts at 1), so the
		// chunk is read-only for all of them; the capacity is capped so
		// that no append can reach the bytes that follow.
		chunks = append(chunks, &chunk{gen: 0, data: data[off:end:end]})
	}
	n.chunks = chunks
	n.size = int64(len(data))
	f.used += n.size
	now := f.nowNano()
	n.mtime, n.ctime = now, now
	return nil
}
