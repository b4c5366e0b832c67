// Package sandbox is the wasmsand core: a bash shell (package shell, on
// mvdan.cc/sh/v3's parser) whose commands are WASI preview1 guests, run
// over an in-memory filesystem with hard limits on time, fuel, memory,
// disk, processes and output.
//
//	sb, err := sandbox.New(ctx, sandbox.Options{})
//	defer sb.Close()
//	res, err := sb.Run(ctx, "seq 10 | grep 1 | wc -l")
//
// Shell state (variables, functions, working directory) persists across Run
// calls of one Sandbox.
package sandbox
