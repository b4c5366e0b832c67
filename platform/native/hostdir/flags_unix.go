//go:build unix

package hostdir

import "syscall"

// O_NOFOLLOW is only a hint to os.Root (it follows a final symlink itself,
// but never out of the root); O_NONBLOCK keeps a FIFO swapped in after a
// check from blocking the open, and O_DIRECTORY makes ReadDir refuse
// anything else.
const (
	oNoFollow  = syscall.O_NOFOLLOW
	oNonblock  = syscall.O_NONBLOCK
	oDirectory = syscall.O_DIRECTORY
)
