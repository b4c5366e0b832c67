package tool

import (
	"errors"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// ErrMemoryExhausted is what CheckMemory returns when an allocation would
// not fit under the process's memory cap; commands report it in GNU's
// words, "memory exhausted".
var ErrMemoryExhausted = errors.New("memory exhausted")

// memLimit caches memoryLimit: -1 until asked.
var memLimit int64 = -1

// memoryLimit returns the cap on this process's memory in bytes, or 0 if
// there is none known.
func memoryLimit() int64 {
	if memLimit < 0 {
		memLimit = hostMemoryLimit()
	}
	return memLimit
}

// limitMemory tells the garbage collector about the cap, so garbage is
// collected before the heap meets it rather than after.
func limitMemory() {
	if n := memoryLimit(); n > 0 {
		debug.SetMemoryLimit(n - n/8)
	}
}

// footprint reads the memory the runtime has taken from the process's
// linear memory, and how much of it is free heap an allocation can reuse.
var footprint = []metrics.Sample{
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/free:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
}

// room returns how many bytes of the cap the runtime has not taken yet,
// and how much of what it took is free heap.
func room(limit int64) (untaken, free int64) {
	metrics.Read(footprint)
	total := int64(footprint[0].Value.Uint64())
	return limit - total, int64(footprint[1].Value.Uint64() + footprint[2].Value.Uint64())
}

// CheckMemory returns ErrMemoryExhausted if n more bytes of heap would not
// fit under the process's memory cap, even after a collection. Running
// out of memory inside the Go runtime is a fatal error that no command can
// catch, reported with a dump of the runtime's state: a command that holds
// its input (sort) calls CheckMemory before each large allocation instead,
// and stops with one line and a failure status as GNU's do when malloc
// fails.
func CheckMemory(n int64) error {
	limit := memoryLimit()
	if limit <= 0 {
		return nil
	}
	// The heap grows in 4 MiB arenas and a large object needs contiguous
	// pages: keep a margin, smaller under a small cap.
	need := n + n/8 + min(4<<20, limit/16)
	if untaken, _ := room(limit); untaken >= need {
		return nil
	}
	// Collect, and count free heap only with room to spare: a large
	// object needs contiguous pages, which scattered free ones are not.
	runtime.GC()
	if untaken, free := room(limit); untaken >= need || untaken+free/2 >= need {
		return nil
	}
	return ErrMemoryExhausted
}

// CollectNearCap turns off the collector's proportional pacing (GOGC)
// when the process has a memory cap, so that a command building one large,
// long-lived structure (sort's lines) is collected only as its heap nears
// the cap rather than at every doubling, and returns a function restoring
// the pacing. Without a known cap it does nothing.
func CollectNearCap() (restore func()) {
	if memoryLimit() <= 0 {
		return func() {}
	}
	old := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(old) }
}

// HeapNearCap returns ErrMemoryExhausted when the live heap has grown so
// near the process's memory cap that the next growth of a large structure
// (a map doubling its buckets, a slice its array) would fail inside the
// runtime, a fatal error that no command can catch, reported with a dump
// of the runtime's state. Commands that run other code over data of
// unbounded size (awk's arrays) call it from time to time and stop with
// GNU's one line, "memory exhausted". The first call tells the collector
// about the cap (see limitMemory). Without a known cap it returns nil.
func HeapNearCap() error {
	limit := memoryLimit()
	if limit <= 0 {
		return nil
	}
	if !heapWatched {
		heapWatched = true
		limitMemory()
	}
	metrics.Read(heapSamples)
	live, total := int64(heapSamples[0].Value.Uint64()), int64(heapSamples[1].Value.Uint64())
	// A structure that doubles needs its old and new storage at once,
	// and the collector room beside the live heap to work in; the cap
	// covers the module's own data and stacks too.
	if live > limit/2 || total > limit/16*13 {
		return ErrMemoryExhausted
	}
	return nil
}

var (
	heapWatched bool
	heapSamples = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"}}
)
