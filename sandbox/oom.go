package sandbox

import (
	"bytes"
	"errors"
	"path"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
)

// oomWatch turns a Go guest's crash for want of memory into one line.
//
// The instrumenter clamps every module's memory to the sandbox's cap, so a
// guest that wants more sees memory.grow fail. A C guest's malloc then
// returns NULL, which it handles (CPython raises MemoryError). The Go
// runtime cannot: it prints "runtime: out of memory: …" or "fatal error:
// …" and a dump of every goroutine to fd 2, and exits with status 2 (or
// traps, as a c-shared build does). Commands that hold their input check
// their own heap (tool.CheckMemory) and stop with GNU's "memory
// exhausted"; every other allocation is watched here, for every Go guest
// at once: the instrumenter counts refused growths in an exported global
// (instrument.GrowFailuresGlobal), and once it is not 0 a write to fd 2
// starting as the runtime's report marks the process crashed. From then
// on fd 2 is dropped, and when the guest dies the shell writes "NAME:
// memory exhausted" and returns status 2, as GNU's tools do when malloc
// fails. A crash that is not for memory (a bug's panic, a nil
// dereference) comes with no refused growth and passes through untouched.
type oomWatch struct {
	// refused reports whether a memory.grow of the guest has been
	// refused; nil until the guest is instantiated.
	refused func() bool
	crashed bool // the runtime's report began
}

// runtimeCrash are the ways the Go runtime begins its report of a fatal
// error: "runtime: out of memory: cannot allocate …" from the heap,
// "fatal error: …" from every other throw.
var runtimeCrash = [][]byte{[]byte("runtime: "), []byte("fatal error: ")}

// drop is wasi.Config.DropStderr: it reports whether b, written to fd 2,
// is part of the runtime's report of running out of memory.
func (w *oomWatch) drop(b []byte) bool {
	if w.crashed {
		return true
	}
	if w.refused == nil || !w.refused() {
		return false
	}
	for _, p := range runtimeCrash {
		if bytes.HasPrefix(b, p) {
			w.crashed = true
			return true
		}
	}
	return false
}

// ranOut reports whether the guest, which ended with err from _start,
// died for want of memory: the runtime's report began after a growth was
// refused, and the guest failed (exited with a status other than 0, or
// trapped). A refused growth alone is not enough: the runtime may take
// the memory it wanted from pages it freed before and live on, and then
// a failure is the program's own.
func (w *oomWatch) ranOut(err error) bool {
	if exit, ok := asExitError(err); err == nil || ok && exit.Code == 0 {
		return false
	}
	return w.crashed
}

// asExitError returns err as a *wasm.ExitError if it is or wraps one.
// Engines return it as is: the type assertion first spares errors.As's
// reflection, which was half a percent of the CPU time of a loop of
// short processes in the js core.
func asExitError(err error) (*wasm.ExitError, bool) {
	if exit, ok := err.(*wasm.ExitError); ok {
		return exit, true
	}
	var exit *wasm.ExitError
	ok := errors.As(err, &exit)
	return exit, ok
}

// oomMessage is the line the shell writes for a guest named name (its
// argv[0]) whose runtime crashed for want of memory.
func oomMessage(name string) string {
	return path.Base(name) + ": memory exhausted\n"
}

// builtByGo reports whether bin is a module built by Go's toolchain, whose
// linker always writes a "go:buildid" custom section.
func builtByGo(bin []byte) bool {
	return binary.HasCustom(bin, "go:buildid")
}
