package tool

import (
	"errors"
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

var footprint = []metrics.Sample{{Name: "/memory/classes/total:bytes"}}

// CheckMemory returns ErrMemoryExhausted if n more bytes of heap would not
// fit under the process's memory cap. Running out of memory inside the Go
// runtime is a fatal error that no command can catch, reported with a
// dump of the runtime's state: a command that holds its input (sort)
// calls CheckMemory before each large allocation instead, and stops with
// one line and a failure status as GNU's do when malloc fails.
func CheckMemory(n int64) error {
	limit := memoryLimit()
	if limit <= 0 {
		return nil
	}
	metrics.Read(footprint)
	used := int64(footprint[0].Value.Uint64())
	// The heap grows in 4 MiB arenas and a large object needs contiguous
	// pages: keep a margin, smaller under a small cap.
	if used+n+n/8+min(4<<20, limit/16) > limit {
		return ErrMemoryExhausted
	}
	return nil
}
