//go:build !unix

package stat

import (
	"io/fs"
	"syscall"
	"time"
)

// owner is the sandbox's one user, who owns every file.
const owner = 1000

func sysInfo(fi fs.FileInfo) Info {
	in := Info{
		Nlink: 1, UID: owner, GID: owner, Blocks: estimateBlocks(fi),
		Atime: fi.ModTime(), Ctime: fi.ModTime(), BlockSize: 4096,
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		in.Dev, in.Ino = st.Dev, st.Ino
		if st.Nlink > 0 {
			in.Nlink = st.Nlink
		}
		in.Atime = time.Unix(0, int64(st.Atime))
		in.Ctime = time.Unix(0, int64(st.Ctime))
	}
	return in
}
