// Package reactor lets a guest module built as a WASI reactor
// (-buildmode=c-shared) run as a fresh process after its initialisation
// was done once and snapshotted (see wasm/preinit).
//
// The Go runtime and every package's init run inside _initialize, before
// the snapshot: what they read from the process then (arguments,
// environment, working directory, the flags of the standard files) is the
// snapshot's. The build adds to each main package an export,
// wasmsand_main, that calls Reset and then main: Reset reads all of that
// again from the process that runs now.
package reactor
