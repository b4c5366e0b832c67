package wazeroengine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/wasmsand/wasmsand/wasm"
)

// module is one handle on a memoized compilation.
type module struct {
	c      *compiled
	closed atomic.Bool
}

var _ wasm.Module = (*module)(nil)

// Instantiate creates an anonymous instance. Only the module's own start
// section runs; "_start" is left to the caller.
func (m *module) Instantiate(ctx context.Context) (wasm.Instance, error) {
	if m.closed.Load() {
		return nil, errModuleClosed
	}
	e := m.c.e
	ictx := ctx
	var alloc *allocator
	if e.ownAlloc {
		alloc = &allocator{pool: m.c.pool}
		ictx = experimental.WithMemoryAllocator(ctx, alloc)
	}
	mod, err := e.rt.InstantiateModule(ictx, m.c.cm, e.modCfg)
	if err != nil {
		// A memory taken from the pool is not given back: the
		// instantiation may have left it half written.
		return nil, convertError(err)
	}
	inst := &instance{mod: mod}
	if alloc != nil {
		inst.lm = alloc.mem
	}
	if mem := mod.ExportedMemory("memory"); mem != nil {
		inst.mem = mem
	}
	return inst, nil
}

// Exports lists the exported function names, sorted.
func (m *module) Exports() []string { return slices.Clone(m.c.exports) }

// Close releases this handle. Instances keep running; the compiled code
// stays memoized for a later Compile of the same bytes.
func (m *module) Close(context.Context) error {
	if m.closed.CompareAndSwap(false, true) {
		m.c.e.release(m.c)
	}
	return nil
}

var errModuleClosed = errors.New("wazeroengine: module is closed")

// instance is one wazero module instance.
type instance struct {
	mod api.Module
	mem wasm.Memory   // exported "memory", or nil
	lm  *linearMemory // the memory's backing, when the engine allocated it

	// running counts Calls in progress; Close recycles the memory only
	// when none is, since a guest still running would write into the
	// next instance's memory.
	running atomic.Int32
	closed  atomic.Bool

	mu      sync.Mutex
	fns     map[string]*function
	globals map[string]api.Global
}

var _ wasm.Instance = (*instance)(nil)

// function caches an api.Function. An api.Function must not be called
// concurrently (or reentrantly), so busy ones are not shared.
type function struct {
	fn   api.Function
	busy bool
}

// Call invokes the exported function name. Calls may overlap (from other
// goroutines or from host functions); each gets its own call stack.
func (i *instance) Call(ctx context.Context, name string, params ...uint64) ([]uint64, error) {
	i.running.Add(1)
	defer i.running.Add(-1)
	if i.closed.Load() {
		// What wazero answers a call into a closed module with.
		return nil, &wasm.ExitError{Code: 0, Reason: "instance closed"}
	}
	i.mu.Lock()
	f := i.fns[name]
	if f == nil || f.busy {
		fn := i.mod.ExportedFunction(name)
		if fn == nil {
			i.mu.Unlock()
			return nil, fmt.Errorf("wazeroengine: no exported function %q", name)
		}
		if f == nil {
			f = &function{fn: fn}
			if i.fns == nil {
				i.fns = make(map[string]*function)
			}
			i.fns[name] = f
		} else {
			f = &function{fn: fn} // one-off for an overlapping call
		}
	}
	f.busy = true
	i.mu.Unlock()

	res, err := f.fn.Call(ctx, params...)

	i.mu.Lock()
	f.busy = false
	i.mu.Unlock()
	if err != nil {
		return nil, convertError(err)
	}
	return res, nil
}

// Memory returns the exported "memory", or nil. Its Read returns views that
// alias guest memory.
func (i *instance) Memory() wasm.Memory { return i.mem }

func (i *instance) global(name string) api.Global {
	i.mu.Lock()
	defer i.mu.Unlock()
	if g, ok := i.globals[name]; ok {
		return g
	}
	g := i.mod.ExportedGlobal(name)
	if i.globals == nil {
		i.globals = make(map[string]api.Global)
	}
	i.globals[name] = g
	return g
}

// Global reads an exported global as raw bits (api.EncodeF64 etc.).
func (i *instance) Global(name string) (uint64, bool) {
	g := i.global(name)
	if g == nil {
		return 0, false
	}
	return g.Get(), true
}

// SetGlobal writes an exported mutable global from raw bits. It reports
// false if there is no such global or it is immutable.
func (i *instance) SetGlobal(name string, v uint64) bool {
	g, ok := i.global(name).(api.MutableGlobal)
	if !ok {
		return false
	}
	g.Set(v)
	return true
}

// Close releases the instance. Its memory goes back to the module's pool
// unless a Call is still running; views of it must not be used after.
func (i *instance) Close(ctx context.Context) error {
	if i.closed.Swap(true) {
		return nil
	}
	if i.lm != nil && i.running.Load() == 0 {
		i.lm.keep.Store(true)
	}
	return i.mod.Close(ctx)
}
