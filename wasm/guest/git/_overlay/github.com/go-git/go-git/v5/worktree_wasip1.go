//go:build wasip1

// This file is not part of wasmsand's packages: the guest build overlays it
// on go-git's worktree package (vendored into a scratch copy at build time),
// which has no file for wasip1. It is go-git's per-platform hook, written
// for wasip1's syscall.Stat_t.

package git

import (
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

func init() {
	fillSystemInfo = func(e *index.Entry, sys interface{}) {
		if st, ok := sys.(*syscall.Stat_t); ok {
			e.CreatedAt = time.Unix(0, int64(st.Ctime))
			e.Dev = uint32(st.Dev)
			e.Inode = uint32(st.Ino)
		}
	}
}

func isSymlinkWindowsNonAdmin(error) bool { return false }
