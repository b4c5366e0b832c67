package sandbox

import (
	"context"
	"encoding/binary"
	"errors"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/sandbox/wasi"
	"github.com/wasmsand/wasmsand/wasm"
)

// The sandbox's process table: the main shell and every program the shell
// or a guest starts (a tool, a module, a script and the shell that runs
// it), each under the pid the shell shows ($$, $!). Subshells that run
// compound commands are not listed; a subshell that runs one command
// shares its pid with that command, as bash's exec does. Guests read the
// table and signal its processes through the "wasmsand" host module:
//
//	proc_self(pid_out: i32) -> errno             the caller's pid
//	proc_list(buf, buf_len, used_out: i32) -> errno
//	                                             the table, as records (below); E2BIG
//	                                             with the size needed in used_out if
//	                                             buf_len is too small
//	proc_signal(pid, sig: i32) -> errno          sends sig to pid: ESRCH if none,
//	                                             EPERM for the main shell, ENOTSUP
//	                                             for stop signals; 0 only checks
//	proc_sigpipe(ignore: i32) -> errno           1: the caller ignores SIGPIPE, so a write
//	                                             to a pipe with no reader fails with EPIPE;
//	                                             0: such a write ends it with status 141,
//	                                             as SIGPIPE does (every process's start)
//	proc_wait_rusage(pid: i32, ns: i64, status_out, rusage_out: i32) -> errno
//	                                             proc_wait_timeout, also storing u64 ×
//	                                             4: user ns, system ns, peak memory
//	                                             bytes, fuel used, of pid and the
//	                                             children it waited for
//	sys_info(out: i32) -> errno                  u64 × 6: boot time (Unix ns), now
//	                                             (Unix ns), memory limit per process,
//	                                             memory of live guests, file system
//	                                             bytes used, live processes
//
// A proc_list record is a header line "PID PPID START_NS USER_NS MEM
// NARGS\n" (decimal; START_NS in Unix ns by the sandbox clock, MEM the
// process's linear memory in bytes) followed by NARGS NUL-terminated
// arguments. A killed process ends with status 128 + the signal's number.

// procEntry is one process of the table.
type procEntry struct {
	pid, ppid int
	args      []string
	start     time.Time
	// cancel ends the process; nil for the main shell.
	cancel context.CancelCauseFunc
	// sig is the signal that ended it, 0 if none.
	sig atomic.Int32
	// mem is the guest's linear memory now, in bytes; running the time
	// its code has run so far (both 0 when no guest runs).
	mem     atomic.Int64
	running atomic.Int64

	mu sync.Mutex
	ru rusage // its own use and that of its ended children
}

// rusage is what a process used.
type rusage struct {
	userNs, sysNs int64
	maxMem        int64
	fuel          int64
}

func (r *rusage) add(o rusage) {
	r.userNs += o.userNs
	r.sysNs += o.sysNs
	r.fuel += o.fuel
	r.maxMem = max(r.maxMem, o.maxMem)
}

// procTable holds the live processes by pid.
type procTable struct {
	mu sync.Mutex
	m  map[int]*procEntry
}

type procKey struct{}

// procFrom returns the process ctx runs in, or nil.
func procFrom(ctx context.Context) *procEntry {
	e, _ := ctx.Value(procKey{}).(*procEntry)
	return e
}

var errKilled = errors.New("killed by a signal")

// startProc enters a process into the table: pid 0 takes a fresh pid. The
// returned context carries it and is cancelled when it is signalled; end
// must be called when it exits and returns the exit status to report.
func (s *Sandbox) startProc(ctx context.Context, pid, ppid int, args []string) (context.Context, *procEntry, func(status int) int) {
	if pid == 0 {
		pid = s.nextPid()
	}
	cctx, cancel := context.WithCancelCause(ctx)
	e := &procEntry{pid: pid, ppid: ppid, args: append([]string(nil), args...), start: s.now(), cancel: cancel}
	t := &s.procs
	t.mu.Lock()
	if t.m == nil {
		t.m = map[int]*procEntry{}
	}
	prev := t.m[pid]
	t.m[pid] = e
	t.mu.Unlock()
	end := func(status int) int {
		cancel(nil)
		t.mu.Lock()
		if t.m[pid] == e {
			if prev != nil {
				t.m[pid] = prev
			} else {
				delete(t.m, pid)
			}
		}
		parent := t.m[ppid]
		t.mu.Unlock()
		if parent != nil && parent != e {
			e.mu.Lock()
			ru := e.ru
			e.mu.Unlock()
			parent.mu.Lock()
			parent.ru.add(ru)
			parent.mu.Unlock()
		}
		if sig := e.sig.Load(); sig != 0 {
			return 128 + int(sig)
		}
		return status
	}
	return context.WithValue(cctx, procKey{}, e), e, end
}

// snapshot lists the live processes by pid, the main shell first.
func (s *Sandbox) procList() []*procEntry {
	t := &s.procs
	t.mu.Lock()
	list := make([]*procEntry, 0, len(t.m)+1)
	for _, e := range t.m {
		list = append(list, e)
	}
	t.mu.Unlock()
	if pid := int(s.shellPid.Load()); pid != 0 {
		list = append(list, &procEntry{pid: pid, args: []string{"bash"}, start: s.started})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].pid < list[j].pid })
	return list
}

