//go:build !wasip1

package wc

import "io/fs"

// isRegular reports whether fi is a regular file.
func isRegular(fi fs.FileInfo) bool { return fi.Mode().IsRegular() }
