package binary

import (
	"fmt"

	"github.com/wasmsand/wasmsand/wasm"
)

// Error is a decoding error: what was wrong and at which byte offset of
// the module. It wraps wasm.ErrInvalidModule.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("wasm binary: at offset %#x: %s", e.Offset, e.Msg)
}

// Unwrap returns wasm.ErrInvalidModule.
func (e *Error) Unwrap() error { return wasm.ErrInvalidModule }

func errorf(off int, format string, args ...any) error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}
