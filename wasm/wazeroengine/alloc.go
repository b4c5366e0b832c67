package wazeroengine

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator backs guest memories with ordinary Go slices, like
// wazero's own, but with headroom: wazero grows a memory by appending a
// zeroed slice to it, which allocates, zeroes and copies the whole memory on
// every memory.grow. Go guests grow theirs a few pages at a time while the
// runtime starts, so reserving a quarter more up front and half more on each
// reallocation avoids most of those copies. Memory stays GC-managed, so a
// view kept by mistake past an instance's Close reads stale bytes rather
// than crashing the host.
type memoryAllocator struct{}

func (memoryAllocator) Allocate(capBytes, maxBytes uint64) experimental.LinearMemory {
	return &linearMemory{max: maxBytes, hint: capBytes}
}

const pageSize = 65536

type linearMemory struct {
	buf  []byte // len is the memory's size; [len:cap] is zero
	max  uint64
	hint uint64 // capacity wazero suggests for the first allocation
}

func (m *linearMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if size > uint64(cap(m.buf)) {
		c := max(size, m.hint)
		if m.buf == nil {
			c += c / 4
		} else {
			c = max(c, uint64(cap(m.buf))*3/2)
		}
		c = min((c+pageSize-1)/pageSize*pageSize, m.max)
		buf := make([]byte, len(m.buf), c)
		copy(buf, m.buf)
		m.buf = buf
	}
	m.buf = m.buf[:size]
	return m.buf[:size:size]
}

func (m *linearMemory) Free() { m.buf = nil }
