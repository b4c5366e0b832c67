//go:build !wasip1

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// Process is a started command.
type Process struct {
	cmd    *exec.Cmd
	killed bool
}

// Start starts argv with env, in dir ("" for the current directory), with
// the given files as its standard streams.
func Start(argv, env []string, dir string, stdin, stdout, stderr *os.File) (*Process, error) {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return nil, ErrPermission
		}
		return nil, ErrNotFound
	}
	cmd := &exec.Cmd{Path: path, Args: argv, Env: env, Dir: dir, Stdin: stdin, Stdout: stdout, Stderr: stderr}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &Process{cmd: cmd}, nil
}

// Wait waits for the process to end and returns its exit status; a
// process ended by a signal reports 128 plus the signal number.
func (p *Process) Wait() (int, error) {
	err := p.cmd.Wait()
	if p.killed {
		return 143, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 0, err
	}
	return 0, nil
}

// Kill ends the process; Wait then reports status 143.
func (p *Process) Kill() error {
	p.killed = true
	return p.cmd.Process.Signal(syscall.SIGTERM)
}

// Pipe returns a connected pair of files.
func Pipe() (r, w *os.File, err error) { return os.Pipe() }
