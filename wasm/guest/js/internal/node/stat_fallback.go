//go:build !linux && !wasip1

package node

import (
	"syscall"
	"time"
)

func statIDs(st *syscall.Stat_t) (uid, gid uint64) { return 0, 0 }

func statTimes(st *syscall.Stat_t, mtime time.Time) (atime, ctime time.Time) { return mtime, mtime }
