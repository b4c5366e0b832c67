// Package fsx gives guest tools what WASI preview1 lacks about files:
// permission bits (read and change) and the filesystem's size and usage.
// Under wasip1 it calls the sandbox's "wasmsand" host module; natively it
// uses the os and syscall packages, so tools test the same code natively.
package fsx

import "io/fs"

// Usage is the filesystem's capacity and use.
type Usage struct {
	MaxBytes, UsedBytes   uint64
	MaxInodes, UsedInodes uint64
}

// Perm returns the permission bits (including setuid, setgid and sticky)
// of path; follow decides whether a final symlink is followed.
func Perm(path string, follow bool) (fs.FileMode, error) { return perm(path, follow) }

// Chmod sets the permission bits of path.
func Chmod(path string, mode fs.FileMode, follow bool) error { return chmod(path, mode, follow) }

// Mkfifo makes the named pipe path with permission bits mode, less the
// umask.
func Mkfifo(path string, mode uint32) error { return mkfifo(path, mode) }

// FSUsage describes the filesystem holding path.
func FSUsage(path string) (Usage, error) { return usage(path) }

// toMode converts POSIX permission bits to an fs.FileMode.
func toMode(bits uint32) fs.FileMode {
	m := fs.FileMode(bits & 0o777)
	if bits&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if bits&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if bits&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// fromMode converts an fs.FileMode's permission bits to POSIX bits.
func fromMode(m fs.FileMode) uint32 {
	bits := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		bits |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		bits |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		bits |= 0o1000
	}
	return bits
}
