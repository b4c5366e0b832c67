//go:build wasip1

package proc

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

//go:wasmimport wasmsand proc_spawn
func procSpawn(argv unsafe.Pointer, argvLen uint32, env unsafe.Pointer, envLen uint32, dir unsafe.Pointer, dirLen uint32, stdin, stdout, stderr uint32, pid unsafe.Pointer) uint32

//go:wasmimport wasmsand proc_wait_timeout
func procWaitTimeout(pid int32, ns int64, status unsafe.Pointer) uint32

// waitSlice is how long one host wait lasts before the guest's own
// goroutines (timers, as in timeout) get a turn: a host call blocks the
// whole single-threaded guest.
const waitSlice = 10 * time.Millisecond

//go:wasmimport wasmsand proc_kill
func procKill(pid int32) uint32

//go:wasmimport wasmsand fd_pipe
func fdPipe(fds unsafe.Pointer) uint32

// Process is a started command.
type Process struct{ pid int32 }

// pack joins strings, each NUL-terminated.
func pack(ss []string) []byte {
	var b []byte
	for _, s := range ss {
		b = append(b, s...)
		b = append(b, 0)
	}
	return b
}

func ptr(b []byte) unsafe.Pointer {
	if cap(b) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(b))
}

// Start starts argv with env, in dir ("" for the current directory), with
// the given files as its standard streams.
func Start(argv, env []string, dir string, stdin, stdout, stderr *os.File) (*Process, error) {
	a, e, d := pack(argv), pack(env), []byte(dir)
	var pid int32
	en := procSpawn(ptr(a), uint32(len(a)), ptr(e), uint32(len(e)), ptr(d), uint32(len(d)),
		uint32(stdin.Fd()), uint32(stdout.Fd()), uint32(stderr.Fd()), unsafe.Pointer(&pid))
	switch en {
	case 0:
		return &Process{pid: pid}, nil
	case uint32(syscall.ENOENT):
		return nil, ErrNotFound
	case uint32(syscall.EACCES):
		return nil, ErrPermission
	}
	return nil, fmt.Errorf("starting %s: %w", argv[0], syscall.Errno(en))
}

// Wait waits for the process to end and returns its exit status. Other
// goroutines of the caller keep running while it waits.
func (p *Process) Wait() (int, error) {
	var status uint32
	for {
		switch en := procWaitTimeout(p.pid, int64(waitSlice), unsafe.Pointer(&status)); en {
		case 0:
			return int(status), nil
		case uint32(syscall.EAGAIN):
			runtime.Gosched()
		default:
			return 0, syscall.Errno(en)
		}
	}
}

// Kill ends the process; Wait then reports status 143.
func (p *Process) Kill() error {
	if en := procKill(p.pid); en != 0 {
		return syscall.Errno(en)
	}
	return nil
}

// Pipe returns a connected pair of files.
func Pipe() (r, w *os.File, err error) {
	var fds [2]uint32
	if en := fdPipe(unsafe.Pointer(&fds)); en != 0 {
		return nil, nil, syscall.Errno(en)
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}

//go:wasmimport wasmsand proc_self
func procSelf(pid unsafe.Pointer) uint32

//go:wasmimport wasmsand proc_list
func procList(buf unsafe.Pointer, n uint32, used unsafe.Pointer) uint32

//go:wasmimport wasmsand proc_signal
func procSignal(pid, sig int32) uint32

//go:wasmimport wasmsand proc_wait_rusage
func procWaitRusage(pid int32, ns int64, status, rusage unsafe.Pointer) uint32

//go:wasmimport wasmsand sys_info
func sysInfo(out unsafe.Pointer) uint32

// Self returns the caller's process id.
func Self() int {
	var pid int32
	if procSelf(unsafe.Pointer(&pid)) != 0 {
		return 0
	}
	return int(pid)
}

// List returns the sandbox's processes in pid order.
func List() ([]Info, error) {
	buf := make([]byte, 4096)
	for {
		var used uint32
		switch en := procList(unsafe.Pointer(unsafe.SliceData(buf)), uint32(len(buf)), unsafe.Pointer(&used)); en {
		case 0:
			return parseList(buf[:used])
		case uint32(syscall.E2BIG):
			buf = make([]byte, used+4096)
		default:
			return nil, syscall.Errno(en)
		}
	}
}

// Signal sends signal sig to the sandbox process pid.
func Signal(pid int, sig syscall.Signal) error {
	if en := procSignal(int32(pid), int32(sig)); en != 0 {
		return syscall.Errno(en)
	}
	return nil
}

// WaitRusage is Wait that also returns what the process used.
func (p *Process) WaitRusage() (int, Rusage, error) {
	var status uint32
	var ru [4]uint64
	for {
		switch en := procWaitRusage(p.pid, int64(waitSlice), unsafe.Pointer(&status), unsafe.Pointer(&ru)); en {
		case 0:
			return int(status), Rusage{User: time.Duration(ru[0]), Sys: time.Duration(ru[1]), MaxMem: int64(ru[2]), Fuel: int64(ru[3])}, nil
		case uint32(syscall.EAGAIN):
			runtime.Gosched()
		default:
			return 0, Rusage{}, syscall.Errno(en)
		}
	}
}

// System returns the sandbox's state.
func System() (SysInfo, error) {
	var v [6]uint64
	if en := sysInfo(unsafe.Pointer(&v)); en != 0 {
		return SysInfo{}, syscall.Errno(en)
	}
	return SysInfo{Boot: time.Unix(0, int64(v[0])), Now: time.Unix(0, int64(v[1])), MemTotal: int64(v[2]),
		MemUsed: int64(v[3]), FSUsed: int64(v[4]), NumProcesses: int(v[5])}, nil
}
