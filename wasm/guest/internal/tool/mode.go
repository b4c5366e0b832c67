package tool

import (
	"io/fs"
	"strconv"

	"github.com/wasmsand/wasmsand/sandbox/filemode"
)

// Umask is the file-creation mask modes are computed against. WASI has no
// umask, so the conventional 022 is assumed.
const Umask fs.FileMode = 0o022

// ParseMode applies a chmod-style mode (octal, or symbolic such as
// "u+x,go-w" or "a=rX") to base. isDir matters for X.
func ParseMode(spec string, base fs.FileMode, isDir bool) (fs.FileMode, bool) {
	if spec == "" {
		return 0, false
	}
	if spec[0] >= '0' && spec[0] <= '7' {
		v, err := strconv.ParseUint(spec, 8, 32)
		if err != nil || v > 0o7777 {
			return 0, false
		}
		return fromUnix(uint32(v)), true
	}
	mode, err := filemode.Apply(spec, toUnix(base), filemode.Options{Umask: uint32(Umask), IsDir: isDir})
	if err != nil {
		return 0, false
	}
	return fromUnix(mode), true
}

func toUnix(m fs.FileMode) uint32 {
	v := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		v |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		v |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		v |= 0o1000
	}
	return v
}

func fromUnix(v uint32) fs.FileMode {
	m := fs.FileMode(v & 0o777)
	if v&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if v&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if v&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}
