package sandbox

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// runState is what one Run shares between its shell and every guest it
// starts: the fuel budget, the process count and the metrics.
type runState struct {
	s      *Sandbox
	cancel context.CancelFunc

	fuelBudget int64 // 0: unlimited
	fuelUsed   atomic.Int64
	peakMem    atomic.Int64
	started    atomic.Int64
	live       atomic.Int64 // guest processes and child shells now running
	calls      atomic.Int64 // simple commands run, for sampled checks

	mu  sync.Mutex
	err error // the first limit that ended the Run
	wg  sync.WaitGroup
}

func newRunState(s *Sandbox, cancel context.CancelFunc) *runState {
	return &runState{s: s, cancel: cancel, fuelBudget: s.opts.Fuel}
}

type runKey struct{}

func withRun(ctx context.Context, r *runState) context.Context {
	return context.WithValue(ctx, runKey{}, r)
}

func runFrom(ctx context.Context) *runState {
	r, _ := ctx.Value(runKey{}).(*runState)
	return r
}

// errProcessLimit reports that a Run tried to have more live processes
// than Options.MaxProcesses allows.
type errProcessLimit struct{ max int }

func (e errProcessLimit) Error() string {
	return fmt.Sprintf("fork: retry: Resource temporarily unavailable (process limit %d reached; raise Options.MaxProcesses)", e.max)
}

// acquire reserves a process slot; on failure it ends the whole Run, as a
// fork bomb would otherwise keep trying.
func (r *runState) acquire() error {
	if n := r.live.Add(1); n > int64(r.s.opts.MaxProcesses) {
		r.live.Add(-1)
		err := errProcessLimit{r.s.opts.MaxProcesses}
		r.fail(err)
		return err
	}
	r.started.Add(1)
	r.wg.Add(1)
	return nil
}

func (r *runState) release() {
	r.live.Add(-1)
	r.wg.Done()
}

// fail records the first limit error and stops the Run.
func (r *runState) fail(err error) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
	r.cancel()
}

func (r *runState) limitErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// wait waits for stray processes (background jobs nobody waited for) to
// notice the end of the Run.
func (r *runState) wait() { r.wg.Wait() }

func (r *runState) notePeakMemory(n int64) {
	for {
		old := r.peakMem.Load()
		if n <= old || r.peakMem.CompareAndSwap(old, n) {
			return
		}
	}
}

func (r *runState) metrics() Metrics {
	return Metrics{
		FuelUsed:        r.fuelUsed.Load(),
		PeakMemoryBytes: r.peakMem.Load(),
		Processes:       int(r.started.Load()),
	}
}
