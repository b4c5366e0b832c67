package sandbox

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// errOutputLimit is what guests see once a captured stream is full; the
// WASI host treats it like a closed pipe, so `yes` stops at once.
var errOutputLimit = fmt.Errorf("output limit reached: %w", io.ErrClosedPipe)

// capture collects one output stream of a Run up to a limit, optionally
// forwarding everything it keeps to a user writer as it arrives. Several
// goroutines (pipeline stages, background jobs) may write at once.
type capture struct {
	mu        sync.Mutex
	buf       []byte
	limit     int64
	truncated bool
	forward   io.Writer
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.truncated {
		return 0, errOutputLimit
	}
	room := c.limit - int64(len(c.buf))
	keep := p
	if int64(len(p)) > room {
		keep = p[:room]
		c.truncated = true
	}
	c.buf = append(c.buf, keep...)
	if c.forward != nil && len(keep) > 0 {
		// A failing user writer must not break the command.
		_, _ = c.forward.Write(keep)
	}
	if c.truncated {
		return len(keep), errOutputLimit
	}
	return len(p), nil
}

func (c *capture) result() ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf, c.truncated
}

// limitWriter caps what one process may write to a destination that would
// otherwise grow without bound in the host — a command substitution's
// buffer, for `x=$(yes)`.
type limitWriter struct {
	w    io.Writer
	left int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errOutputLimit
	}
	if int64(len(p)) > l.left {
		n, _ := l.w.Write(p[:l.left])
		l.left = 0
		return n, errOutputLimit
	}
	n, err := l.w.Write(p)
	l.left -= int64(n)
	return n, err
}

// bounded returns w unchanged when writing to it is already bounded
// (pipes, files, the Run's captured output) and limited to limit bytes
// otherwise.
func bounded(w io.Writer, limit int64) io.Writer {
	switch w.(type) {
	case nil, *os.File, *capture, vfsFile, stdio, *limitWriter:
		return w
	}
	if w == io.Discard {
		return w
	}
	return &limitWriter{w: w, left: limit}
}
