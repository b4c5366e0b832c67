//go:build !wasip1

package tool

// hostMemoryLimit reports no cap: natively, the operating system's limits
// apply.
func hostMemoryLimit() int64 { return 0 }
