package stat

import (
	"io/fs"
	"time"
)

// Info is what stat, du and ls-like tools need of a file beyond
// fs.FileInfo, gathered portably: WASI reports no blocks, owners or
// device numbers of special files, so those take the sandbox's values.
type Info struct {
	Dev, Ino, Nlink uint64
	UID, GID        uint32
	Blocks          int64 // 512-byte blocks allocated
	Rdev            uint64
	Atime, Ctime    time.Time
	BlockSize       int64 // preferred I/O size
}

// SysInfo gathers Info for fi (from os.Stat or os.Lstat).
func SysInfo(fi fs.FileInfo) Info { return sysInfo(fi) }

// estimateBlocks is the allocation a size takes in 4 KiB blocks, counted
// in 512-byte units, for systems that do not report it.
func estimateBlocks(fi fs.FileInfo) int64 {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return 0
	}
	if fi.IsDir() {
		return 8
	}
	return (fi.Size() + 4095) / 4096 * 8
}
