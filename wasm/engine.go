// Package wasm holds everything wasmsand knows about WebAssembly modules as
// data and as running code: the Engine interface that runs guest modules,
// the host-function types shared by every engine, and the errors guests can
// end with. The binary decoder and instrumenter live in wasm/binary and
// wasm/instrument; the wazero engine in wasm/wazeroengine.
//
// An Engine is deliberately small so that the same WASI host, written as
// ordinary blocking Go, runs on wazero natively and on the browser's own
// WebAssembly under GOOS=js.
package wasm

import (
	"context"
	"errors"
	"fmt"
)

// ValueType is a WebAssembly number type used in host function signatures.
type ValueType byte

// The value types host functions may take and return.
const (
	I32 ValueType = 0x7f
	I64 ValueType = 0x7e
	F32 ValueType = 0x7d
	F64 ValueType = 0x7c
)

// Memory is a guest's linear memory as seen from a host function.
//
// Read may return a view that aliases guest memory (wazero) or a copy (js);
// callers must not keep it past the host call, and must write through Write.
// The boolean results are false when the range is out of bounds.
type Memory interface {
	Read(offset, byteCount uint32) ([]byte, bool)
	Write(offset uint32, b []byte) bool
	ReadUint32Le(offset uint32) (uint32, bool)
	WriteUint32Le(offset, v uint32) bool
	ReadUint64Le(offset uint32) (uint64, bool)
	WriteUint64Le(offset uint32, v uint64) bool
	// Size is the current size in bytes.
	Size() uint32
}

// CopyingMemory is a Memory whose Read returns a copy (GOOS=js): a host
// function that fills a range of guest memory does better to fill a
// buffer of its own and Write it than to Read the range first.
type CopyingMemory interface {
	Memory
	ReadCopies()
}

// HostFn implements one imported function. Parameters arrive in stack
// (encoded as by api.EncodeI32 etc. in wazero) and results are written back
// to stack[0:len(results)]. ctx is the context passed to Instantiate or
// Instance.Call that led to this call: host modules are defined once per
// engine and find their per-process state through ctx.
//
// A HostFn ends the guest by panicking with an error (for example
// *ExitError); the engine returns that error, wrapped, from Call.
type HostFn func(ctx context.Context, mem Memory, stack []uint64)

// HostFunc is one function of a host module.
type HostFunc struct {
	Name    string
	Params  []ValueType
	Results []ValueType
	Fn      HostFn
	// NonBlocking promises that Fn never waits: it sends or receives on
	// no channel, sleeps on no timer, waits for no other goroutine (no
	// sync.Cond, WaitGroup or runtime.Gosched) and holds locks only
	// briefly, so it finishes using the CPU alone. An engine that cannot
	// park a guest cheaply (under GOOS=js, a host call that may block
	// costs a trip through the event loop) runs such a function directly
	// on the guest's call. The zero value, false, means Fn may block.
	NonBlocking bool
	// Immediate, if set, tells for a function that may block whether
	// Fn, called now with these arguments, would finish without
	// waiting, as a NonBlocking one does (an fd_write with room in its
	// pipe). It must change nothing and not wait itself. Such an engine
	// asks it first and, when it says so, calls Fn directly on the
	// guest's call, with nothing else running in between.
	Immediate func(ctx context.Context, mem Memory, stack []uint64) bool
}

// HostModule is a named group of host functions guests may import.
type HostModule struct {
	Name  string
	Funcs []HostFunc
}

// Engine compiles and runs guest modules. Host modules are fixed when the
// engine is created. An Engine is safe for concurrent use.
type Engine interface {
	// Compile validates and compiles a (normally instrumented) module.
	// Invalid bytes give an error wrapping ErrInvalidModule.
	Compile(ctx context.Context, bin []byte) (Module, error)
	// Close releases every module and instance of the engine.
	Close(ctx context.Context) error
}

// A Preparer is an Engine that rewrites every module for its host before
// compiling it (platform/hostwasm fills Go's function table on first use
// and turns the memory into an import, so that it can be recycled).
// Compile does both steps; a caller that keeps modules across processes
// (the sandbox's ModuleStore) keeps Prepare's output instead of the bytes
// it was given, so that a later process only compiles: in a browser the
// rewrite of a multi-megabyte tool takes a few hundred milliseconds.
type Preparer interface {
	Engine
	// PreparedFormat names the form Prepare writes. It changes whenever
	// Prepare's output for the same input may, so that a kept module of
	// another form is never compiled.
	PreparedFormat() string
	// Prepare validates what Compile would validate and returns bin
	// rewritten into the engine's prepared form.
	Prepare(ctx context.Context, bin []byte) ([]byte, error)
	// CompilePrepared compiles Prepare's output. Bytes that are not in the
	// prepared form give an error wrapping ErrInvalidModule.
	CompilePrepared(ctx context.Context, prepared []byte) (Module, error)
}

// Module is a compiled module that can be instantiated many times.
type Module interface {
	// Instantiate creates a fresh instance. The start function, if any,
	// runs with ctx; WASI commands are started by calling "_start".
	Instantiate(ctx context.Context) (Instance, error)
	// Exports lists the names of exported functions.
	Exports() []string
	Close(ctx context.Context) error
}

// Instance is one running copy of a module with its own memory and globals.
type Instance interface {
	// Call invokes an exported function. Traps give an error wrapping
	// *Trap; a host function's panic(err) gives an error wrapping err.
	Call(ctx context.Context, name string, params ...uint64) ([]uint64, error)
	// Memory is the instance's exported memory, or nil.
	Memory() Memory
	// Global reads an exported global; ok is false if there is none.
	Global(name string) (v uint64, ok bool)
	// SetGlobal writes an exported mutable global.
	SetGlobal(name string, v uint64) bool
	Close(ctx context.Context) error
}

// ErrInvalidModule is wrapped by errors about bytes that are not a valid or
// acceptable WebAssembly module.
var ErrInvalidModule = errors.New("invalid WebAssembly module")

// ExitError ends a guest with an exit code (WASI proc_exit, a signal, a
// limit). Host functions panic with it; Call returns it.
type ExitError struct {
	Code   uint32
	Reason string // empty for a normal proc_exit
}

func (e *ExitError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("exit status %d: %s", e.Code, e.Reason)
	}
	return fmt.Sprintf("exit status %d", e.Code)
}

// TrapKind says why a guest trapped.
type TrapKind string

// Trap kinds engines report.
const (
	TrapUnreachable        TrapKind = "unreachable"
	TrapDivideByZero       TrapKind = "integer divide by zero"
	TrapIntegerOverflow    TrapKind = "integer overflow"
	TrapOutOfBounds        TrapKind = "out of bounds memory access"
	TrapStackOverflow      TrapKind = "stack overflow"
	TrapIndirectCall       TrapKind = "indirect call type mismatch"
	TrapInvalidTableAccess TrapKind = "invalid table access"
	TrapInvalidConversion  TrapKind = "invalid conversion to integer"
	TrapOther              TrapKind = "trap"
)

// Trap is a WebAssembly trap raised by the guest itself.
type Trap struct {
	Kind TrapKind
	Msg  string // the engine's own description
}

func (t *Trap) Error() string { return "wasm trap: " + string(t.Kind) }
