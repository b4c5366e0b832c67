package wazeroengine

import (
	"errors"
	"reflect"

	"github.com/tetratelabs/wazero/sys"

	"github.com/wasmsand/wasmsand/wasm"
)

// wasmruntimePkg is the package of wazero's trap errors. It is internal, so
// traps are recognized by the type's package and told apart by message.
const wasmruntimePkg = "github.com/tetratelabs/wazero/internal/wasmruntime"

var trapKinds = map[string]wasm.TrapKind{
	"unreachable":                   wasm.TrapUnreachable,
	"integer divide by zero":        wasm.TrapDivideByZero,
	"integer overflow":              wasm.TrapIntegerOverflow,
	"out of bounds memory access":   wasm.TrapOutOfBounds,
	"stack overflow":                wasm.TrapStackOverflow,
	"indirect call type mismatch":   wasm.TrapIndirectCall,
	"invalid table access":          wasm.TrapInvalidTableAccess,
	"invalid conversion to integer": wasm.TrapInvalidConversion,
}

// convertError turns an error from a wazero call into the engine-neutral
// form: a host function's *wasm.ExitError as is, wazero's *sys.ExitError as
// a *wasm.ExitError, a trap as a *wasm.Trap. Anything else, such as the
// error a host function panicked with (which wazero wraps with %w), is
// returned unchanged.
func convertError(err error) error {
	var exit *wasm.ExitError
	if errors.As(err, &exit) {
		return exit
	}
	var sysExit *sys.ExitError
	if errors.As(err, &sysExit) {
		return &wasm.ExitError{Code: sysExit.ExitCode(), Reason: "instance closed"}
	}
	for u := err; u != nil; u = errors.Unwrap(u) {
		if isRuntimeError(u) {
			kind, ok := trapKinds[u.Error()]
			if !ok {
				kind = wasm.TrapOther
			}
			return &wasm.Trap{Kind: kind, Msg: err.Error()}
		}
	}
	return err
}

func isRuntimeError(err error) bool {
	t := reflect.TypeOf(err)
	return t.Kind() == reflect.Pointer && t.Elem().PkgPath() == wasmruntimePkg
}
