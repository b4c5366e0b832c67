//go:build !wasip1

package fsx

import (
	"io/fs"
	"os"
	"syscall"
)

func perm(path string, follow bool) (fs.FileMode, error) {
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = os.Stat(path)
	} else {
		fi, err = os.Lstat(path)
	}
	if err != nil {
		return 0, err
	}
	return fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky), nil
}

func chmod(path string, mode fs.FileMode, follow bool) error {
	if !follow {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil // Linux cannot chmod a symlink; GNU chmod skips them
		}
	}
	return os.Chmod(path, mode)
}

func usage(path string) (Usage, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return Usage{}, &fs.PathError{Op: "statfs", Path: path, Err: err}
	}
	bs := uint64(st.Bsize)
	return Usage{
		MaxBytes:   st.Blocks * bs,
		UsedBytes:  (st.Blocks - st.Bfree) * bs,
		MaxInodes:  st.Files,
		UsedInodes: st.Files - st.Ffree,
	}, nil
}

func mkfifo(path string, mode uint32) error {
	if err := syscall.Mkfifo(path, mode); err != nil {
		return &fs.PathError{Op: "mkfifo", Path: path, Err: err}
	}
	return nil
}
