//go:build linux

package hostdir

import (
	"io/fs"
	"syscall"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// sysStat fills in the host's identity, link count and times.
func sysStat(fi fs.FileInfo, st *vfs.HostStat) {
	s, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	st.Dev, st.Ino, st.Nlink = uint64(s.Dev), uint64(s.Ino), uint64(s.Nlink)
	st.Atime = time.Unix(int64(s.Atim.Sec), int64(s.Atim.Nsec))
	st.Ctime = time.Unix(int64(s.Ctim.Sec), int64(s.Ctim.Nsec))
}
