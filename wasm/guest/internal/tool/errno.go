package tool

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// strerrors are the C library's texts for the errors commands meet.
var strerrors = map[syscall.Errno]string{
	syscall.EPERM:        "Operation not permitted",
	syscall.ENOENT:       "No such file or directory",
	syscall.EIO:          "Input/output error",
	syscall.EBADF:        "Bad file descriptor",
	syscall.ENOMEM:       "Cannot allocate memory",
	syscall.EACCES:       "Permission denied",
	syscall.EBUSY:        "Device or resource busy",
	syscall.EEXIST:       "File exists",
	syscall.EXDEV:        "Invalid cross-device link",
	syscall.ENOTDIR:      "Not a directory",
	syscall.EISDIR:       "Is a directory",
	syscall.EINVAL:       "Invalid argument",
	syscall.EMFILE:       "Too many open files",
	syscall.ENFILE:       "Too many open files in system",
	syscall.EFBIG:        "File too large",
	syscall.ENOSPC:       "No space left on device",
	syscall.ESPIPE:       "Illegal seek",
	syscall.EROFS:        "Read-only file system",
	syscall.EMLINK:       "Too many links",
	syscall.EPIPE:        "Broken pipe",
	syscall.ERANGE:       "Numerical result out of range",
	syscall.ENAMETOOLONG: "File name too long",
	syscall.ENOSYS:       "Function not implemented",
	syscall.ENOTEMPTY:    "Directory not empty",
	syscall.ELOOP:        "Too many levels of symbolic links",
	syscall.ENOTSUP:      "Operation not supported",
	syscall.EDQUOT:       "Disk quota exceeded",
	syscall.EAGAIN:       "Resource temporarily unavailable",
	syscall.EINTR:        "Interrupted system call",
	syscall.ETXTBSY:      "Text file busy",
	syscall.ENXIO:        "No such device or address",
	syscall.ENODEV:       "No such device",
}

// Strerror returns the C library's text for err ("No such file or
// directory"), unwrapping *fs.PathError and friends. Errors that carry no
// errno give their own text with a capital first letter.
func Strerror(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if s, ok := strerrors[errno]; ok {
			return s
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return strerrors[syscall.ENOENT]
	case errors.Is(err, fs.ErrExist):
		return strerrors[syscall.EEXIST]
	case errors.Is(err, fs.ErrPermission):
		return strerrors[syscall.EACCES]
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	s := err.Error()
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// IsErrno reports whether err wraps the given errno.
func IsErrno(err error, errno syscall.Errno) bool {
	var e syscall.Errno
	return errors.As(err, &e) && e == errno
}
