//go:build linux

package find

import (
	"io/fs"
	"os/user"
	"strconv"
	"syscall"
	"time"
)

// sysInfo returns the fields of a file's status that fs.FileInfo lacks.
func sysInfo(fi fs.FileInfo) (s sysStat) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return sysStat{nlink: 1, atime: fi.ModTime(), ctime: fi.ModTime()}
	}
	return sysStat{
		dev: uint64(st.Dev), ino: st.Ino, nlink: uint64(st.Nlink),
		uid: st.Uid, gid: st.Gid, blocks: st.Blocks,
		atime: time.Unix(st.Atim.Sec, st.Atim.Nsec),
		ctime: time.Unix(st.Ctim.Sec, st.Ctim.Nsec),
	}
}

func userName(uid uint32) (string, bool) {
	u, err := user.LookupId(strconv.Itoa(int(uid)))
	if err != nil {
		return "", false
	}
	return u.Username, true
}

func groupName(gid uint32) (string, bool) {
	g, err := user.LookupGroupId(strconv.Itoa(int(gid)))
	if err != nil {
		return "", false
	}
	return g.Name, true
}

func lookupUser(name string) (uint32, bool) {
	u, err := user.Lookup(name)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(u.Uid)
	return uint32(n), err == nil
}

func lookupGroup(name string) (uint32, bool) {
	g, err := user.LookupGroup(name)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(g.Gid)
	return uint32(n), err == nil
}
