package tool

import (
	"io/fs"
	"strconv"
	"strings"
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
	mode := toUnix(base)
	for _, clause := range strings.Split(spec, ",") {
		i := 0
		var who uint32
		for i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0 {
			switch clause[i] {
			case 'u':
				who |= 0o4700
			case 'g':
				who |= 0o2070
			case 'o':
				who |= 0o1007
			case 'a':
				who |= 0o7777
			}
			i++
		}
		if i == len(clause) {
			return 0, false
		}
		for i < len(clause) {
			op := clause[i]
			if op != '+' && op != '-' && op != '=' {
				return 0, false
			}
			i++
			var perm uint32
			for i < len(clause) && strings.IndexByte("rwxXstugo", clause[i]) >= 0 {
				switch clause[i] {
				case 'r':
					perm |= 0o444
				case 'w':
					perm |= 0o222
				case 'x':
					perm |= 0o111
				case 'X':
					if isDir || mode&0o111 != 0 {
						perm |= 0o111
					}
				case 's':
					perm |= 0o6000
				case 't':
					perm |= 0o1000
				case 'u':
					perm |= copyBits((mode >> 6) & 7)
				case 'g':
					perm |= copyBits((mode >> 3) & 7)
				case 'o':
					perm |= copyBits(mode & 7)
				}
				i++
			}
			mask := who
			if who == 0 {
				mask = 0o7777 &^ uint32(Umask)
			}
			switch op {
			case '+':
				mode |= perm & mask
			case '-':
				mode &^= perm & mask
			case '=':
				clear := who
				if who == 0 {
					clear = 0o7777
				}
				mode = mode&^(clear&0o7777) | perm&mask
			}
		}
	}
	return fromUnix(mode), true
}

func copyBits(b uint32) uint32 {
	v := b
	return v | v<<3 | v<<6
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
