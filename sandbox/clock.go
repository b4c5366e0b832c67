package sandbox

import (
	"context"
	"sync"
	"time"
)

// virtualClock is a guest's monotonic clock when the sandbox runs with an
// injected Clock: it starts at zero, moves forward a microsecond at each
// read and by exactly the requested time at each sleep, so a guest's view
// of elapsed time — and with it the Go runtime's scheduling and garbage
// collection pacing, and so the fuel a program uses — repeats exactly.
// Sleeps still take real time, so `sleep 1` behaves as expected.
type virtualClock struct {
	mu  sync.Mutex
	now int64
}

// readTick is how far each read moves the clock, so code that waits for
// the clock to change makes progress.
const readTick = int64(time.Microsecond)

func (c *virtualClock) nanotime() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now += readTick
	return c.now
}

func (c *virtualClock) sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	c.mu.Lock()
	c.now += int64(d)
	c.mu.Unlock()
	return nil
}
