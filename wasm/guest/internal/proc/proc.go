// Package proc lets guest tools start other commands and make pipes — what
// xargs, find -exec, timeout and env need. Under wasip1 it calls the
// sandbox's "wasmsand" host module (proc_spawn, proc_wait, proc_kill,
// fd_pipe); natively it uses os/exec, so tools are tested on the build
// machine with the same code.
package proc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"
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

// Info is one process of the sandbox's table (or, natively, the
// machine's).
type Info struct {
	Pid, PPid int
	Start     time.Time     // when it started
	CPU       time.Duration // the CPU time it used so far
	Mem       int64         // its memory now, in bytes (0 if unknown)
	Args      []string      // its command line; Args[0] names it
}

// Rusage is what an ended child and the children it waited for used.
type Rusage struct {
	User, Sys time.Duration
	MaxMem    int64 // peak memory in bytes
	Fuel      int64 // the sandbox's fuel units (0 natively)
}

// SysInfo is the state of the sandbox as a whole (natively, of the
// machine).
type SysInfo struct {
	Boot, Now    time.Time
	MemTotal     int64 // bytes one process may use
	MemUsed      int64 // bytes live processes use
	FSUsed       int64 // bytes the in-memory file system holds
	NumProcesses int
}

// parseList decodes the sandbox's proc_list records.
func parseList(b []byte) ([]Info, error) {
	var out []Info
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return nil, errors.New("proc: truncated process list")
		}
		f := strings.Fields(string(b[:nl]))
		b = b[nl+1:]
		if len(f) != 6 {
			return nil, errors.New("proc: malformed process list")
		}
		var v [6]int64
		for i, s := range f {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, errors.New("proc: malformed process list")
			}
			v[i] = n
		}
		in := Info{Pid: int(v[0]), PPid: int(v[1]), Start: time.Unix(0, v[2]), CPU: time.Duration(v[3]), Mem: v[4]}
		for i := int64(0); i < v[5]; i++ {
			z := bytes.IndexByte(b, 0)
			if z < 0 {
				return nil, errors.New("proc: truncated process list")
			}
			in.Args = append(in.Args, string(b[:z]))
			b = b[z+1:]
		}
		out = append(out, in)
	}
	return out, nil
}
