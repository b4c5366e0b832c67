// Package reactor lets a guest module built as a WASI reactor
// (-buildmode=c-shared) run as a fresh process after its initialisation
// was done once and snapshotted (see wasm/preinit).
//
// The Go runtime and every package's init run inside _initialize, before
// the snapshot: what they read from the process then is the image's. The
// build adds to each main package an export, wasmsand_main, that calls
// Reset and then main. Reset reads again what differs between processes:
// os.Args, the environment, the working directory ($PWD, as Go's syscall
// package takes it) and the non-blocking flag Go sets on the standard
// files.
//
// What stays as initialisation left it, by design or for want of a way in:
//   - the preopened directories: fd 3 is "/", as in every sandbox process;
//   - the runtime's random generator (math/rand and math/rand/v2 top-level
//     functions, map iteration order): the same in every process of an
//     image, still deterministic; tools that need per-process randomness
//     seed their own generator from random_get (tool.Seed);
//   - settings the runtime reads from the environment at start-up only:
//     GOGC, GOMAXPROCS, GODEBUG, GOTRACEBACK;
//   - flag.CommandLine's name (the image's argv[0]); our tools parse their
//     own options;
//   - the monotonic clock's origin (time's start-up reading), which only
//     shifts monotonic readings by the microseconds initialisation took.
package reactor
