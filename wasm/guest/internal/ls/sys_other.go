//go:build !unix

package ls

import (
	"io/fs"
	"syscall"
)

// sysInfo returns the link count and 1024-byte block count of a file.
// WASI reports no block counts, so they are estimated from the size.
func sysInfo(fi fs.FileInfo) (nlink, blocks int64) {
	nlink = 1
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 0 {
		nlink = int64(st.Nlink)
	}
	return nlink, estimateBlocks(fi)
}

func inodeOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}
