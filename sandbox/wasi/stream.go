package wasi

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
)

// sigpipeExit is the exit status of a guest killed by SIGPIPE (128+13).
const sigpipeExit = 141

// interrupted is the value a blocking host call panics with when ctx ends.
func interrupted(op string, ctx context.Context) error {
	return fmt.Errorf("wasi: %s interrupted: %w", op, ctx.Err())
}

// read reads once from e into b. It blocks as the file or stream does and
// panics with the context's error when ctx ends while it waits.
func (p *Process) read(ctx context.Context, op string, e *fdEntry, b []byte) (int, error) {
	var n int
	var err error
	if e.stream {
		n, err = readStream(ctx, e.r, b)
	} else {
		n, err = e.file.ReadContext(ctx, b)
	}
	if err != nil && err != io.EOF && ctx.Err() != nil {
		panic(interrupted(op, ctx))
	}
	return n, err
}

// write writes b to e in one call. It panics with the context's error when
// ctx ends while it waits, and with a SIGPIPE exit when the reading end of
// a pipe is gone, unless the guest ignores SIGPIPE: then the write fails
// with EPIPE.
func (p *Process) write(ctx context.Context, op string, e *fdEntry, b []byte) (int, error) {
	var n int
	var err error
	switch {
	case !e.stream:
		n, err = e.file.WriteContext(ctx, b)
	case e.w == nil:
		return len(b), nil
	default:
		n, err = writeStream(ctx, e.w, b)
	}
	if err != nil {
		if ctx.Err() != nil {
			panic(interrupted(op, ctx))
		}
		if errnoOf(err) == errnoPIPE && !p.ignoreSIGPIPE.Load() {
			panic(&wasm.ExitError{Code: sigpipeExit, Reason: "broken pipe"})
		}
	}
	return n, err
}

// longAgo is a deadline in the past, used to wake a blocked read or write.
var longAgo = time.Unix(1, 0)

type readDeadliner interface {
	io.Reader
	SetReadDeadline(time.Time) error
}

type writeDeadliner interface {
	io.Writer
	SetWriteDeadline(time.Time) error
}

func readStream(ctx context.Context, r io.Reader, b []byte) (int, error) {
	switch r := r.(type) {
	case nil:
		return 0, io.EOF
	case ContextReader:
		return r.ReadContext(ctx, b)
	case readDeadliner:
		if ctx.Done() == nil {
			return r.Read(b)
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		w := wake{set: r.SetReadDeadline}
		stop := context.AfterFunc(ctx, w.fire)
		n, err := r.Read(b)
		if !stop() {
			w.reset()
		}
		return n, err
	default:
		return r.Read(b)
	}
}

func writeStream(ctx context.Context, w io.Writer, b []byte) (int, error) {
	switch w := w.(type) {
	case ContextWriter:
		return w.WriteContext(ctx, b)
	case writeDeadliner:
		if ctx.Done() == nil {
			return w.Write(b)
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		k := wake{set: w.SetWriteDeadline}
		stop := context.AfterFunc(ctx, k.fire)
		n, err := w.Write(b)
		if !stop() {
			k.reset()
		}
		return n, err
	default:
		return w.Write(b)
	}
}

// wake moves a stream's deadline into the past when a context ends, so a
// blocked read or write returns, and puts it back afterwards so the stream
// stays usable by whoever owns it.
type wake struct {
	set  func(time.Time) error
	mu   sync.Mutex
	done bool
}

func (w *wake) fire() {
	w.mu.Lock()
	if !w.done {
		w.set(longAgo)
	}
	w.mu.Unlock()
}

// reset runs after the call when fire has started.
func (w *wake) reset() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
	w.set(time.Time{})
}
