// Package proc lets guest tools start other commands and make pipes — what
// xargs, find -exec, timeout and env need. Under wasip1 it calls the
// sandbox's "wasmsand" host module (proc_spawn, proc_wait, proc_kill,
// fd_pipe); natively it uses os/exec, so tools are tested on the build
// machine with the same code.
package proc

import (
	"errors"
	"os"
)

// ErrNotFound is returned by Start when the command does not exist.
var ErrNotFound = errors.New("no such file or directory")

// ErrPermission is returned by Start when the command is not executable.
var ErrPermission = errors.New("permission denied")

// Run starts argv and waits for it, returning its exit status.
func Run(argv, env []string, dir string, stdin, stdout, stderr *os.File) (int, error) {
	p, err := Start(argv, env, dir, stdin, stdout, stderr)
	if err != nil {
		return 0, err
	}
	return p.Wait()
}
