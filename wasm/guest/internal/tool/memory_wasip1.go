//go:build wasip1

package tool

import "unsafe"

//go:wasmimport wasmsand mem_limit
func memLimitImport(out unsafe.Pointer) uint32

// hostMemoryLimit asks the sandbox for the cap on this process's linear
// memory.
func hostMemoryLimit() int64 {
	var n uint64
	if memLimitImport(unsafe.Pointer(&n)) != 0 {
		return 0
	}
	return int64(n)
}
