//go:build wasip1

package test

import (
	"io/fs"
	"syscall"
	"time"
)

func accessTime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(0, int64(st.Atime))
	}
	return fi.ModTime()
}
