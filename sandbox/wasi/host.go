package wasi

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"runtime"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
)

// hostFn is the body of one preview1 function. It reads its parameters from
// stack and returns the errno the guest receives.
type hostFn func(ctx context.Context, p *Process, mem wasm.Memory, stack []uint64) errno

const (
	i32 = wasm.I32
	i64 = wasm.I64
)

// errNoProcess is the panic of a host function called without a Process.
var errNoProcess = errors.New("wasi: no Process in the call's context; wrap it with wasi.WithProcess")

// HostModule returns the wasi_snapshot_preview1 host module: all 46
// functions. Each finds the calling guest's Process with FromContext and
// panics if there is none.
func HostModule() wasm.HostModule {
	return wasm.HostModule{Name: ModuleName, Funcs: []wasm.HostFunc{
		nonBlocking(fn("args_get", argsGet, i32, i32)),
		nonBlocking(fn("args_sizes_get", argsSizesGet, i32, i32)),
		nonBlocking(fn("environ_get", environGet, i32, i32)),
		nonBlocking(fn("environ_sizes_get", environSizesGet, i32, i32)),
		nonBlocking(fn("clock_res_get", clockResGet, i32, i32)),
		nonBlocking(fn("clock_time_get", clockTimeGet, i32, i64, i32)),
		nonBlocking(fn("fd_advise", fdAdvise, i32, i64, i64, i32)),
		nonBlocking(fn("fd_allocate", fdAllocate, i32, i64, i64)),
		nonBlocking(fn("fd_close", fdClose, i32)),
		nonBlocking(fn("fd_datasync", fdDatasync, i32)),
		nonBlocking(fn("fd_fdstat_get", fdFdstatGet, i32, i32)),
		nonBlocking(fn("fd_fdstat_set_flags", fdFdstatSetFlags, i32, i32)),
		nonBlocking(fn("fd_fdstat_set_rights", fdFdstatSetRights, i32, i64, i64)),
		nonBlocking(fn("fd_filestat_get", fdFilestatGet, i32, i32)),
		nonBlocking(fn("fd_filestat_set_size", fdFilestatSetSize, i32, i64)),
		nonBlocking(fn("fd_filestat_set_times", fdFilestatSetTimes, i32, i64, i64, i32)),
		nonBlocking(fn("fd_pread", fdPread, i32, i32, i32, i64, i32)),
		nonBlocking(fn("fd_prestat_get", fdPrestatGet, i32, i32)),
		nonBlocking(fn("fd_prestat_dir_name", fdPrestatDirName, i32, i32, i32)),
		nonBlocking(fn("fd_pwrite", fdPwrite, i32, i32, i32, i64, i32)),
		immediate(fn("fd_read", fdRead, i32, i32, i32, i32), fdReadNow),
		nonBlocking(fn("fd_readdir", fdReaddir, i32, i32, i32, i64, i32)),
		nonBlocking(fn("fd_renumber", fdRenumber, i32, i32)),
		nonBlocking(fn("fd_seek", fdSeek, i32, i64, i32, i32)),
		nonBlocking(fn("fd_sync", fdSync, i32)),
		nonBlocking(fn("fd_tell", fdTell, i32, i32)),
		immediate(fn("fd_write", fdWrite, i32, i32, i32, i32), fdWriteNow),
		nonBlocking(fn("path_create_directory", pathCreateDirectory, i32, i32, i32)),
		nonBlocking(fn("path_filestat_get", pathFilestatGet, i32, i32, i32, i32, i32)),
		nonBlocking(fn("path_filestat_set_times", pathFilestatSetTimes, i32, i32, i32, i32, i64, i64, i32)),
		nonBlocking(fn("path_link", pathLink, i32, i32, i32, i32, i32, i32, i32)),
		nonBlocking(fn("path_open", pathOpen, i32, i32, i32, i32, i32, i64, i64, i32, i32)),
		nonBlocking(fn("path_readlink", pathReadlink, i32, i32, i32, i32, i32, i32)),
		nonBlocking(fn("path_remove_directory", pathRemoveDirectory, i32, i32, i32)),
		nonBlocking(fn("path_rename", pathRename, i32, i32, i32, i32, i32, i32)),
		nonBlocking(fn("path_symlink", pathSymlink, i32, i32, i32, i32, i32)),
		nonBlocking(fn("path_unlink_file", pathUnlinkFile, i32, i32, i32)),
		fn("poll_oneoff", pollOneoff, i32, i32, i32, i32),
		{Name: "proc_exit", Params: []wasm.ValueType{i32}, Fn: procExit, NonBlocking: true},
		nonBlocking(fn("proc_raise", notSupported, i32)),
		fn("sched_yield", schedYield),
		nonBlocking(fn("random_get", randomGet, i32, i32)),
		nonBlocking(fn("sock_accept", notSocket, i32, i32, i32)),
		nonBlocking(fn("sock_recv", notSocket, i32, i32, i32, i32, i32, i32)),
		nonBlocking(fn("sock_send", notSocket, i32, i32, i32, i32, i32)),
		nonBlocking(fn("sock_shutdown", notSocket, i32, i32)),
	}}
}

