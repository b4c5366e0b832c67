package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The shell runs subshells, pipeline stages and background jobs as
// goroutines inside the interpreter, which has no hook for them. To hold
// such work to Options.MaxProcesses (think `:(){ :|:& };:`), every Run's
// goroutines carry a pprof label naming the Run; goroutines inherit labels
// from the one that starts them. While one Run is active, its goroutines
// are simply the process's growth since it started. With several, nothing
// happens while the process as a whole has few goroutines; past a
// threshold the guard counts each Run's labelled goroutines from a
// goroutine profile, at most once per interval, and stops the Runs over
// their limit.

const (
	forkLabel = "wasmsand-run"
	// forkCheckInterval spaces out the (stop-the-world) profile reads.
	forkCheckInterval = 5 * time.Millisecond
	// goroutinesPerProcess allows for the helper goroutines one shell
	// process may own (pipe copiers, guests' blocking calls).
	goroutinesPerProcess = 2
)

var forkGuard struct {
	nextID    atomic.Int64
	mu        sync.Mutex
	lastCheck time.Time
	runs      map[string]*runState
	base      int // goroutines when the only Run started
}

// guardRun labels ctx's goroutines for r and registers r with the guard;
// call the returned function when the Run ends.
func guardRun(ctx context.Context, r *runState, f func(context.Context)) {
	id := strconv.FormatInt(forkGuard.nextID.Add(1), 10)
	forkGuard.mu.Lock()
	if forkGuard.runs == nil {
		forkGuard.runs = map[string]*runState{}
	}
	forkGuard.runs[id] = r
	forkGuard.base = runtime.NumGoroutine()
	forkGuard.mu.Unlock()
	defer func() {
		forkGuard.mu.Lock()
		delete(forkGuard.runs, id)
		forkGuard.mu.Unlock()
	}()
	pprof.Do(ctx, pprof.Labels(forkLabel, id), f)
}

// goroutineBudget is how many goroutines a Run with maxProcs may hold.
func goroutineBudget(maxProcs int) int { return goroutinesPerProcess*maxProcs + 16 }

// checkForks is called often (on every simple command the shell runs);
// it is cheap unless the process has many goroutines.
func checkForks() {
	n := runtime.NumGoroutine()
	forkGuard.mu.Lock()
	if len(forkGuard.runs) == 1 {
		// The common case, exact and cheap: all growth is this Run's.
		for _, r := range forkGuard.runs {
			if n-forkGuard.base > goroutineBudget(r.s.opts.MaxProcesses) {
				forkGuard.mu.Unlock()
				r.fail(errProcessLimit{r.s.opts.MaxProcesses})
				return
			}
		}
		forkGuard.mu.Unlock()
		return
	}
	threshold := 256
	for _, r := range forkGuard.runs {
		threshold += goroutineBudget(r.s.opts.MaxProcesses)
	}
	if n < threshold || time.Since(forkGuard.lastCheck) < forkCheckInterval {
		forkGuard.mu.Unlock()
		return
	}
	forkGuard.lastCheck = time.Now()
	runs := make(map[string]*runState, len(forkGuard.runs))
	for id, r := range forkGuard.runs {
		runs[id] = r
	}
	forkGuard.mu.Unlock()

	for id, count := range labelledGoroutines() {
		if r, ok := runs[id]; ok && count > goroutineBudget(r.s.opts.MaxProcesses) {
			r.fail(errProcessLimit{r.s.opts.MaxProcesses})
		}
	}
}

// labelledGoroutines counts live goroutines per value of forkLabel.
func labelledGoroutines() map[string]int {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		return nil
	}
	counts := map[string]int{}
	sc := bufio.NewScanner(&buf)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	last := 0
	key := `"` + forkLabel + `":"`
	for sc.Scan() {
		line := sc.Text()
		if n, _, ok := strings.Cut(line, " @ "); ok {
			last, _ = strconv.Atoi(n)
			continue
		}
		if !strings.HasPrefix(line, "# labels: ") {
			continue
		}
		i := strings.Index(line, key)
		if i < 0 {
			continue
		}
		rest := line[i+len(key):]
		if j := strings.IndexByte(rest, '"'); j >= 0 {
			counts[rest[:j]] += last
		}
	}
	return counts
}

// activeRuns is the number of Runs in progress in the process.
func activeRuns() int {
	forkGuard.mu.Lock()
	defer forkGuard.mu.Unlock()
	return len(forkGuard.runs)
}
