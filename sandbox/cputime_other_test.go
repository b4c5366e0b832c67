//go:build !unix

package sandbox

// cpuTime cannot be read here.
func cpuTime() int64 { return -1 }

// childCPUTime cannot be read here.
func childCPUTime() int64 { return -1 }
