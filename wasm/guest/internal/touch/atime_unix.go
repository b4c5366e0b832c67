//go:build linux

package touch

import (
	"io/fs"
	"syscall"
	"time"
)

func atimeOf(fi fs.FileInfo) (time.Time, error) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Atim.Sec, st.Atim.Nsec), nil
	}
	return time.Time{}, errNoAtime
}