var errnoResult = []wasm.ValueType{i32}

// nonBlocking marks a function that never waits (wasm.HostFunc.NonBlocking):
// fd_read, fd_write, poll_oneoff and sched_yield may wait on pipes, FIFOs,
// timers or the scheduler; the others do not (fd_pread and fd_pwrite on a
// pipe fail with ESPIPE).
func nonBlocking(f wasm.HostFunc) wasm.HostFunc {
	f.NonBlocking = true
	return f
}

// immediate gives a function that may wait the test of
// wasm.HostFunc.Immediate: now tells whether it would finish at once.
func immediate(f wasm.HostFunc, now func(p *Process, mem wasm.Memory, stack []uint64) bool) wasm.HostFunc {
	f.Immediate = func(ctx context.Context, mem wasm.Memory, stack []uint64) bool {
		p := FromContext(ctx)
		return p == nil || now(p, mem, stack)
	}
	return f
}

func fn(name string, f hostFn, params ...wasm.ValueType) wasm.HostFunc {
	return wasm.HostFunc{
		Name:    name,
		Params:  params,
		Results: errnoResult,
		Fn: func(ctx context.Context, mem wasm.Memory, stack []uint64) {
			p := FromContext(ctx)
			if p == nil {
				panic(errNoProcess)
			}
			stack[0] = uint64(f(ctx, p, mem, stack))
		},
	}
}

// Small helpers for guest memory.

func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }

// writeU32 stores v at ptr, reporting EFAULT when out of bounds.
func writeU32(mem wasm.Memory, ptr, v uint32) errno {
	if !mem.WriteUint32Le(ptr, v) {
		return errnoFAULT
	}
	return errnoSuccess
}

func writeU64(mem wasm.Memory, ptr uint32, v uint64) errno {
	if !mem.WriteUint64Le(ptr, v) {
		return errnoFAULT
	}
	return errnoSuccess
}

// inBounds reports whether [ptr, ptr+n) lies in memory.
func inBounds(mem wasm.Memory, ptr uint32, n uint64) bool {
	return uint64(ptr)+n <= uint64(mem.Size())
}

// Arguments and environment.

func argsGet(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	return putStrings(mem, uint32(s[0]), uint32(s[1]), p.args, p.argc)
}

func argsSizesGet(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	return putSizes(mem, uint32(s[0]), uint32(s[1]), p.args, p.argc)
}

func environGet(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	return putStrings(mem, uint32(s[0]), uint32(s[1]), p.env, p.envc)
}

func environSizesGet(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	return putSizes(mem, uint32(s[0]), uint32(s[1]), p.env, p.envc)
}

// putStrings writes the pointer array at ptrs and the packed strings at buf.
func putStrings(mem wasm.Memory, ptrs, buf uint32, packed []byte, count int) errno {
	if !inBounds(mem, ptrs, 4*uint64(count)) || !inBounds(mem, buf, uint64(len(packed))) {
		return errnoFAULT
	}
	start := 0
	for i := 0; i < count; i++ {
		mem.WriteUint32Le(ptrs+4*uint32(i), buf+uint32(start))
		for packed[start] != 0 {
			start++
		}
		start++
	}
	mem.Write(buf, packed)
	return errnoSuccess
}

