package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/sandbox/wasi"
	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/coalesce"
	"github.com/wasmsand/wasmsand/wasm/instrument"
)

// fuelSlice is how much fuel a guest gets between two refuel calls: about
// a millisecond of work, so deadlines are checked often and cheaply.
const fuelSlice = 1 << 20

// engineEntry is a process-wide engine and its module cache. Host modules
// find their sandbox, Run and process through the context, so one engine
// serves every sandbox.
type engineEntry struct {
	eng   wasm.Engine
	cache moduleCache
}

var (
	enginesMu sync.Mutex
	engines   = map[engineKey]*engineEntry{}
)

// hostModules are what every guest may import.
func hostModules() []wasm.HostModule {
	mods := []wasm.HostModule{wasi.HostModule(), refuelModule()}
	for _, m := range mods {
		for i := range m.Funcs {
			timeBlocking(&m.Funcs[i])
		}
	}
	return mods
}

// timeBlocking makes a host function that may wait count the time it
// takes as the guest's waiting time, which its CPU time (for ps and
// time) leaves out.
func timeBlocking(f *wasm.HostFunc) {
	if f.NonBlocking {
		return
	}
	fn := f.Fn
	f.Fn = func(ctx context.Context, mem wasm.Memory, stack []uint64) {
		g, _ := ctx.Value(guestKey{}).(*guestProc)
		if g == nil {
			fn(ctx, mem, stack)
			return
		}
		began := time.Now()
		defer func() { g.waited.Add(int64(time.Since(began))) }()
		fn(ctx, mem, stack)
	}
}

// sharedEngine returns the engine of opts's platform for opts.CacheDir,
// with its module cache: an engine the platform returns again keeps its
// cache, whose ModuleStore the first sandbox on it sets.
func sharedEngine(ctx context.Context, opts Options, p Platform) (*engineEntry, error) {
	ctx = context.WithoutCancel(ctx)
	eng, err := p.Engine(ctx, hostModules(), opts.CacheDir)
	if err != nil {
		return nil, fmt.Errorf("sandbox: starting the WebAssembly engine: %w", err)
	}
	key := engineKey{eng, opts.CacheDir}
	enginesMu.Lock()
	defer enginesMu.Unlock()
	if e, ok := engines[key]; ok {
		return e, nil
	}
	e := &engineEntry{eng: eng}
	e.cache.store = opts.ModuleStore
	if opts.CacheDir != "" {
		if mc := p.ModuleCache(opts.CacheDir); mc != nil {
			e.cache.store = mc
		}
	}
	engines[key] = e
	return e, nil
}

// engineKey names a module cache: the engine a platform returned and the
// directory of instrumented modules.
type engineKey struct {
	eng      wasm.Engine
	cacheDir string
}

// guestProc is the per-process fuel state the refuel host call works on.
type guestProc struct {
	run   *runState
	given int64  // fuel handed out in the current slice
	dir   string // working directory, for proc_spawn
	umask uint32 // file mode creation mask, for proc_spawn
	kids  children
	net   guestNet // open HTTP requests
	// proc is the process-table entry it runs as (nil for internal runs);
	// fuel counts the fuel it used in slices before the current one.
	proc *procEntry
	fuel int64
	// waited is the time spent in host calls that wait, in ns; began is
	// when _start was called.
	waited atomic.Int64
	began  time.Time
}

type guestKey struct{}

func refuelModule() wasm.HostModule {
	return wasm.HostModule{
		Name: instrument.RefuelModule,
		Funcs: append([]wasm.HostFunc{{
			Name:    instrument.RefuelName,
			Params:  []wasm.ValueType{wasm.I64},
			Results: []wasm.ValueType{wasm.I64},
			Fn:      refuel,
			// It never waits: it only accounts and checks the deadline.
			NonBlocking: true,
		}}, append(spawnHostFuncs(), append(procHostFuncs(), append(hostFSFuncs(), append(bridgeHostFuncs(), netHostFuncs()...)...)...)...)...),
	}
}

