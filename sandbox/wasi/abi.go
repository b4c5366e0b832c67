package wasi

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// errno is a WASI preview1 error number. The VFS uses the same numbering,
// so a vfs.Errno converts unchanged.
type errno uint16

// The WASI preview1 error numbers the host returns.
const (
	errnoSuccess     errno = 0
	errnoACCES       errno = 2
	errnoAGAIN       errno = 6
	errnoBADF        errno = 8
	errnoEXIST       errno = 20
	errnoFAULT       errno = 21
	errnoINVAL       errno = 28
	errnoIO          errno = 29
	errnoISDIR       errno = 31
	errnoLOOP        errno = 32
	errnoNAMETOOLONG errno = 37
	errnoNOENT       errno = 44
	errnoNOSPC       errno = 51
	errnoNOTDIR      errno = 54
	errnoNOTEMPTY    errno = 55
	errnoNOTSOCK     errno = 57
	errnoNOTSUP      errno = 58
	errnoPERM        errno = 63
	errnoPIPE        errno = 64
	errnoSPIPE       errno = 70
	errnoNOTCAPABLE  errno = 76
)

// Rights (preview1 "rights" bit set).
const (
	rightFdDatasync uint64 = 1 << iota
	rightFdRead
	rightFdSeek
	rightFdFdstatSetFlags
	rightFdSync
	rightFdTell
	rightFdWrite
	rightFdAdvise
	rightFdAllocate
	rightPathCreateDirectory
	rightPathCreateFile
	rightPathLinkSource
	rightPathLinkTarget
	rightPathOpen
	rightFdReaddir
	rightPathReadlink
	rightPathRenameSource
	rightPathRenameTarget
	rightPathFilestatGet
	rightPathFilestatSetSize
	rightPathFilestatSetTimes
	rightFdFilestatGet
	rightFdFilestatSetSize
	rightFdFilestatSetTimes
	rightPathSymlink
	rightPathRemoveDirectory
	rightPathUnlinkFile
	rightPollFdReadwrite
	rightSockShutdown
	rightSockAccept
)

// Rights each kind of descriptor can hold at most.
const (
	// fileRights are the rights of regular files, FIFOs and devices.
	fileRights = rightFdDatasync | rightFdRead | rightFdSeek | rightFdFdstatSetFlags |
		rightFdSync | rightFdTell | rightFdWrite | rightFdAdvise | rightFdAllocate |
		rightFdFilestatGet | rightFdFilestatSetSize | rightFdFilestatSetTimes |
		rightPollFdReadwrite
	// dirRights are the rights of directories.
	dirRights = rightFdFdstatSetFlags | rightFdSync |
		rightPathCreateDirectory | rightPathCreateFile | rightPathLinkSource |
		rightPathLinkTarget | rightPathOpen | rightFdReaddir | rightPathReadlink |
		rightPathRenameSource | rightPathRenameTarget | rightPathFilestatGet |
		rightPathFilestatSetSize | rightPathFilestatSetTimes | rightFdFilestatGet |
		rightFdFilestatSetTimes | rightPathSymlink | rightPathRemoveDirectory |
		rightPathUnlinkFile | rightPollFdReadwrite
	// streamRights are the rights of host streams (stdio readers and
	// writers), less the read or write right they lack. FD_SEEK and FD_TELL
	// are held so that seeking fails with ESPIPE as on a pipe, and so that
	// wasi-libc's isatty reports false.
	streamRights = rightFdDatasync | rightFdRead | rightFdSeek | rightFdFdstatSetFlags |
		rightFdSync | rightFdTell | rightFdWrite | rightFdAdvise | rightFdFilestatGet |
		rightPollFdReadwrite
	// allRights is every right defined by preview1.
	allRights = fileRights | dirRights | rightSockShutdown | rightSockAccept
)

