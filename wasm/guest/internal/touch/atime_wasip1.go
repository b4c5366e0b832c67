//go:build wasip1

package touch

import (
	"io/fs"
	"syscall"
	"time"
)

func atimeOf(fi fs.FileInfo) (time.Time, error) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(0, int64(st.Atime)), nil
	}
	return time.Time{}, errNoAtime
}
