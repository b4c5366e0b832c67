package jsbridge

import (
	"errors"
	"fmt"
	"io/fs"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

// This file holds what needs no JavaScript, so it is tested natively.

// Stable error codes for SandboxError.code.
const (
	codeInvalidArgument = "INVALID_ARGUMENT"
	codeClosed          = "CLOSED"
	codeBusy            = "EBUSY"
	codeAborted         = "ABORTED"
	codeInvalidModule   = "INVALID_MODULE"
	codeInternal        = "INTERNAL"
	codeSnapshot        = "SNAPSHOT_ERROR" // the error's check property names the check
	codeQuota           = "QUOTA_EXCEEDED"
	codeNotFound        = "NOT_FOUND"
)

// argError is a bad argument from JavaScript.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func argErrorf(format string, args ...any) error {
	return &argError{fmt.Sprintf(format, args...)}
}

// errAborted is the cause of a Run cancelled through its AbortSignal.
var errAborted = errors.New("the command was aborted")

// errCode is the SandboxError code for err.
func errCode(err error) string {
	var errno vfs.Errno
	var ae *argError
	var be *busyError
	var se *sandbox.SnapshotError
	switch {
	case errors.As(err, &ae):
		return codeInvalidArgument
	case errors.As(err, &se):
		return codeSnapshot
	case errors.Is(err, sandbox.ErrQuota):
		return codeQuota
	case errors.Is(err, sandbox.ErrNotFound):
		return codeNotFound
	case errors.Is(err, sandbox.ErrBusy):
		return codeBusy
	case errors.As(err, &be):
		return codeBusy
	case errors.Is(err, sandbox.ErrClosed):
		return codeClosed
	case errors.Is(err, errAborted):
		return codeAborted
	case errors.Is(err, wasm.ErrInvalidModule):
		return codeInvalidModule
	case errors.As(err, &errno):
		if name := errno.Name(); name != "" {
			return name
		}
	case errors.Is(err, fs.ErrNotExist):
		return "ENOENT"
	case errors.Is(err, fs.ErrExist):
		return "EEXIST"
	case errors.Is(err, fs.ErrPermission):
		return "EACCES"
	}
	return codeInternal
}

type busyError struct{}

func (*busyError) Error() string {
	return "setEnv: a command is running; wait for run() to settle"
}

// incompleteTail is the length of a UTF-8 sequence cut short at the end
// of b.
func incompleteTail(b []byte) int {
	for n := 1; n <= min(utf8.UTFMax-1, len(b)); n++ {
		c := b[len(b)-n]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}
