package vfs

// File data lives in chunks of chunkSize bytes. Chunk i of a file covers
// bytes [i*chunkSize, (i+1)*chunkSize). A nil chunk, a chunk shorter than
// chunkSize and chunks past the end of the slice all read as zeros, so
// sparse files cost nothing for their holes.
//
// Copy-on-write: a chunk may be written in place only by the FS whose gen
// equals the chunk's gen. Clone gives both copies new generations, so every
// chunk that existed at the time becomes read-only for both, and the first
// write to it in either copy makes a private copy of that one chunk.
const chunkSize = 64 << 10

type chunk struct {
	gen  uint64
	data []byte // len <= chunkSize; bytes in [len, chunkSize) are zeros
	// src, if set, holds the chunk's bytes instead of data: chunk at of
	// a file WriteSharedFile placed. Such chunks have gen 0, so no FS
	// writes them in place.
	src *SharedFile
	at  int
}

// bytes returns the chunk's data (for a chunk of a SharedFile, reading
// the file first if no FS has yet).
func (c *chunk) bytes() []byte {
	if c.src == nil {
		return c.data
	}
	d := c.src.bytes()
	lo := min(c.at*chunkSize, len(d))
	return d[lo:min(lo+chunkSize, len(d))]
}

// length returns len(c.bytes()) without reading a SharedFile.
func (c *chunk) length() int {
	if c.src == nil {
		return len(c.data)
	}
	return int(min(max(c.src.size-int64(c.at)*chunkSize, 0), chunkSize))
}

// readData copies file bytes at off into p and returns the count, which is
// less than len(p) only at end of file. f.mu is held for reading.
func (n *inode) readData(p []byte, off int64) int {
	if off >= n.size {
		return 0
	}
	if rem := n.size - off; int64(len(p)) > rem {
		p = p[:rem]
	}
	total := len(p)
	for len(p) > 0 {
		ci := off / chunkSize
		co := int(off % chunkSize)
		k := min(len(p), chunkSize-co)
		var data []byte
		if ci < int64(len(n.chunks)) && n.chunks[ci] != nil {
			data = n.chunks[ci].bytes()
		}
		m := 0
		if co < len(data) {
			m = copy(p[:k], data[co:])
		}
		clear(p[m:k])
		p = p[k:]
		off += int64(k)
	}
	return total
}

// writeData writes p at off, growing the file if needed. The caller has
// checked limits and holds f.mu.
func (f *FS) writeData(n *inode, p []byte, off int64) {
	end := off + int64(len(p))
	for len(p) > 0 {
		ci := int(off / chunkSize)
		co := int(off % chunkSize)
		k := min(len(p), chunkSize-co)
		c := f.ownChunk(n, ci, co+k)
		copy(c.data[co:co+k], p[:k])
		p = p[k:]
		off += int64(k)
	}
	if end > n.size {
		f.used += end - n.size
		n.size = end
	}
}

// ownChunk returns chunk ci of n, private to f and at least length long.
func (f *FS) ownChunk(n *inode, ci, length int) *chunk {
	if ci >= len(n.chunks) {
		if ci < cap(n.chunks) {
			n.chunks = n.chunks[:ci+1]
		} else {
			n.chunks = append(n.chunks, make([]*chunk, ci+1-len(n.chunks))...)
		}
	}
	c := n.chunks[ci]
	switch {
	case c == nil:
		capacity := chunkCap(length, 0)
		if ci > 0 {
			// The file is already past one chunk: this one will likely
			// fill up too.
			capacity = chunkSize
		}
		c = &chunk{gen: f.gen, data: make([]byte, length, capacity)}
		n.chunks[ci] = c
		return c
	case c.gen != f.gen:
		// Shared with a clone, or among every FS: copy it.
		old := c.bytes()
		nc := &chunk{gen: f.gen, data: make([]byte, max(length, len(old)), chunkCap(max(length, len(old)), 0))}
		copy(nc.data, old)
		n.chunks[ci] = nc
		return nc
	}
	if length > len(c.data) {
		if length <= cap(c.data) {
			old := len(c.data)
			c.data = c.data[:length]
			clear(c.data[old:]) // may hold bytes from before a truncate
		} else {
			nd := make([]byte, length, chunkCap(length, cap(c.data)))
			copy(nd, c.data)
			c.data = nd
		}
	}
	return c
}

// chunkCap is the capacity to allocate for a chunk of length bytes that
// had capacity old: doubling, so appends are amortized O(1), up to
// chunkSize.
func chunkCap(length, old int) int {
	c := max(2*old, length, 512)
	return min(c, chunkSize)
}

// truncateData sets n's size, zeroing or dropping data past it. The caller
// has checked limits and holds f.mu.
func (f *FS) truncateData(n *inode, size int64) {
	if size < n.size {
		keep := int((size + chunkSize - 1) / chunkSize) // chunks that hold bytes below size
		if keep < len(n.chunks) {
			clear(n.chunks[keep:])
			n.chunks = n.chunks[:keep]
		}
		if co := int(size % chunkSize); co != 0 && keep > 0 && keep <= len(n.chunks) {
			ci := keep - 1
			if c := n.chunks[ci]; c != nil && c.length() > co {
				if c.gen == f.gen {
					c.data = c.data[:co]
				} else {
					nd := make([]byte, co)
					copy(nd, c.bytes())
					n.chunks[ci] = &chunk{gen: f.gen, data: nd}
				}
			}
		}
	}
	f.used += size - n.size
	n.size = size
}
