package sandbox

import (
	"context"
	"fmt"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// The shell runs in the host, so a few shell-level constructs could
// exhaust the host's memory before any limit on guests applies. This file
// holds the checks the interpreter itself lacks.

// shellMemoryLimit bounds how much the host's heap may grow while a Run
// executes only shell code (`while :; do x=$x$x; done`).
const shellMemoryLimit = 512 << 20

// shellMemoryCheck is how often the watchdog samples the heap.
const shellMemoryCheck = 10 * time.Millisecond

// runsActive counts the Runs in progress in the process, which share
// one heap.
var runsActive atomic.Int64

// activeRuns is the number of Runs in progress in the process.
func activeRuns() int { return int(runsActive.Load()) }

// watchShellMemory stops r when the heap grows past shellMemoryLimit plus
// the memory its live guests may hold (each is capped by the instrumenter)
// while r is the only Run in the process (other Runs' growth is not r's).
// It returns when ctx ends.
func watchShellMemory(ctx context.Context, r *runState) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return sample[0].Value.Uint64()
	}
	runsActive.Add(1)
	defer runsActive.Add(-1)
	t := time.NewTicker(shellMemoryCheck)
	defer t.Stop()
	// The base is read at the first tick, not now: a Run that ends
	// within one check interval (most do) never reads the runtime's
	// metrics, whose first reading costs a JavaScript host about 10 ms
	// of the core's cold start. The shell cannot come near the limit
	// within one interval.
	var base uint64
	first := true
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if first {
			first = false
			base = heap()
			continue
		}
		// Compiling a large module (yq's is 28 MB) grows the heap by
		// hundreds of MiB that are no shell variable's.
		if activeRuns() > 1 || r.compiling.Load() > 0 {
			base = max(base, heap())
			continue
		}
		allowed := uint64(shellMemoryLimit) + uint64(r.live.Load())*uint64(r.s.opts.MemoryLimit)
		if h := heap(); h > base+allowed {
			r.fail(fmt.Errorf("shell memory limit exceeded: the shell's variables grew by more than %d MiB", shellMemoryLimit>>20))
			return
		}
	}
}
