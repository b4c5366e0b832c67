package vfs

import "io/fs"

// Errno is an error number using WASI preview1 numbering, so the WASI host
// can return it to a guest unchanged. Use errors.As to get it out of the
// *fs.PathError that FS methods return.
type Errno uint16

// The error numbers the VFS returns, numbered as in WASI preview1.
const (
	EACCES       Errno = 2
	EAGAIN       Errno = 6
	EBADF        Errno = 8
	EBUSY        Errno = 10
	EEXIST       Errno = 20
	EFBIG        Errno = 22
	EINTR        Errno = 27
	EINVAL       Errno = 28
	EIO          Errno = 29
	EISDIR       Errno = 31
	ELOOP        Errno = 32
	EMLINK       Errno = 34
	ENAMETOOLONG Errno = 37
	ENOENT       Errno = 44
	ENOSPC       Errno = 51
	ENOTDIR      Errno = 54
	ENOTEMPTY    Errno = 55
	ENOTSUP      Errno = 58
	ENXIO        Errno = 60
	EPERM        Errno = 63
	EPIPE        Errno = 64
	EROFS        Errno = 69
	ESPIPE       Errno = 70
	EXDEV        Errno = 75
)

var errnoText = map[Errno]string{
	EACCES:       "permission denied",
	EAGAIN:       "resource temporarily unavailable",
	EBADF:        "bad file descriptor",
	EBUSY:        "device or resource busy",
	EEXIST:       "file exists",
	EFBIG:        "file too large",
	EINTR:        "interrupted system call",
	EINVAL:       "invalid argument",
	EIO:          "input/output error",
	EISDIR:       "is a directory",
	ELOOP:        "too many levels of symbolic links",
	EMLINK:       "too many links",
	ENAMETOOLONG: "file name too long",
	ENOENT:       "no such file or directory",
	ENOSPC:       "no space left on device",
	ENOTDIR:      "not a directory",
	ENOTEMPTY:    "directory not empty",
	ENOTSUP:      "operation not supported",
	ENXIO:        "no such device or address",
	EPERM:        "operation not permitted",
	EPIPE:        "broken pipe",
	EROFS:        "read-only file system",
	ESPIPE:       "illegal seek",
	EXDEV:        "invalid cross-device link",
}

var errnoNames = map[Errno]string{
	EACCES: "EACCES", EAGAIN: "EAGAIN", EBADF: "EBADF", EBUSY: "EBUSY",
	EEXIST: "EEXIST", EFBIG: "EFBIG", EINTR: "EINTR", EINVAL: "EINVAL",
	EIO: "EIO", EISDIR: "EISDIR", ELOOP: "ELOOP", EMLINK: "EMLINK",
	ENAMETOOLONG: "ENAMETOOLONG", ENOENT: "ENOENT", ENOSPC: "ENOSPC",
	ENOTDIR: "ENOTDIR", ENOTEMPTY: "ENOTEMPTY", ENOTSUP: "ENOTSUP",
	ENXIO: "ENXIO", EPERM: "EPERM", EPIPE: "EPIPE", EROFS: "EROFS",
	ESPIPE: "ESPIPE", EXDEV: "EXDEV",
}

// Name returns the symbolic name of e, for example "ENOENT", or "" for a
// number the VFS does not use.
func (e Errno) Name() string { return errnoNames[e] }

// ErrnoNamed returns the Errno whose Name is name.
func ErrnoNamed(name string) (Errno, bool) {
	for e, n := range errnoNames {
		if n == name {
			return e, true
		}
	}
	return 0, false
}

// Error returns the strerror text of e, for example "no such file or directory".
func (e Errno) Error() string {
	if s, ok := errnoText[e]; ok {
		return s
	}
	return "errno " + itoa(uint64(e))
}

// Is reports whether e matches target: ENOENT matches fs.ErrNotExist, EEXIST
// fs.ErrExist, and EACCES and EPERM fs.ErrPermission.
func (e Errno) Is(target error) bool {
	switch target {
	case fs.ErrNotExist:
		return e == ENOENT
	case fs.ErrExist:
		return e == EEXIST
	case fs.ErrPermission:
		return e == EACCES || e == EPERM
	}
	return false
}

func itoa(v uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(b[i:])
		}
	}
}

// pathErr wraps e for an FS method; nil stays nil.
func pathErr(op, path string, e Errno) error {
	if e == 0 {
		return nil
	}
	return &fs.PathError{Op: op, Path: path, Err: e}
}
