package modsandbox

import "github.com/wasmsand/wasmsand/wasm"

// Code is the stable, machine-readable kind of an Error. The JS binding
// passes it through unchanged as error.code.
type Code string

// The error codes.
const (
	// CodeInvalidModule: the bytes are not a WebAssembly module this
	// sandbox accepts (malformed, an import outside "env" or not declared,
	// threads, relaxed SIMD, a memory larger than the limit).
	CodeInvalidModule Code = "INVALID_MODULE"
	// CodeInvalidConfig: Create was given a config it cannot honour.
	CodeInvalidConfig Code = "INVALID_CONFIG"
	// CodeInvalidArgument: Execute was given an action or payload that
	// does not fit the guest's export.
	CodeInvalidArgument Code = "INVALID_ARGUMENT"
	// CodeInvalidResult: the guest returned a result that breaks the
	// calling convention (a pointer/length outside memory, bytes that are
	// not JSON).
	CodeInvalidResult Code = "INVALID_RESULT"
	// CodeInvalidState: the call is not allowed in the instance's status.
	CodeInvalidState Code = "INVALID_STATE"
	// CodeGasExhausted: the execution used more than Config.MaxGas.
	CodeGasExhausted Code = "GAS_EXHAUSTED"
	// CodeTimeout: the execution ran longer than Config.MaxExecutionMs.
	CodeTimeout Code = "TIMEOUT"
	// CodeMemoryExceeded: the guest failed after memory.grow hit
	// Config.MaxMemoryBytes.
	CodeMemoryExceeded Code = "MEMORY_EXCEEDED"
	// CodeWasmTrap: the guest trapped; Error.Trap says why.
	CodeWasmTrap Code = "WASM_TRAP"
	// CodeHostFunctionError: a host function returned an error; the guest
	// was stopped there.
	CodeHostFunctionError Code = "HOST_FUNCTION_ERROR"
	// CodeInstanceDestroyed: the instance was destroyed.
	CodeInstanceDestroyed Code = "INSTANCE_DESTROYED"
	// CodeSnapshotError: a snapshot could not be taken or restored;
	// Error.Check names the check that failed.
	CodeSnapshotError Code = "SNAPSHOT_ERROR"
)

// Error is every error this package returns or reports in a Result.
type Error struct {
	Code    Code
	Message string
	// Trap is the trap kind for CodeWasmTrap and CodeMemoryExceeded (when
	// the guest trapped after a failed memory.grow).
	Trap wasm.TrapKind
	// Check names the failed snapshot check for CodeSnapshotError: one of
	// "length", "magic", "version", "checksum", "module", "globals",
	// "memory".
	Check string
	// Err is the underlying error, if any.
	Err error
}

func (e *Error) Error() string {
	msg := string(e.Code)
	if e.Trap != "" {
		msg += " (" + string(e.Trap) + ")"
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code and no
// message, such as ErrGasExhausted: errors.Is(err, ErrGasExhausted).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Code == e.Code && (t.Trap == "" || t.Trap == e.Trap)
}

// Sentinels for errors.Is, one per code.
var (
	ErrInvalidModule     = &Error{Code: CodeInvalidModule}
	ErrInvalidConfig     = &Error{Code: CodeInvalidConfig}
	ErrInvalidArgument   = &Error{Code: CodeInvalidArgument}
	ErrInvalidResult     = &Error{Code: CodeInvalidResult}
	ErrInvalidState      = &Error{Code: CodeInvalidState}
	ErrGasExhausted      = &Error{Code: CodeGasExhausted}
	ErrTimeout           = &Error{Code: CodeTimeout}
	ErrMemoryExceeded    = &Error{Code: CodeMemoryExceeded}
	ErrWasmTrap          = &Error{Code: CodeWasmTrap}
	ErrHostFunction      = &Error{Code: CodeHostFunctionError}
	ErrInstanceDestroyed = &Error{Code: CodeInstanceDestroyed}
	ErrSnapshot          = &Error{Code: CodeSnapshotError}
)

func newError(code Code, msg string) *Error { return &Error{Code: code, Message: msg} }

func snapshotError(check, msg string) *Error {
	return &Error{Code: CodeSnapshotError, Check: check, Message: "check " + check + " failed: " + msg}
}
