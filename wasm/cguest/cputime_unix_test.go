//go:build unix

package cguest_test

import (
	"syscall"
	"time"
)

// processCPU is the user+system CPU time the process has used, a steadier
// measure than wall time on a loaded machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
