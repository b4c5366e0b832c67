//go:build wasip1

package fsx

import (
	"io/fs"
	"syscall"
	"unsafe"
)

//go:wasmimport wasmsand path_chmod
func pathChmod(path unsafe.Pointer, pathLen uint32, mode uint32, follow uint32) uint32

//go:wasmimport wasmsand path_mode
func pathMode(path unsafe.Pointer, pathLen uint32, follow uint32, mode unsafe.Pointer) uint32

//go:wasmimport wasmsand path_mkfifo
func pathMkfifo(path unsafe.Pointer, pathLen uint32, mode uint32) uint32

//go:wasmimport wasmsand fs_usage
func fsUsage(out unsafe.Pointer) uint32

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func pathErr(op, path string, en uint32) error {
	return &fs.PathError{Op: op, Path: path, Err: syscall.Errno(en)}
}

func perm(path string, follow bool) (fs.FileMode, error) {
	b := []byte(path)
	if len(b) == 0 {
		return 0, pathErr("stat", path, uint32(syscall.ENOENT))
	}
	var bits uint32
	if en := pathMode(unsafe.Pointer(&b[0]), uint32(len(b)), b2u(follow), unsafe.Pointer(&bits)); en != 0 {
		return 0, pathErr("stat", path, en)
	}
	return toMode(bits), nil
}

func chmod(path string, mode fs.FileMode, follow bool) error {
	b := []byte(path)
	if len(b) == 0 {
		return pathErr("chmod", path, uint32(syscall.ENOENT))
	}
	if en := pathChmod(unsafe.Pointer(&b[0]), uint32(len(b)), fromMode(mode), b2u(follow)); en != 0 {
		return pathErr("chmod", path, en)
	}
	return nil
}

func usage(string) (Usage, error) {
	var v [4]uint64
	if en := fsUsage(unsafe.Pointer(&v)); en != 0 {
		return Usage{}, syscall.Errno(en)
	}
	return Usage{MaxBytes: v[0], UsedBytes: v[1], MaxInodes: v[2], UsedInodes: v[3]}, nil
}

func mkfifo(path string, mode uint32) error {
	b := []byte(path)
	if len(b) == 0 {
		return pathErr("mkfifo", path, uint32(syscall.ENOENT))
	}
	if en := pathMkfifo(unsafe.Pointer(&b[0]), uint32(len(b)), mode); en != 0 {
		return pathErr("mkfifo", path, en)
	}
	return nil
}
