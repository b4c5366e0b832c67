package wasi

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// pipeSize is the capacity of a pipe made by Process.Pipe, like Linux's.
const pipeSize = 64 << 10

// pipe is an anonymous pipe between guests: a bounded buffer whose writer
// blocks while it is full and whose reader blocks while it is empty. Each
// end is reference-counted, because a child process started with an end as
// its stdio holds it as long as the fd that named it.
type pipe struct {
	mu      sync.Mutex
	buf     []byte // ring buffer
	r, n    int    // read position and length
	readers atomic.Int32
	writers atomic.Int32
	changed chan struct{} // closed and replaced whenever state changes
}

func newPipe() *pipe {
	return &pipe{buf: make([]byte, pipeSize), changed: make(chan struct{})}
}

// wakeLocked tells waiters the state changed.
func (p *pipe) wakeLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// readiness tells poll_oneoff whether a read (or a write) would proceed
// without waiting: bytes to read or no writer left (EOF), room to write or
// no reader left (EPIPE). When it would wait, notReady is closed at the
// pipe's next change.
func (p *pipe) readiness(read bool) (n uint64, en errno, notReady <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case read && p.n > 0:
		return uint64(p.n), errnoSuccess, nil
	case read && p.writers.Load() == 0:
		return 0, errnoSuccess, nil
	case !read && (p.n < len(p.buf) || p.readers.Load() == 0):
		return uint64(len(p.buf) - p.n), errnoSuccess, nil
	}
	return 0, errnoSuccess, p.changed
}

// ready reports whether a read, or a write of n bytes, would return at
// once: there are bytes or no writer left, room for all n bytes or no
// reader left.
func (p *pipe) ready(write bool, n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if write {
		return p.readers.Load() == 0 || len(p.buf)-p.n >= n
	}
	return p.n > 0 || p.writers.Load() == 0
}

// PipeReader is the reading end of a pipe made by Process.Pipe.
type PipeReader struct{ p *pipe }

// PipeWriter is the writing end of a pipe made by Process.Pipe.
type PipeWriter struct{ p *pipe }

// ReadContext reads what is buffered, waiting while the pipe is empty and a
// writer remains. It returns io.EOF once every writer is gone.
func (r PipeReader) ReadContext(ctx context.Context, b []byte) (int, error) {
	p := r.p
	for {
		p.mu.Lock()
		if p.n > 0 {
			n := 0
			for n < len(b) && p.n > 0 {
				chunk := min(p.n, len(p.buf)-p.r, len(b)-n)
				copy(b[n:], p.buf[p.r:p.r+chunk])
				p.r = (p.r + chunk) % len(p.buf)
				p.n -= chunk
				n += chunk
			}
			p.wakeLocked()
			p.mu.Unlock()
			return n, nil
		}
		if p.writers.Load() == 0 {
			p.mu.Unlock()
			return 0, io.EOF
		}
		ch := p.changed
		p.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// Read is ReadContext without cancellation.
func (r PipeReader) Read(b []byte) (int, error) { return r.ReadContext(context.Background(), b) }

// WriteContext writes all of b, waiting while the pipe is full. With no
// reader left it fails with io.ErrClosedPipe (EPIPE to the guest).
func (w PipeWriter) WriteContext(ctx context.Context, b []byte) (int, error) {
	p := w.p
	written := 0
	for written < len(b) {
		p.mu.Lock()
		if p.readers.Load() == 0 {
			p.mu.Unlock()
			return written, io.ErrClosedPipe
		}
		if free := len(p.buf) - p.n; free > 0 {
			for free > 0 && written < len(b) {
				at := (p.r + p.n) % len(p.buf)
				chunk := min(free, len(p.buf)-at, len(b)-written)
				copy(p.buf[at:], b[written:written+chunk])
				p.n += chunk
				free -= chunk
				written += chunk
			}
			p.wakeLocked()
			p.mu.Unlock()
			continue
		}
		ch := p.changed
		p.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return written, ctx.Err()
		}
	}
	return written, nil
}

// Write is WriteContext without cancellation.
func (w PipeWriter) Write(b []byte) (int, error) { return w.WriteContext(context.Background(), b) }

// ref and unref count the holders of an end; the end closes with the last.
func (r PipeReader) ref() { r.p.readers.Add(1) }
func (r PipeReader) unref() {
	if r.p.readers.Add(-1) == 0 {
		r.p.mu.Lock()
		r.p.wakeLocked()
		r.p.mu.Unlock()
	}
}
func (w PipeWriter) ref() { w.p.writers.Add(1) }
func (w PipeWriter) unref() {
	if w.p.writers.Add(-1) == 0 {
		w.p.mu.Lock()
		w.p.wakeLocked()
		w.p.mu.Unlock()
	}
}

// refCounted is a pipe end held by fds and child processes.
type refCounted interface {
	ref()
	unref()
}

// Pipe creates a pipe and installs its ends at the two lowest free fds:
// reading first, then writing.
func (p *Process) Pipe() (rfd, wfd uint32, err error) {
	pp := newPipe()
	r, w := PipeReader{pp}, PipeWriter{pp}
	r.ref()
	w.ref()
	re := stdioEntry(r, nil, rightFdRead)
	re.end = r
	we := stdioEntry(nil, w, rightFdWrite)
	we.end = w
	rfd, en := p.alloc(re)
	if en != errnoSuccess {
		r.unref()
		w.unref()
		return 0, 0, vfs.Errno(en)
	}
	wfd, en = p.alloc(we)
	if en != errnoSuccess {
		p.closeFd(rfd)
		w.unref()
		return 0, 0, vfs.Errno(en)
	}
	return rfd, wfd, nil
}

// closeFd closes fd, as fd_close does.
func (p *Process) closeFd(fd uint32) {
	p.mu.Lock()
	var e *fdEntry
	if uint64(fd) < uint64(len(p.fds)) {
		e = p.fds[fd]
		p.fds[fd] = nil
	}
	p.mu.Unlock()
	if e != nil {
		e.release()
	}
}

// Reader returns what a child process started with fd as its standard
// input reads from, and a function to call when the child no longer needs
// it. The child shares the open file (and its offset), as after fork.
func (p *Process) Reader(fd uint32) (io.Reader, func(), error) {
	e, en := p.get(fd, rightFdRead)
	if en != errnoSuccess {
		return nil, nil, vfs.Errno(en)
	}
	if e.end != nil {
		e.end.ref()
		return e.r, e.end.unref, nil
	}
	if e.stream {
		return e.r, func() {}, nil
	}
	return e.file, func() {}, nil
}

// Writer is Reader for a child's standard output or error.
func (p *Process) Writer(fd uint32) (io.Writer, func(), error) {
	e, en := p.get(fd, rightFdWrite)
	if en != errnoSuccess {
		return nil, nil, vfs.Errno(en)
	}
	if e.end != nil {
		e.end.ref()
		return e.w, e.end.unref, nil
	}
	if e.stream {
		if e.w == nil {
			return io.Discard, func() {}, nil
		}
		return e.w, func() {}, nil
	}
	return e.file, func() {}, nil
}
