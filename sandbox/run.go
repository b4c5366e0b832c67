package sandbox

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// runState is what one Run shares between its shell and every guest it
// starts: the fuel budget, the process count and the metrics.
type runState struct {
	s      *Sandbox
	cancel context.CancelFunc
	timer  *runTimer // nil for internal runs without a timeout

	fuelBudget int64 // 0: unlimited
	fuelUsed   atomic.Int64
	peakMem    atomic.Int64
	started    atomic.Int64
	live       atomic.Int64 // guest processes and child shells now running
	compiling  atomic.Int64 // guests of this Run being compiled (their heap is not the shell's)
	lastYield  atomic.Int64 // unix nanoseconds of the shell's last yield (js)

	index uint64 // the Run's number in its sandbox, for processSeed
	net   runNet // the Run's network session and budget

	mu      sync.Mutex
	err     error          // the first limit that ended the Run
	cmdSeen map[string]int // guests started per command line, for processSeed
	wg      sync.WaitGroup
}

// randomFor returns the random stream of a new guest running argv.
func (r *runState) randomFor(argv []string) *prng {
	key := strings.Join(argv, "\x00")
	r.mu.Lock()
	if r.cmdSeen == nil {
		r.cmdSeen = map[string]int{}
	}
	nth := r.cmdSeen[key]
	r.cmdSeen[key]++
	r.mu.Unlock()
	return newPRNG(processSeed(r.s.opts.Seed, r.index, argv, nth))
}

func newRunState(s *Sandbox, cancel context.CancelFunc) *runState {
	return &runState{s: s, cancel: cancel, fuelBudget: s.opts.Fuel, index: s.runs.Add(1)}
}

type runKey struct{}

func withRun(ctx context.Context, r *runState) context.Context {
	return context.WithValue(ctx, runKey{}, r)
}

func runFrom(ctx context.Context) *runState {
	r, _ := ctx.Value(runKey{}).(*runState)
	return r
}

// runTimer ends a Run when its time is up, not counting the time the Run
// spends waiting for modules to compile: a cold compile of a large tool
// takes seconds once per machine, and must not turn the first command
// into a timeout.
type runTimer struct {
	mu        sync.Mutex
	remaining time.Duration
	started   time.Time // when the running period began; zero while paused
	pauses    int
	timer     *time.Timer
	expire    func()
}

func newRunTimer(d time.Duration, expire func()) *runTimer {
	t := &runTimer{remaining: d, started: time.Now(), expire: expire}
	t.timer = time.AfterFunc(d, expire)
	return t
}

// pause stops the clock until the matching resume.
func (t *runTimer) pause() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pauses++
	if t.pauses == 1 && t.timer.Stop() {
		t.remaining -= time.Since(t.started)
		t.started = time.Time{}
	}
}

func (t *runTimer) resume() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pauses--
	if t.pauses == 0 && t.started.IsZero() {
		t.started = time.Now()
		t.timer = time.AfterFunc(max(t.remaining, 0), t.expire)
	}
}

// expired reports whether the Run's time is up, by the clock rather than
// by the timer having fired: under GOOS=js a shell loop that never yields
// keeps the timer from running.
func (t *runTimer) expired() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return !t.started.IsZero() && time.Since(t.started) >= t.remaining
}

func (t *runTimer) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.timer.Stop()
}

// yieldEvery is how often a busy shell yields under GOOS=js.
const yieldEvery = 10 * time.Millisecond

// yield lets the host's event loop run when the shell has been busy for a
// while under GOOS=js, where goroutines only get a turn when the running
// one blocks: without it a shell loop would freeze the page and starve
// the timers. Natively it does nothing.
func (r *runState) yield() {
	if runtime.GOOS != "js" {
		return
	}
	now := time.Now().UnixNano()
	if now-r.lastYield.Load() < int64(yieldEvery) {
		return
	}
	r.lastYield.Store(now)
	time.Sleep(time.Microsecond)
}

// errProcessLimit reports that a Run tried to have more live processes
// than Options.MaxProcesses allows.
type errProcessLimit struct{ max int }

func (e errProcessLimit) Error() string {
	return fmt.Sprintf("fork: retry: Resource temporarily unavailable (process limit %d reached; raise Options.MaxProcesses)", e.max)
}

// acquire reserves a process slot. When none is left the process cannot
// start: like a failed fork in bash, that command fails and the script
// goes on.
func (r *runState) acquire() error {
	if n := r.live.Add(1); n > int64(r.s.opts.MaxProcesses) {
		r.live.Add(-1)
		return errProcessLimit{r.s.opts.MaxProcesses}
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