// Signal numbers the table understands (Linux's).
const (
	sigKILL = 9
	sigCHLD = 17
	sigCONT = 18
	sigSTOP = 19
	sigTSTP = 20
	sigTTIN = 21
	sigTTOU = 22
	sigURG  = 23
	sigWINC = 28
)

// signal sends sig to pid.
func (s *Sandbox) signal(pid, sig int) error {
	if sig < 0 || sig > 64 {
		return vfs.EINVAL
	}
	if pid == int(s.shellPid.Load()) && pid != 0 {
		if sig == 0 {
			return nil
		}
		return vfs.EPERM
	}
	t := &s.procs
	t.mu.Lock()
	e := t.m[pid]
	t.mu.Unlock()
	if e == nil {
		return vfs.Errno(71) // ESRCH
	}
	switch sig {
	case 0, sigCHLD, sigCONT, sigURG, sigWINC:
		// Checked, or ignored by default: nothing happens.
		return nil
	case sigSTOP, sigTSTP, sigTTIN, sigTTOU:
		return vfs.ENOTSUP
	}
	if e.cancel == nil {
		return vfs.EPERM
	}
	e.sig.CompareAndSwap(0, int32(sig))
	e.cancel(errKilled)
	return nil
}

func fsUsed(s *Sandbox) int64 {
	used, _ := s.fs.Usage()
	return int64(used)
}

func procHostFuncs() []wasm.HostFunc {
	i32 := wasm.I32
	return []wasm.HostFunc{
		{Name: "proc_self", Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}, Fn: procSelf, NonBlocking: true},
		{Name: "proc_list", Params: []wasm.ValueType{i32, i32, i32}, Results: []wasm.ValueType{i32}, Fn: procListFn, NonBlocking: true},
		{Name: "proc_signal", Params: []wasm.ValueType{i32, i32}, Results: []wasm.ValueType{i32}, Fn: procSignal, NonBlocking: true},
		{Name: "proc_sigpipe", Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}, Fn: procSigpipe, NonBlocking: true},
		{Name: "proc_wait_rusage", Params: []wasm.ValueType{i32, wasm.I64, i32, i32}, Results: []wasm.ValueType{i32}, Fn: procWaitRusage},
		{Name: "sys_info", Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}, Fn: sysInfo, NonBlocking: true},
	}
}

func procSelf(ctx context.Context, mem wasm.Memory, stack []uint64) {
	e := procFrom(ctx)
	if e == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	if !mem.WriteUint32Le(uint32(stack[0]), uint32(e.pid)) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}

// encodeProcs writes the proc_list records of list.
func encodeProcs(list []*procEntry) []byte {
	var b []byte
	for _, e := range list {
		e.mu.Lock()
		user := e.ru.userNs + e.running.Load()
		e.mu.Unlock()
		b = strconv.AppendInt(b, int64(e.pid), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(e.ppid), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, e.start.UnixNano(), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, user, 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, e.mem.Load(), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(len(e.args)), 10)
		b = append(b, '\n')
		for _, a := range e.args {
			b = append(b, a...)
			b = append(b, 0)
		}
	}
	return b
}

func procListFn(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	buf, n, usedPtr := uint32(stack[0]), uint32(stack[1]), uint32(stack[2])
	data := encodeProcs(g.run.s.procList())
	if !mem.WriteUint32Le(usedPtr, uint32(len(data))) {
		errnoResult(stack, efault)
		return
	}
	if uint32(len(data)) > n {
		errnoResult(stack, vfs.Errno(1)) // E2BIG
		return
	}
	if len(data) > 0 && !mem.Write(buf, data) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}

func procSignal(ctx context.Context, _ wasm.Memory, stack []uint64) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	errnoResult(stack, g.run.s.signal(int(int32(stack[0])), int(int32(stack[1]))))
}

func procSigpipe(ctx context.Context, _ wasm.Memory, stack []uint64) {
	p := wasi.FromContext(ctx)
	if p == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	p.IgnoreSIGPIPE(uint32(stack[0]) != 0)
	errnoResult(stack, nil)
}

func procWaitRusage(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	pid := int32(stack[0])
	c := g.child(pid)
	waitChild(ctx, mem, stack, pid, time.Duration(stack[1]), uint32(stack[2]))
	if stack[0] != 0 || c == nil {
		return
	}
	var out [32]byte
	binary.LittleEndian.PutUint64(out[0:], uint64(c.ru.userNs))
	binary.LittleEndian.PutUint64(out[8:], uint64(c.ru.sysNs))
	binary.LittleEndian.PutUint64(out[16:], uint64(c.ru.maxMem))
	binary.LittleEndian.PutUint64(out[24:], uint64(c.ru.fuel))
	if !mem.Write(uint32(stack[3]), out[:]) {
		errnoResult(stack, efault)
	}
}

func sysInfo(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	s := g.run.s
	list := s.procList()
	var live int64
	for _, e := range list {
		live += e.mem.Load()
	}
	var out [48]byte
	binary.LittleEndian.PutUint64(out[0:], uint64(s.started.UnixNano()))
	binary.LittleEndian.PutUint64(out[8:], uint64(s.now().UnixNano()))
	binary.LittleEndian.PutUint64(out[16:], uint64(s.memPages)*65536)
	binary.LittleEndian.PutUint64(out[24:], uint64(live))
	binary.LittleEndian.PutUint64(out[32:], uint64(fsUsed(s)))
	binary.LittleEndian.PutUint64(out[40:], uint64(len(list)))
	if !mem.Write(uint32(stack[0]), out[:]) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}
