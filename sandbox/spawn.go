package sandbox

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/sandbox/wasi"
	"github.com/wasmsand/wasmsand/wasm"
)

// Guests start other commands through the "wasmsand" host module, which
// WASI preview1 lacks: xargs, find -exec, timeout, env and awk's system()
// need it. The functions, all returning a WASI errno:
//
//	proc_spawn(argv, argv_len, env, env_len, dir, dir_len, stdin, stdout, stderr: i32, pid_out: i32) -> errno
//	proc_wait(pid, status_out: i32) -> errno     blocks until pid ends; status is its exit code
//	proc_wait_timeout(pid: i32, ns: i64, status_out: i32) -> errno
//	                                              proc_wait for at most ns nanoseconds: EAGAIN if pid still runs
//	proc_kill(pid: i32) -> errno                  ends pid (it exits with status 143)
//	fd_pipe(fds_out: i32) -> errno                a pipe: read fd, then write fd
//
// argv and env are NUL-terminated strings back to back; an empty dir means
// the caller's working directory. The child runs like a command the shell
// runs (PATH lookup, tools, scripts, modules) with the caller's fds as its
// standard streams, and counts against the Run's process limit.
const spawnModule = "wasmsand"

// spawnFuncs are the guest-callable functions of spawnModule.
var spawnFuncs = map[string]bool{
	"proc_spawn": true, "proc_wait": true, "proc_wait_timeout": true, "proc_kill": true, "fd_pipe": true,
	"path_chmod": true, "path_mode": true, "fs_usage": true, "mem_limit": true,
	"proc_self": true, "proc_list": true, "proc_signal": true, "proc_sigpipe": true, "proc_wait_rusage": true, "sys_info": true, "path_mkfifo": true,
}

// child is a process a guest started.
type child struct {
	done   chan struct{}
	status uint32
	cancel context.CancelFunc
	killed bool
	ru     rusage // what it and its children used, set when it ends
}

// children is a guest's table of started processes.
type children struct {
	mu   sync.Mutex
	next int32
	m    map[int32]*child
}

func spawnHostFuncs() []wasm.HostFunc {
	i32 := wasm.I32
	return []wasm.HostFunc{
		{Name: "proc_spawn", Params: []wasm.ValueType{i32, i32, i32, i32, i32, i32, i32, i32, i32, i32}, Results: []wasm.ValueType{i32}, Fn: procSpawn, NonBlocking: true},
		{Name: "proc_wait", Params: []wasm.ValueType{i32, i32}, Results: []wasm.ValueType{i32}, Fn: procWait},
		{Name: "proc_wait_timeout", Params: []wasm.ValueType{i32, wasm.I64, i32}, Results: []wasm.ValueType{i32}, Fn: procWaitTimeout},
		{Name: "proc_kill", Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}, Fn: procKill, NonBlocking: true},
		{Name: "fd_pipe", Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}, Fn: fdPipe, NonBlocking: true},
	}
}

// errnoResult stores a WASI errno as a host function's result.
func errnoResult(stack []uint64, err error) {
	if err == nil {
		stack[0] = 0
		return
	}
	var en vfs.Errno
	if errors.As(err, &en) {
		stack[0] = uint64(en)
		return
	}
	stack[0] = uint64(vfs.EIO)
}

// readStrings reads NUL-terminated strings from guest memory.
func readStrings(mem wasm.Memory, ptr, n uint32) ([]string, bool) {
	if n == 0 {
		return nil, true
	}
	b, ok := mem.Read(ptr, n)
	if !ok {
		return nil, false
	}
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			out = append(out, string(b))
			break
		}
		out = append(out, string(b[:i]))
		b = b[i+1:]
	}
	return out, true
}

const efault = vfs.Errno(21)

