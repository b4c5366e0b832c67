package sandbox

import (
	"io"
	"sync"
)

// errOutputLimit is what guests see once a captured stream is full; the
// WASI host treats it like a closed pipe, so `yes` stops at once.
var errOutputLimit error = closedPipe("output limit reached")

// closedPipe is an error that wraps io.ErrClosedPipe. It is a type rather
// than a fmt.Errorf at init, which would run fmt's formatting (and make
// V8 compile it) at every start of the js/wasm core.
type closedPipe string

func (e closedPipe) Error() string { return string(e) + ": " + io.ErrClosedPipe.Error() }
func (e closedPipe) Unwrap() error { return io.ErrClosedPipe }

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
