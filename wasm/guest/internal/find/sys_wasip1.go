//go:build wasip1

package find

import (
	"io/fs"
	"syscall"
	"time"
)

// The sandbox has one user and group: user (1000). WASI reports no
// owners, so every file is theirs.
const (
	sandboxID   = 1000
	sandboxName = "user"
)

// sysInfo returns the fields of a file's status that fs.FileInfo lacks.
func sysInfo(fi fs.FileInfo) (s sysStat) {
	s = sysStat{nlink: 1, uid: sandboxID, gid: sandboxID, atime: fi.ModTime(), ctime: fi.ModTime()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.dev, s.ino, s.nlink = st.Dev, st.Ino, st.Nlink
		s.atime = time.Unix(0, int64(st.Atime))
		s.ctime = time.Unix(0, int64(st.Ctime))
	}
	s.blocks = (fi.Size() + 511) / 512
	return s
}

func userName(uid uint32) (string, bool)  { return sandboxName, uid == sandboxID }
func groupName(gid uint32) (string, bool) { return sandboxName, gid == sandboxID }

func lookupUser(name string) (uint32, bool)  { return sandboxID, name == sandboxName }
func lookupGroup(name string) (uint32, bool) { return sandboxID, name == sandboxName }