// refuel is called by instrumented code when its fuel slice is spent. It
// accounts the slice, stops the guest if the Run is over (timeout, limit)
// or its fuel budget is gone, and hands out the next slice.
func refuel(ctx context.Context, mem wasm.Memory, stack []uint64) {
	g, _ := ctx.Value(guestKey{}).(*guestProc)
	if g == nil {
		stack[0] = fuelSlice
		return
	}
	remaining := int64(stack[0])
	g.fuel += g.given - remaining
	if g.proc != nil && mem != nil {
		g.proc.mem.Store(int64(mem.Size()))
		g.proc.running.Store(max(int64(time.Since(g.began))-g.waited.Load(), 0))
	}
	used := g.run.fuelUsed.Add(g.given - remaining)
	g.given = 0
	if err := ctx.Err(); err != nil {
		panic(context.Cause(ctx))
	}
	next := int64(fuelSlice)
	if b := g.run.fuelBudget; b > 0 {
		if used >= b {
			panic(&wasm.ExitError{Code: 137, Reason: "fuel exhausted"})
		}
		next = min(next, b-used)
	}
	g.given = next
	stack[0] = uint64(next)
}

// instrumentFor returns the instrumenter this sandbox applies to every
// module: fuel metering, the memory cap (and in a module built by Go
// direct forward jumps, see package jumpthread, and a count of the
// growths it refused, for oomWatch), WASI-only imports, and joined data
// segments.
func (s *Sandbox) instrumentFor() func([]byte) ([]byte, error) {
	return func(bin []byte) ([]byte, error) {
		out, err := instrument.Instrument(bin, instrument.Options{
			MemoryLimitPages: s.memPages,
			Fuel:             true,
			ThreadJumps:      builtByGo(bin),
			CountFailedGrows: builtByGo(bin),
			AllowImport: func(module, name string) bool {
				return module == wasi.ModuleName || module == spawnModule && spawnFuncs[name]
			},
		})
		if err != nil {
			return nil, err
		}
		// Go modules come with tens of thousands of data segments; joined,
		// they make every engine instantiate several times faster.
		return coalesce.Data(out), nil
	}
}

// runGuest runs one WASI command to completion with the shell's stdio.
func (s *Sandbox) runGuest(ctx context.Context, hc procIO, keyOf func() (moduleKey, error), load func() ([]byte, error), args []string) int {
	if hc.Stderr == nil {
		hc.Stderr = io.Discard // fd 2 closed (2>&-): what the shell says goes nowhere
	}
	run := runFrom(ctx)
	run.timer.pause()
	run.compiling.Add(1)
	key, err := keyOf()
	var entry *moduleEntry
	if err == nil {
		entry, err = s.eng.cache.get(ctx, s.eng.eng, key, load, s.instrumentFor())
		// A broken tool module is named, as a broken file in the VFS is
		// by the command's own name.
		if name := moduleName(key); err != nil && strings.HasPrefix(key.name, "tool:") && !strings.Contains(err.Error(), name) {
			err = fmt.Errorf("tool module %s: %w", name, err)
		}
	}
	run.compiling.Add(-1)
	if err == nil && entry.files.size() > 0 {
		err = s.placeToolFiles(key, entry.files) // e.g. Python's standard library
	}
	run.timer.resume()
	if err != nil {
		if ctx.Err() != nil {
			return 124
		}
		fmt.Fprintf(hc.Stderr, "bash: %s: cannot execute binary file: %v\n", args[0], err)
		return 126
	}
	if !hc.slotHeld {
		if err := run.acquire(); err != nil {
			fmt.Fprintf(hc.Stderr, "bash: fork: Resource temporarily unavailable\n")
			return 254
		}
		defer run.release()
	}

	stdin := hc.Stdin
	if synchronous(s.eng.eng) {
		if stdin, err = readStdin(ctx, stdin, s.opts.FSLimit); err != nil {
			fmt.Fprintf(hc.Stderr, "bash: %s: %v\n", args[0], err)
			return 126
		}
	}

	cfg := wasi.Config{
		Args:   args,
		Env:    guestEnv(hc.Env, hc.Dir),
		FS:     s.fs,
		Cwd:    hc.Dir,
		Stdin:  stdin,
		Stdout: hc.Stdout,
		Stderr: hc.Stderr,
		Now:    s.now,
		Random: run.randomFor(args),

		ExtraFiles: hc.Extra,
	}
	var oom *oomWatch
	if entry.goRuntime {
		oom = &oomWatch{}
		cfg.DropStderr = oom.drop
	}
	if _, err := s.fs.Stat(vfs.RootIno, hc.Dir, true); errors.Is(err, fs.ErrNotExist) {
		// The working directory was removed: a program still runs, as
		// on Linux (its relative paths then resolve from /).
		cfg.Cwd = "/"
	}
	if s.opts.Clock != nil {
		vc := &virtualClock{}
		cfg.Nanotime, cfg.Sleep = vc.nanotime, vc.sleep
	}
	proc, err := wasi.NewProcess(cfg)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "bash: %s: %v\n", args[0], err)
		return 126
	}
	defer proc.Close()
	proc.SetUmask(fs.FileMode(hc.umask))

	g := &guestProc{run: run, dir: hc.Dir, umask: hc.umask, proc: procFrom(ctx)}
	pctx := wasi.WithProcess(context.WithValue(ctx, guestKey{}, g), proc)
	inst, err := entry.mod.Instantiate(pctx)
	if err != nil {
		return s.guestExit(ctx, hc, args[0], err)
	}
	if oom != nil {
		oom.refused = func() bool {
			v, ok := inst.Global(instrument.GrowFailuresGlobal)
			return ok && uint32(v) != 0
		}
	}
	g.began = time.Now()
	_, err = inst.Call(pctx, "_start")
	var ru rusage
	ru.userNs = max(int64(time.Since(g.began))-g.waited.Load(), 0)
	if v, ok := inst.Global(instrument.FuelGlobal); ok {
		run.fuelUsed.Add(g.given - int64(v))
		ru.fuel = g.fuel + g.given - int64(v)
	}
	if m := inst.Memory(); m != nil {
		run.notePeakMemory(int64(m.Size()))
		ru.maxMem = int64(m.Size())
	}
	if e := g.proc; e != nil {
		e.mu.Lock()
		e.ru.add(ru)
		e.mu.Unlock()
		e.mem.Store(0)
		e.running.Store(0)
	}
	inst.Close(context.WithoutCancel(ctx))
	g.net.closeAll()
	if oom != nil && oom.ranOut(err) && ctx.Err() == nil {
		io.WriteString(hc.Stderr, oomMessage(args[0]))
		return 2
	}
	return s.guestExit(ctx, hc, args[0], err)
}

