package vfs

import (
	"context"
	"io"
	"sync"
)

// pipe is the buffer behind a FIFO while it is open. It has its own lock
// so that blocked readers and writers never hold the FS lock.
type pipe struct {
	mu                   sync.Mutex
	buf                  []byte // ring of at most PipeBuf bytes, grown as writes need (see grow)
	start, n             int    // ring read position and fill
	readers, writers     int
	hadReader, hadWriter bool
	// wake is closed and replaced whenever the state changes, waking
	// everyone blocked on it.
	wake chan struct{}
}

func newPipe() *pipe { return &pipe{wake: make(chan struct{})} }

// broadcast wakes all waiters. p.mu is held.
func (p *pipe) broadcast() {
	close(p.wake)
	p.wake = make(chan struct{})
}

func (p *pipe) attach(r, w bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r {
		p.readers++
		p.hadReader = true
	}
	if w {
		p.writers++
		p.hadWriter = true
	}
	p.broadcast()
}

func (p *pipe) detach(r, w bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r {
		p.readers--
	}
	if w {
		p.writers--
	}
	p.broadcast()
}

// awaitsReader reports whether writers have come and gone without a
// reader ever opening the pipe. Opening a FIFO does not wait for the other
// end here, as it does under a real kernel, so `cmd > fifo &` may finish
// before `cat < fifo` opens it: the pipe, with what was written and the
// end-of-file after it, stays with the FIFO for that reader.
func (p *pipe) awaitsReader() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hadWriter && !p.hadReader
}

// wait blocks until ch is closed or ctx is done.
func wait(ctx context.Context, ch chan struct{}) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// read copies buffered bytes into b, blocking while the pipe is empty and
// a writer may still come.
func (p *pipe) read(ctx context.Context, b []byte, nonblock bool) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		p.mu.Lock()
		if p.n > 0 {
			m := 0
			for m < len(b) && p.n > 0 {
				end := min(p.start+p.n, len(p.buf))
				k := copy(b[m:], p.buf[p.start:end])
				m += k
				p.start = (p.start + k) % len(p.buf)
				p.n -= k
			}
			if p.n == 0 {
				p.start = 0
			}
			p.broadcast()
			p.mu.Unlock()
			return m, nil
		}
		if p.hadWriter && p.writers == 0 {
			p.mu.Unlock()
			return 0, io.EOF
		}
		if nonblock {
			p.mu.Unlock()
			return 0, EAGAIN
		}
		ch := p.wake
		p.mu.Unlock()
		if err := wait(ctx, ch); err != nil {
			return 0, err
		}
	}
}

// ready reports whether read, or write with n bytes, would return at once.
func (p *pipe) ready(write bool, n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if write {
		return n == 0 || p.hadReader && p.readers == 0 || PipeBuf-p.n >= n
	}
	return p.n > 0 || p.hadWriter && p.writers == 0
}

// write copies b into the buffer, blocking while it is full, until all of
// b is written. Like every short write in this package, a partial write
// returns its count with an error (EAGAIN, EPIPE or ctx.Err()).
func (p *pipe) write(ctx context.Context, b []byte, nonblock bool) (int, error) {
	total := 0
	for {
		p.mu.Lock()
		if p.hadReader && p.readers == 0 {
			p.mu.Unlock()
			return total, EPIPE
		}
		if len(b) == 0 {
			p.mu.Unlock()
			return total, nil
		}
		if p.n < PipeBuf {
			p.grow(len(b))
			for len(b) > 0 && p.n < len(p.buf) {
				w := (p.start + p.n) % len(p.buf)
				end := len(p.buf)
				if w < p.start {
					end = p.start
				}
				k := copy(p.buf[w:end], b)
				b = b[k:]
				p.n += k
				total += k
			}
			p.broadcast()
			p.mu.Unlock()
			continue
		}
		if nonblock {
			p.mu.Unlock()
			return total, EAGAIN
		}
		ch := p.wake
		p.mu.Unlock()
		if err := wait(ctx, ch); err != nil {
			return total, err
		}
	}
}

// minPipeRing is the ring a pipe starts with: most pipes carry a few
// lines (echo a | tr a b), and a ring of PipeBuf bytes made for each was
// a third of the bytes a shell loop of such pipelines allocated.
const minPipeRing = 512

// grow makes room in the ring for n more bytes, up to PipeBuf in all,
// moving what is buffered to the start of a larger ring. The capacity a
// writer sees is PipeBuf whatever the ring's size. p.mu is held.
func (p *pipe) grow(n int) {
	want := min(p.n+n, PipeBuf)
	if want <= len(p.buf) {
		return
	}
	size := max(len(p.buf), minPipeRing)
	for size < want {
		size *= 2
	}
	buf := make([]byte, min(size, PipeBuf))
	k := copy(buf, p.buf[p.start:min(p.start+p.n, len(p.buf))])
	copy(buf[k:], p.buf[:p.n-k])
	p.buf, p.start = buf, 0
}

// Pipe makes an anonymous pipe: a FIFO inode with no name, open once for
// reading and once for writing. It lives as long as either end is open.
// Reads wait for data and see EOF once the write end is closed; writes
// fail with EPIPE once the read end is closed. The shell's pipelines and
// process substitutions use it, so guests see their standard streams as
// FIFOs, as they would under a real kernel.
func (f *FS) Pipe() (r, w *File) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.newInode(TypeFIFO, 0o600, f.nowNano())
	n.nlink = 0
	r = f.newFile(n, ORead)
	w = f.newFile(n, OWrite)
	return r, w
}
