package wazeroengine

import (
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// Guest memories are ordinary Go slices, like wazero's own, but with
// headroom: wazero grows a memory by appending a zeroed slice to it, which
// allocates, zeroes and copies the whole memory on every memory.grow. Go
// guests grow theirs a few pages at a time while the runtime starts, so
// reserving a quarter more up front and half more on each reallocation
// avoids most of those copies. Memory stays GC-managed, so a view kept by
// mistake past an instance's Close never crashes the host.
//
// A closed instance's memory is recycled for the next instance of the same
// module (see memPool): allocating and zeroing a fresh buffer for every
// process was a third of the cost of starting a pre-initialised tool.

const pageSize = 65536

// Bounds on the memories kept for reuse.
const (
	maxPooledPerModule = 4
	maxPooledBytes     = 64 << 20 // per engine, as in the js engine
)

// memPool keeps the memories of closed instances of one module. A memory
// goes back only if its instance started (so every data segment was
// written) and no call was running in it when it was closed; it is zeroed
// on the way in wherever the data segments will not write it again, and a
// memory that grew is cut back to the module's initial size (its buffer
// keeps its capacity, so the next instance grows into it without a copy):
// the next instance sees exactly the module's initial image.
type memPool struct {
	budget *atomic.Int64 // the engine's pooled bytes
	size   uint64        // the module's initial memory size in bytes
	dirty  []uint32      // binary.DirtyRanges of the module for size

	mu     sync.Mutex
	free   []*linearMemory
	held   int // len(free) plus memories being zeroed on their way in
	closed bool
}

// newMemPool returns a pool for the module bin, or nil when its memories
// cannot be recycled: it must define exactly one memory (and import none).
func newMemPool(bin []byte, budget *atomic.Int64) *memPool {
	m, err := binary.Decode(bin)
	if err != nil || len(m.Memories) != 1 || m.NumImported(binary.ExternMemory) != 0 {
		return nil
	}
	size := uint64(m.Memories[0].Min) * pageSize
	if size >= 1<<32 {
		return nil
	}
	return &memPool{budget: budget, size: size, dirty: binary.DirtyRanges(m, uint32(size))}
}

// take returns a pooled memory of limit max, or nil.
func (p *memPool) take(max uint64) *linearMemory {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.free)
	if n == 0 || p.free[n-1].max != max {
		return nil
	}
	m := p.free[n-1]
	p.free[n-1] = nil
	p.free = p.free[:n-1]
	p.held--
	p.budget.Add(-int64(cap(m.buf)))
	m.keep.Store(false)
	return m
}

// put offers m to the pool; it reports whether m was kept.
func (p *memPool) put(m *linearMemory) bool {
	c := int64(cap(m.buf))
	p.mu.Lock()
	if p.closed || p.held >= maxPooledPerModule {
		p.mu.Unlock()
		return false
	}
	if p.budget.Add(c) > maxPooledBytes {
		p.budget.Add(-c)
		p.mu.Unlock()
		return false
	}
	p.held++
	p.mu.Unlock()

	for k := 0; k+1 < len(p.dirty); k += 2 {
		clear(m.buf[p.dirty[k]:p.dirty[k+1]])
	}
	clear(m.buf[p.size:])
	m.buf = m.buf[:p.size]

	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		p.held--
		p.budget.Add(-c)
		return false
	}
	p.free = append(p.free, m)
	return true
}

// close drops the pooled memories; later puts are refused.
func (p *memPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, m := range p.free {
		p.budget.Add(-int64(cap(m.buf)))
		m.buf = nil
	}
	p.held -= len(p.free)
	p.free = nil
}

// allocator serves one instantiation: it takes a memory from pool when it
// has one and remembers the memory it handed out, for the instance.
type allocator struct {
	pool *memPool // nil: never recycle
	mem  *linearMemory
}

func (a *allocator) Allocate(capBytes, maxBytes uint64) experimental.LinearMemory {
	var m *linearMemory
	if a.pool != nil {
		m = a.pool.take(maxBytes)
	}
	if m == nil {
		m = &linearMemory{max: maxBytes, hint: capBytes, pool: a.pool}
	}
	a.mem = m
	return m
}

type linearMemory struct {
	buf  []byte // len is the memory's size; [len:cap] is zero
	max  uint64
	hint uint64   // capacity wazero suggests for the first allocation
	pool *memPool // where Free returns the memory; nil: nowhere

	keep atomic.Bool // set by the instance's Close: recycle on Free
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

// Free gives the memory back to its pool when the instance allowed it,
// else to the GC.
func (m *linearMemory) Free() {
	if m.keep.Load() && m.pool != nil && uint64(len(m.buf)) >= m.pool.size && m.pool.put(m) {
		return
	}
	m.buf = nil
}
