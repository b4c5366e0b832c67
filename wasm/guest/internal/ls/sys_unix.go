//go:build unix

package ls

import (
	"io/fs"
	"syscall"
)

// sysInfo returns the link count and 1024-byte block count of a file.
func sysInfo(fi fs.FileInfo) (nlink, blocks int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(st.Nlink), (int64(st.Blocks)*512 + 1023) / 1024
	}
	return 1, estimateBlocks(fi)
}

func inodeOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
