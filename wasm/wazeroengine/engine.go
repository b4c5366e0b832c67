// Package wazeroengine runs guest modules natively on wazero: it implements
// the wasm.Engine, wasm.Module, wasm.Instance and wasm.Memory interfaces.
//
// Compiled modules are memoized in-process by the SHA-256 of their bytes, and
// optionally on disk through wazero's compilation cache, so that spawning the
// same tool module many times compiles it once. Instances are anonymous, so
// many instances of one module can run at once, and their start functions
// ("_start") are left to the caller. The engine provides no WASI of its own:
// the WASI host is one of the HostModules given to New.
package wazeroengine

//go:generate sh -c "for f in testdata/*.wat; do wat2wasm -o ${DOLLAR}{f%.wat}.wasm ${DOLLAR}f || exit 1; done"

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/coalesce"
	"github.com/wasmsand/wasmsand/wasm/lazytable"
)

// Config configures an Engine.
type Config struct {
	// HostModules are instantiated once per engine; guests import them by
	// name (the WASI host is the one named "wasi_snapshot_preview1").
	HostModules []wasm.HostModule
	// CacheDir is the directory of wazero's on-disk compilation cache.
	// "" keeps compiled code in memory only.
	CacheDir string
	// Interpreter selects wazero's interpreter instead of its optimizing
	// compiler: much faster to compile, much slower to run.
	Interpreter bool
	// MemoryLimitPages caps every guest memory at this many 64 KiB pages, a
	// safety net behind the instrumenter's own cap. 0 means 65536 (4 GiB).
	MemoryLimitPages uint32
}

// maxIdleModules is how many compiled modules no wasm.Module refers to any
// more are kept for a later Compile of the same bytes before the oldest is
// released.
const maxIdleModules = 16

// Engine is a wasm.Engine on one wazero runtime. It is safe for concurrent
// use.
type Engine struct {
	rt      wazero.Runtime
	cache   wazero.CompilationCache // nil without CacheDir
	modCfg  wazero.ModuleConfig
	workers int
	// ownAlloc backs guest memories with the engine's allocator, which
	// recycles them (see memPool); false leaves them to wazero.
	ownAlloc  bool
	poolBytes atomic.Int64 // bytes held by every memPool

	mu      sync.Mutex
	closed  bool
	byHash  map[[sha256.Size]byte]*compiled
	byIdent map[ident]*compiled
	idle    []*compiled // compiled modules with no references, oldest first
}

var _ wasm.Engine = (*Engine)(nil)

// maxIdents is how many recent slices per compilation Compile recognizes
// without hashing them.
const maxIdents = 4

// ident identifies a byte slice by its backing array and length; an entry is
// trusted only after its contents compare equal to the retained copy.
type ident struct {
	ptr uintptr
	n   int
}

// compiled is one memoized compilation, shared by every Module handle of the
// same bytes.
type compiled struct {
	e       *Engine
	sum     [sha256.Size]byte
	bin     []byte // private copy of the module bytes
	ready   chan struct{}
	cm      wazero.CompiledModule // valid once ready is closed and err is nil
	err     error
	exports []string
	idents  []ident  // byIdent keys that point here
	pool    *memPool // recycled memories; nil if the module's cannot be

	refs int // guarded by e.mu: live Module handles and pending Compiles
}

// New creates an engine and instantiates its host modules.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	var rc wazero.RuntimeConfig
	if cfg.Interpreter {
		rc = wazero.NewRuntimeConfigInterpreter()
	} else {
		rc = wazero.NewRuntimeConfig()
	}
	limit := cfg.MemoryLimitPages
	if limit == 0 || limit > 65536 {
		limit = 65536
	}
	rc = rc.WithMemoryLimitPages(limit).
		WithDebugInfoEnabled(false).
		WithCloseOnContextDone(false)

	e := &Engine{
		modCfg:   wazero.NewModuleConfig().WithName("").WithStartFunctions().WithRandSource(noRandom{}),
		workers:  runtime.GOMAXPROCS(0),
		ownAlloc: true,
		byHash:   make(map[[sha256.Size]byte]*compiled),
		byIdent:  make(map[ident]*compiled),
	}
	if cfg.CacheDir != "" {
		c, err := wazero.NewCompilationCacheWithDir(cfg.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("wazeroengine: compilation cache in %q: %w", cfg.CacheDir, err)
		}
		e.cache = c
		rc = rc.WithCompilationCache(c)
	}
	e.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	for i := range cfg.HostModules {
		if err := e.instantiateHost(ctx, &cfg.HostModules[i]); err != nil {
			_ = e.Close(ctx)
			return nil, err
		}
	}
	return e, nil
}

// Compile validates and compiles bin. Compiling bytes seen before returns
// the memoized compilation; passing the very same slice again skips even
// hashing it (its contents are still compared). bin is not retained.
func (e *Engine) Compile(ctx context.Context, bin []byte) (wasm.Module, error) {
	id := ident{uintptr(unsafe.Pointer(unsafe.SliceData(bin))), len(bin)}

	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, errEngineClosed
	}
	c := e.byIdent[id]
	e.mu.Unlock()
	var sum [sha256.Size]byte
	if c != nil && bytes.Equal(c.bin, bin) { // c.bin never changes
		sum = c.sum
	} else {
		sum = sha256.Sum256(bin)
	}

	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, errEngineClosed
	}
	c = e.byHash[sum]
	if c == nil {
		return e.compileLocked(ctx, bin, sum, id)
	}
	e.rememberIdentLocked(c, id)
	e.acquireLocked(c)
	e.mu.Unlock()

	select {
	case <-c.ready:
	case <-ctx.Done():
		e.release(c)
		return nil, ctx.Err()
	}
	if c.err != nil {
		e.release(c)
		return nil, c.err
	}
	return &module{c: c}, nil
}

