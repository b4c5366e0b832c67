//go:build unix

package stat

import (
	"io/fs"
	"syscall"
	"time"
)

func sysInfo(fi fs.FileInfo) Info {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Info{Nlink: 1, Blocks: estimateBlocks(fi), Atime: fi.ModTime(), Ctime: fi.ModTime(), BlockSize: 4096}
	}
	return Info{
		Dev: uint64(st.Dev), Ino: uint64(st.Ino), Nlink: uint64(st.Nlink),
		UID: st.Uid, GID: st.Gid,
		Blocks: int64(st.Blocks), Rdev: uint64(st.Rdev),
		Atime:     time.Unix(st.Atim.Unix()),
		Ctime:     time.Unix(st.Ctim.Unix()),
		BlockSize: int64(st.Blksize),
	}
}
