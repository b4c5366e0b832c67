//go:build linux

package node

import (
	"syscall"
	"time"
)

func statIDs(st *syscall.Stat_t) (uid, gid uint64) { return uint64(st.Uid), uint64(st.Gid) }

func statTimes(st *syscall.Stat_t, mtime time.Time) (atime, ctime time.Time) {
	return time.Unix(st.Atim.Sec, st.Atim.Nsec), time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
}