// compileLocked compiles bin as a new memo entry; e.mu is held on entry and
// released on return. Concurrent Compiles of the same bytes wait for it.
func (e *Engine) compileLocked(ctx context.Context, bin []byte, sum [sha256.Size]byte, id ident) (wasm.Module, error) {
	c := &compiled{e: e, sum: sum, bin: bytes.Clone(bin), ready: make(chan struct{}), refs: 1}
	e.byHash[sum] = c
	e.rememberIdentLocked(c, id)
	e.mu.Unlock()

	cctx := experimental.WithCompilationWorkers(context.WithoutCancel(ctx), e.workers)
	cbin := coalesce.Data(bin)
	if binary.HasCustom(cbin, "go:buildid") {
		// Go's table lists nearly every function, and wazero fills it
		// one allocation at a time on every instantiation: 40 % of a
		// pre-initialised tool's start. Filled on first use, a process
		// pays for the few hundred entries it calls through, and every
		// call_indirect about a nanosecond for the guard. C modules'
		// tables hold only address-taken functions, called far more
		// often per entry: they keep theirs.
		cbin = lazytable.Apply(cbin)
	}
	cm, err := compileSafely(cctx, e.rt, cbin)
	var pool *memPool
	if err == nil {
		pool = newMemPool(cbin, &e.poolBytes)
	}

	e.mu.Lock()
	if err != nil {
		c.err = fmt.Errorf("%w: %v", wasm.ErrInvalidModule, err)
		if e.closed {
			c.err = errEngineClosed
		}
		e.forgetLocked(c)
	} else if e.closed {
		_ = cm.Close(ctx)
		c.err = errEngineClosed
	} else {
		c.cm = cm
		c.exports = exportNames(cm)
		c.pool = pool
	}
	if c.err != nil {
		c.refs--
	}
	close(c.ready)
	e.mu.Unlock()
	if c.err != nil {
		return nil, c.err
	}
	return &module{c: c}, nil
}

func exportNames(cm wazero.CompiledModule) []string {
	fns := cm.ExportedFunctions()
	names := make([]string, 0, len(fns))
	for name := range fns {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func (e *Engine) rememberIdentLocked(c *compiled, id ident) {
	if old := e.byIdent[id]; old == c {
		return
	} else if old != nil {
		old.idents = slices.DeleteFunc(old.idents, func(x ident) bool { return x == id })
	}
	if len(c.idents) == maxIdents {
		if e.byIdent[c.idents[0]] == c {
			delete(e.byIdent, c.idents[0])
		}
		c.idents = slices.Delete(c.idents, 0, 1)
	}
	e.byIdent[id] = c
	c.idents = append(c.idents, id)
}

// forgetLocked removes c from the memo tables.
func (e *Engine) forgetLocked(c *compiled) {
	if e.byHash[c.sum] == c {
		delete(e.byHash, c.sum)
	}
	for _, id := range c.idents {
		if e.byIdent[id] == c {
			delete(e.byIdent, id)
		}
	}
	c.idents = nil
}

func (e *Engine) acquireLocked(c *compiled) {
	if c.refs == 0 {
		e.idle = slices.DeleteFunc(e.idle, func(x *compiled) bool { return x == c })
	}
	c.refs++
}

// release drops one reference to c. Unreferenced compilations stay memoized
// until more than maxIdleModules of them pile up.
func (e *Engine) release(c *compiled) {
	e.mu.Lock()
	c.refs--
	var evict *compiled
	if c.refs == 0 && c.err == nil && !e.closed {
		e.idle = append(e.idle, c)
		if len(e.idle) > maxIdleModules {
			evict = e.idle[0]
			e.idle = slices.Delete(e.idle, 0, 1)
			e.forgetLocked(evict)
		}
	}
	e.mu.Unlock()
	if evict != nil {
		if evict.pool != nil {
			evict.pool.close()
		}
		// Instances of evict keep running: wazero allows closing a
		// compiled module with live instances.
		_ = evict.cm.Close(context.Background())
	}
}

// Close closes every module and instance of the engine and the compilation
// cache. It is safe to call more than once.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	for _, c := range e.byHash {
		if c.pool != nil {
			c.pool.close()
		}
	}
	e.byHash, e.byIdent, e.idle = nil, nil, nil
	e.mu.Unlock()

	err := e.rt.Close(ctx)
	if e.cache != nil {
		err = errors.Join(err, e.cache.Close(ctx))
	}
	return err
}

var errEngineClosed = errors.New("wazeroengine: engine is closed")

// noRandom is the random source of wazero's per-instance system context,
// which only wazero's own WASI reads; guests get theirs from the WASI host
// module. Without one, wazero seeds a math/rand source for every instance,
// 1% of a process start.
type noRandom struct{}

func (noRandom) Read([]byte) (int, error) { return 0, errNoRandom }

var errNoRandom = errors.New("wazeroengine: no random source; the WASI host provides randomness")

// compileSafely compiles bin, turning a panic inside wazero (v1.12 panics on
// some malformed modules, for example a function type index out of range)
// into an error: bad bytes must never take the host down.
func compileSafely(ctx context.Context, rt wazero.Runtime, bin []byte) (cm wazero.CompiledModule, err error) {
	defer func() {
		if r := recover(); r != nil {
			cm, err = nil, fmt.Errorf("wazero could not compile the module: %v", r)
		}
	}()
	return rt.CompileModule(ctx, bin)
}