func procSpawn(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	p := wasi.FromContext(ctx)
	if g == nil || p == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	argv, ok1 := readStrings(mem, uint32(stack[0]), uint32(stack[1]))
	env, ok2 := readStrings(mem, uint32(stack[2]), uint32(stack[3]))
	dirs, ok3 := readStrings(mem, uint32(stack[4]), uint32(stack[5]))
	fdIn, fdOut, fdErr, pidPtr := uint32(stack[6]), uint32(stack[7]), uint32(stack[8]), uint32(stack[9])
	if !ok1 || !ok2 || !ok3 {
		errnoResult(stack, efault)
		return
	}
	if len(argv) == 0 || argv[0] == "" {
		errnoResult(stack, vfs.EINVAL)
		return
	}
	dir := g.dir
	if len(dirs) > 0 && dirs[0] != "" {
		dir = g.run.s.abs(g.dir, dirs[0])
	}
	// Resolve first, so the caller can report a missing command itself,
	// as GNU tools do ("xargs: foo: No such file or directory").
	if _, err := g.run.s.lookPath(env, dir, argv[0]); err != nil {
		if errors.Is(err, errIsDir) || errors.Is(err, errPermission) {
			errnoResult(stack, vfs.EACCES)
		} else {
			errnoResult(stack, vfs.ENOENT)
		}
		return
	}
	stdin, relIn, err := p.Reader(fdIn)
	if err != nil {
		errnoResult(stack, err)
		return
	}
	stdout, relOut, err := p.Writer(fdOut)
	if err != nil {
		relIn()
		errnoResult(stack, err)
		return
	}
	stderr, relErr, err := p.Writer(fdErr)
	if err != nil {
		relIn()
		relOut()
		errnoResult(stack, err)
		return
	}
	cctx, cancel := context.WithCancel(ctx)
	c := &child{done: make(chan struct{}), cancel: cancel}
	g.kids.mu.Lock()
	if g.kids.m == nil {
		g.kids.m = map[int32]*child{}
	}
	g.kids.next++
	pid := g.kids.next
	g.kids.m[pid] = c
	g.kids.mu.Unlock()

	pio := procIO{Env: env, Dir: dir, Stdin: stdin, Stdout: stdout, Stderr: stderr, umask: g.umask}
	parent := 0
	if e := procFrom(ctx); e != nil {
		parent = e.pid
	}
	pctx, entry, end := g.run.s.startProc(cctx, 0, parent, argv)
	go func() {
		defer close(c.done)
		defer func() { relIn(); relOut(); relErr() }()
		status := end(g.run.s.execIO(pctx, pio, argv))
		entry.mu.Lock()
		c.ru = entry.ru
		entry.mu.Unlock()
		c.status = uint32(status)
		if c.killed {
			c.status = 143
		}
		cancel()
	}()
	if !mem.WriteUint32Le(pidPtr, uint32(pid)) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}

func (g *guestProc) child(pid int32) *child {
	g.kids.mu.Lock()
	defer g.kids.mu.Unlock()
	return g.kids.m[pid]
}

func procWait(ctx context.Context, mem wasm.Memory, stack []uint64) {
	waitChild(ctx, mem, stack, int32(stack[0]), -1, uint32(stack[1]))
}

func procWaitTimeout(ctx context.Context, mem wasm.Memory, stack []uint64) {
	waitChild(ctx, mem, stack, int32(stack[0]), time.Duration(stack[1]), uint32(stack[2]))
}

// waitChild waits for pid to end, at most d unless d is negative, and
// stores its status at statusPtr.
func waitChild(ctx context.Context, mem wasm.Memory, stack []uint64, pid int32, d time.Duration, statusPtr uint32) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	c := g.child(pid)
	if c == nil {
		errnoResult(stack, vfs.Errno(12)) // ECHILD
		return
	}
	var expired <-chan time.Time
	if d >= 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-c.done:
	case <-expired:
		errnoResult(stack, vfs.EAGAIN)
		return
	case <-ctx.Done():
		panic(context.Cause(ctx))
	}
	g.kids.mu.Lock()
	delete(g.kids.m, pid)
	g.kids.mu.Unlock()
	if !mem.WriteUint32Le(statusPtr, c.status) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}

func procKill(ctx context.Context, _ wasm.Memory, stack []uint64) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	if g == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	c := g.child(int32(stack[0]))
	if c == nil {
		errnoResult(stack, vfs.Errno(71)) // ESRCH
		return
	}
	c.killed = true
	c.cancel()
	errnoResult(stack, nil)
}

func fdPipe(ctx context.Context, mem wasm.Memory, stack []uint64) {
	p := wasi.FromContext(ctx)
	if p == nil {
		errnoResult(stack, vfs.ENOTSUP)
		return
	}
	r, w, err := p.Pipe()
	if err != nil {
		errnoResult(stack, err)
		return
	}
	ptr := uint32(stack[0])
	if !mem.WriteUint32Le(ptr, r) || !mem.WriteUint32Le(ptr+4, w) {
		errnoResult(stack, efault)
		return
	}
	errnoResult(stack, nil)
}