// guestExit maps how a guest ended to the shell's exit status.
func (s *Sandbox) guestExit(ctx context.Context, hc procIO, name string, err error) int {
	if err == nil {
		return 0
	}
	if exit, ok := asExitError(err); ok {
		if exit.Reason != "" && exit.Code != 141 {
			fmt.Fprintf(hc.Stderr, "%s: %s\n", name, exit.Reason)
		}
		if exit.Code == 0 {
			return 0
		}
		return int(uint8(exit.Code))
	}
	if ctx.Err() != nil {
		return 124
	}
	var trap *wasm.Trap
	if errors.As(err, &trap) {
		fmt.Fprintf(hc.Stderr, "bash: %s: %v\n", name, trap)
		return 134
	}
	fmt.Fprintf(hc.Stderr, "bash: %s: %v\n", name, firstLine(err.Error()))
	return 126
}

func firstLine(s string) string {
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// guestEnv lists the environment a guest gets: env (KEY=VALUE, the last
// of a name winning) with PWD current, for Go guests learn their working
// directory from it. A guest in "/" given no PWD gets none (Go's default is
// "/"), so `cd / && exec -c env` prints nothing, as in bash; this is
// wasi.NewProcess's rule.
func guestEnv(env []string, dir string) []string {
	out := make([]string, 0, len(env)+1)
	seen := map[string]int{}
	hadPWD := false
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "PWD" {
			hadPWD = true
			continue
		}
		if i, ok := seen[k]; ok {
			out[i] = kv
			continue
		}
		seen[k] = len(out)
		out = append(out, kv)
	}
	if dir == "/" && !hadPWD {
		return out
	}
	return append(out, "PWD="+dir)
}

// synchronous reports whether eng runs each guest to its end inside one
// call, so that a guest must never wait for another (jsbridge without
// JSPI; see RATIONALE.md).
func synchronous(eng wasm.Engine) bool {
	e, ok := eng.(interface{ Synchronous() bool })
	return ok && e.Synchronous()
}

// readStdin reads a guest's standard input to its end before the guest
// starts, unless it is a VFS file that is not a pipe (which never waits) or nothing: the
// stages of a pipeline then run one after another, each writer filling
// the pipe while its reader's goroutine drains it. Input longer than
// limit bytes (DefaultFSLimit if 0) is refused.
func readStdin(ctx context.Context, r io.Reader, limit int64) (io.Reader, error) {
	if r == nil {
		return nil, nil
	}
	if f, ok := r.(*vfs.File); ok {
		// A file never waits; a pipe (FIFO) does and is read ahead.
		if st, err := f.Stat(); err == nil && st.Type != vfs.TypeFIFO {
			return r, nil
		}
	}
	if limit <= 0 {
		limit = DefaultFSLimit
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("standard input is longer than %d bytes, the most a pipeline stage can buffer without JSPI", limit)
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	return bytes.NewReader(b), nil
}
