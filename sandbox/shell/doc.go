// Package shell is wasmsand's bash interpreter: mvdan.cc/sh/v3/syntax
// parses, this package executes, with bash 5.2's semantics for what
// scripts and agents write — expansions, variables and arrays, builtins,
// redirections and file descriptors, pipelines, jobs and traps.
//
// The interpreter has no access to the host by construction: files are
// the sandbox's VFS (sandbox/vfs), and everything else it cannot do
// itself — running a program, counting a process against the sandbox's
// limits, checking the deadline — goes through the small Host interface.
// Its state (variables, functions, aliases, options, traps, working
// directory, directory stack) is plain data in the Interp, so a snapshot
// can write it out and read it back.
//
// Limits hold for the shell itself, which runs in the host process: the
// bytes one expansion may produce, the nesting of function calls and
// subshells, and the Run's context. Crossing one ends the command with a
// message and a non-zero status; no panic reaches the caller.
package shell
