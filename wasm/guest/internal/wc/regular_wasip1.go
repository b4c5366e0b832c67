//go:build wasip1

package wc

import (
	"io/fs"
	"syscall"
)

// isRegular reports whether fi is a regular file. Go maps WASI's
// "unknown" file type (pipes) to a regular file, so ask WASI directly.
func isRegular(fi fs.FileInfo) bool {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Filetype == syscall.FILETYPE_REGULAR_FILE
	}
	return fi.Mode().IsRegular()
}
