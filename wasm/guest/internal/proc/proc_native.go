//go:build !wasip1

package proc

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
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

// Self returns the caller's process id.
func Self() int { return os.Getpid() }

// Signal sends signal sig to process pid.
func Signal(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

// WaitRusage is Wait that also returns what the process used.
func (p *Process) WaitRusage() (int, Rusage, error) {
	status, err := p.Wait()
	var ru Rusage
	if st := p.cmd.ProcessState; st != nil {
		ru.User, ru.Sys = st.UserTime(), st.SystemTime()
		if r, ok := st.SysUsage().(*syscall.Rusage); ok {
			ru.MaxMem = r.Maxrss * 1024
		}
	}
	return status, ru, err
}

// List returns the machine's processes from /proc, in pid order.
func List() ([]Info, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	boot := bootTime()
	var out []Info
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name is in parentheses and may hold spaces.
		rp := bytes.LastIndexByte(stat, ')')
		if rp < 0 {
			continue
		}
		f := strings.Fields(string(stat[rp+1:]))
		if len(f) < 22 {
			continue
		}
		in := Info{Pid: pid}
		in.PPid, _ = strconv.Atoi(f[1])
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		start, _ := strconv.ParseInt(f[19], 10, 64)
		rss, _ := strconv.ParseInt(f[21], 10, 64)
		const hz = 100
		in.CPU = time.Duration(utime+stime) * time.Second / hz
		in.Start = boot.Add(time.Duration(start) * time.Second / hz)
		in.Mem = rss * int64(os.Getpagesize())
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		for _, a := range bytes.Split(bytes.TrimSuffix(cmdline, []byte{0}), []byte{0}) {
			if len(a) > 0 || len(in.Args) > 0 {
				in.Args = append(in.Args, string(a))
			}
		}
		if len(in.Args) == 0 {
			lp := bytes.IndexByte(stat, '(')
			in.Args = []string{"[" + string(stat[lp+1:rp]) + "]"}
		}
		out = append(out, in)
	}
	return out, nil
}

func bootTime() time.Time {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return time.Time{}
	}
	return time.Now().Add(-time.Duration(si.Uptime) * time.Second).Truncate(time.Second)
}

// System returns the machine's state.
func System() (SysInfo, error) {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return SysInfo{}, err
	}
	unit := int64(si.Unit)
	now := time.Now()
	return SysInfo{Boot: now.Add(-time.Duration(si.Uptime) * time.Second), Now: now,
		MemTotal: int64(si.Totalram) * unit, MemUsed: int64(si.Totalram-si.Freeram-si.Bufferram) * unit,
		FSUsed: int64(si.Bufferram) * unit, NumProcesses: int(si.Procs)}, nil
}