// File types (preview1 "filetype").
const (
	filetypeUnknown         uint8 = 0
	filetypeCharacterDevice uint8 = 2
	filetypeDirectory       uint8 = 3
	filetypeRegularFile     uint8 = 4
	filetypeSymbolicLink    uint8 = 7
)

// fdflags.
const (
	fdflagAppend   uint16 = 1 << 0
	fdflagDsync    uint16 = 1 << 1
	fdflagNonblock uint16 = 1 << 2
	fdflagRsync    uint16 = 1 << 3
	fdflagSync     uint16 = 1 << 4
	fdflagsAll            = fdflagAppend | fdflagDsync | fdflagNonblock | fdflagRsync | fdflagSync
)

// oflags.
const (
	oflagCreat     uint16 = 1 << 0
	oflagDirectory uint16 = 1 << 1
	oflagExcl      uint16 = 1 << 2
	oflagTrunc     uint16 = 1 << 3
	oflagsAll             = oflagCreat | oflagDirectory | oflagExcl | oflagTrunc
)

// lookupflags.
const lookupSymlinkFollow uint32 = 1 << 0

// fstflags.
const (
	fstflagAtim    uint16 = 1 << 0
	fstflagAtimNow uint16 = 1 << 1
	fstflagMtim    uint16 = 1 << 2
	fstflagMtimNow uint16 = 1 << 3
)

// whence.
const (
	whenceSet uint8 = 0
	whenceCur uint8 = 1
	whenceEnd uint8 = 2
)

// clockid.
const (
	clockRealtime         uint32 = 0
	clockMonotonic        uint32 = 1
	clockProcessCPUTimeID uint32 = 2
	clockThreadCPUTimeID  uint32 = 3
)

// eventtype and subclockflags.
const (
	eventtypeClock   uint8  = 0
	eventtypeFdRead  uint8  = 1
	eventtypeFdWrite uint8  = 2
	subclockAbstime  uint16 = 1
)

// advice values run from normal (0) to noreuse (5).
const adviceMax = 5

// Sizes of the preview1 records.
const (
	sizeFdstat       = 24
	sizeFilestat     = 64
	sizePrestat      = 8
	sizeDirent       = 24
	sizeIovec        = 8
	sizeSubscription = 48
	sizeEvent        = 32
)

// Permission bits for files and directories a guest creates, less the
// process's umask (022 unless Process.SetUmask changes it): preview1 has
// no mode argument.
const (
	createFilePerm fs.FileMode = 0o666
	createDirPerm  fs.FileMode = 0o777
)

// errnoOf converts an error from the VFS or a host stream to a WASI errno.
func errnoOf(err error) errno {
	if err == nil {
		return errnoSuccess
	}
	var ve vfs.Errno
	if errors.As(err, &ve) {
		return errno(ve)
	}
	switch {
	case errors.Is(err, io.ErrClosedPipe), errors.Is(err, syscall.EPIPE):
		return errnoPIPE
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, syscall.EAGAIN):
		return errnoAGAIN
	case errors.Is(err, fs.ErrNotExist):
		return errnoNOENT
	case errors.Is(err, fs.ErrExist):
		return errnoEXIST
	case errors.Is(err, fs.ErrPermission):
		return errnoACCES
	case errors.Is(err, fs.ErrClosed):
		return errnoBADF
	case errors.Is(err, fs.ErrInvalid):
		return errnoINVAL
	}
	return errnoIO
}

// filetypeOf maps a VFS inode type to a preview1 filetype. Preview1 has no
// FIFO type: FIFOs are reported as unknown, as wasmtime does for pipes.
func filetypeOf(t vfs.FileType) uint8 {
	switch t {
	case vfs.TypeRegular:
		return filetypeRegularFile
	case vfs.TypeDir:
		return filetypeDirectory
	case vfs.TypeSymlink:
		return filetypeSymbolicLink
	case vfs.TypeCharDevice:
		return filetypeCharacterDevice
	}
	return filetypeUnknown
}