func putSizes(mem wasm.Memory, countPtr, sizePtr uint32, packed []byte, count int) errno {
	if en := writeU32(mem, countPtr, uint32(count)); en != errnoSuccess {
		return en
	}
	return writeU32(mem, sizePtr, uint32(len(packed)))
}

// Clocks, randomness and the process.

func clockResGet(_ context.Context, _ *Process, mem wasm.Memory, s []uint64) errno {
	var res uint64
	switch uint32(s[0]) {
	case clockRealtime:
		res = uint64(time.Microsecond)
	case clockMonotonic, clockProcessCPUTimeID, clockThreadCPUTimeID:
		res = 1
	default:
		return errnoINVAL
	}
	return writeU64(mem, uint32(s[1]), res)
}

func clockTimeGet(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	t, en := p.clock(uint32(s[0]))
	if en != errnoSuccess {
		return en
	}
	return writeU64(mem, uint32(s[2]), uint64(t))
}

// clock reads clock id in nanoseconds.
func (p *Process) clock(id uint32) (int64, errno) {
	switch id {
	case clockRealtime:
		return p.now().UnixNano(), errnoSuccess
	case clockMonotonic, clockProcessCPUTimeID, clockThreadCPUTimeID:
		return p.nanotime(), errnoSuccess
	}
	return 0, errnoINVAL
}

func randomGet(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	ptr, n := uint32(s[0]), uint32(s[1])
	buf, ok := mem.Read(ptr, n)
	if !ok {
		return errnoFAULT
	}
	if p.random == nil {
		clear(buf)
	} else if _, err := io.ReadFull(p.random, buf); err != nil {
		return errnoIO
	}
	mem.Write(ptr, buf)
	return errnoSuccess
}

func procExit(_ context.Context, _ wasm.Memory, s []uint64) {
	panic(&wasm.ExitError{Code: uint32(s[0])})
}

func schedYield(context.Context, *Process, wasm.Memory, []uint64) errno {
	runtime.Gosched()
	return errnoSuccess
}

// notSocket serves the sock_* functions: the sandbox has no sockets, so
// every open fd is not a socket (ENOTSOCK) and any other is EBADF, as on
// POSIX.
func notSocket(_ context.Context, p *Process, _ wasm.Memory, s []uint64) errno {
	if _, en := p.get(uint32(s[0]), 0); en != errnoSuccess {
		return en
	}
	return errnoNOTSOCK
}

// notSupported serves proc_raise: the sandbox has no signals.
func notSupported(context.Context, *Process, wasm.Memory, []uint64) errno {
	return errnoNOTSUP
}

// timeArgs decodes the times of fd_filestat_set_times and
// path_filestat_set_times.
func (p *Process) timeArgs(atim, mtim uint64, fst uint16) (a, m *time.Time, en errno) {
	if fst&^(fstflagAtim|fstflagAtimNow|fstflagMtim|fstflagMtimNow) != 0 ||
		fst&(fstflagAtim|fstflagAtimNow) == fstflagAtim|fstflagAtimNow ||
		fst&(fstflagMtim|fstflagMtimNow) == fstflagMtim|fstflagMtimNow {
		return nil, nil, errnoINVAL
	}
	var now time.Time
	if fst&(fstflagAtimNow|fstflagMtimNow) != 0 {
		now = p.now()
	}
	switch {
	case fst&fstflagAtimNow != 0:
		a = &now
	case fst&fstflagAtim != 0:
		t := nsTime(atim)
		a = &t
	}
	switch {
	case fst&fstflagMtimNow != 0:
		m = &now
	case fst&fstflagMtim != 0:
		t := nsTime(mtim)
		m = &t
	}
	return a, m, errnoSuccess
}

func nsTime(ns uint64) time.Time {
	if ns > math.MaxInt64 {
		ns = math.MaxInt64
	}
	return time.Unix(0, int64(ns))
}

// unixNano converts t to preview1's unsigned nanoseconds; times before 1970
// and the zero Time give 0.
func unixNano(t time.Time) uint64 {
	if t.IsZero() || t.Unix() < 0 {
		return 0
	}
	if t.Unix() >= math.MaxInt64/int64(time.Second) {
		return math.MaxInt64
	}
	return uint64(t.UnixNano())
}
