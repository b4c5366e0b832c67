//go:build !linux && !wasip1

package find

import "io/fs"

// sysInfo returns the fields of a file's status that fs.FileInfo lacks;
// on this system only what is portable.
func sysInfo(fi fs.FileInfo) sysStat {
	return sysStat{nlink: 1, atime: fi.ModTime(), ctime: fi.ModTime(), blocks: (fi.Size() + 511) / 512}
}

func userName(uid uint32) (string, bool)     { return "", false }
func groupName(gid uint32) (string, bool)    { return "", false }
func lookupUser(name string) (uint32, bool)  { return 0, false }
func lookupGroup(name string) (uint32, bool) { return 0, false }
