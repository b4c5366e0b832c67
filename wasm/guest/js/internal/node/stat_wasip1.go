//go:build wasip1

package node

import (
	"syscall"
	"time"
)

func statIDs(st *syscall.Stat_t) (uid, gid uint64) { return uint64(st.Uid), uint64(st.Gid) }

func statTimes(st *syscall.Stat_t, mtime time.Time) (atime, ctime time.Time) {
	return time.Unix(0, int64(st.Atime)), time.Unix(0, int64(st.Ctime))
}
