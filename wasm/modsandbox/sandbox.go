// Package modsandbox runs single untrusted WebAssembly modules — plugins,
// agent-written code, contract-like logic — metered, isolated,
// deterministic and resumable. It is the Go side of createWasmSandbox.
//
// A Runtime creates instances; each Instance loads one module and runs its
// exports with Execute. Engines are injected (NewRuntime takes a factory
// of wasm.Engine), so the same code runs on wazero natively and on the
// host's WebAssembly under GOOS=js; package native gives the wazero one.
//
// # Status
//
//	created --Load--> loaded --Execute--> running --> loaded
//	loaded --Suspend--> suspended --Resume--> loaded
//	loaded, suspended --Restore--> loaded
//	any --Destroy--> destroyed (idempotent)
//
// Any other move fails with CodeInvalidState, and every call on a
// destroyed instance with CodeInstanceDestroyed.
//
// # Guest ABI
//
// Imports: only functions of module "env": the built-ins (__get_time,
// __get_random, __log, __read_file, __fetch, see the Builtin constants)
// and the Config.HostFunctions, with the declared types. Anything else,
// WASI included, is refused at Load with CodeInvalidModule naming it.
//
// Calling conventions of Execute(action, payload), chosen by the payload:
//   - nil, a number or a slice of numbers: the numbers are the arguments
//     of the export named action, converted to its parameter types (an
//     integral float64 fits an i32 or i64 parameter, as JS numbers do).
//     Results come back as int32, int64, float32 or float64; several
//     results as a []any; none as nil.
//   - []byte: passed as raw bytes, anything else (string, map, struct,
//     json.RawMessage): JSON-encoded. The bytes go into guest memory
//     through the guest's export alloc(len i32) -> ptr i32, and the
//     action is called as action(ptr, len i32). It returns either nothing,
//     a packed i64 (ptr<<32 | len) or two i32 (ptr, len) locating its
//     output in memory; the output is returned as json.RawMessage (checked
//     to be valid JSON) for a JSON payload, as []byte for a []byte one.
//
// The module must export its memory as "memory" if it has one with
// another name it is exported under that name too.
//
// # Limits and determinism
//
// Load instruments the module (package instrument): fuel metering (gas
// is one unit per instruction plus Config.HostCallGas per host call),
// the memory cap, canonical NaNs, a deterministic call-depth limit, no
// threads or relaxed SIMD, and exports of every mutable global for
// snapshots. The same module, action, payload and config give the same
// value, gas and host-call log on every engine; ValidateDeterminism runs
// an action twice and diffs them.
//
// A failed Execute leaves the guest's state as the failure found it;
// restore a snapshot to roll back.
package modsandbox

import (
	"context"
	"crypto/sha256"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/instrument"
)

// EngineFactory creates an engine with the given host modules. The wazero
// one is native.Factory; the js build supplies its own.
type EngineFactory func(ctx context.Context, hostModules []wasm.HostModule) (wasm.Engine, error)

// Runtime creates instances and owns the engines they run on: one per
// distinct set of declared host-function signatures. It is safe for
// concurrent use.
type Runtime struct {
	factory EngineFactory
	text    atomic.Pointer[TextCompiler]

	mu      sync.Mutex
	nextID  uint64
	engines map[string]wasm.Engine
	closed  bool
}

// NewRuntime returns a Runtime whose engines come from factory.
func NewRuntime(factory EngineFactory) *Runtime {
	return &Runtime{factory: factory, engines: map[string]wasm.Engine{}}
}

// TextCompiler converts WebAssembly text (.wat) to a binary module. Its
// errors should name the line of the mistake; package sandbox/wat's
// Compiler.Compile is one, running wabt's wat2wasm inside a sandbox.
type TextCompiler func(ctx context.Context, text []byte) ([]byte, error)

// SetTextCompiler makes Load accept WebAssembly text as well as binary:
// text is converted with c first, and c's error becomes the Message of a
// CodeInvalidModule error. nil (the default) refuses text with
// CodeInvalidModule. The package itself has no text parser: it sits below
// the sandbox that runs wat2wasm.
func (r *Runtime) SetTextCompiler(c TextCompiler) {
	if c == nil {
		r.text.Store(nil)
		return
	}
	r.text.Store(&c)
}

// Close closes every engine, and with them every instance.
func (r *Runtime) Close(ctx context.Context) error {
	r.mu.Lock()
	engines := r.engines
	r.engines, r.closed = nil, true
	r.mu.Unlock()
	var err error
	for _, e := range engines {
		err = errors.Join(err, e.Close(ctx))
	}
	return err
}

func (r *Runtime) engine(ctx context.Context, cfg *Config) (wasm.Engine, error) {
	key := engineKey(cfg)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, newError(CodeInvalidState, "the runtime is closed")
	}
	if e := r.engines[key]; e != nil {
		return e, nil
	}
	e, err := r.factory(ctx, hostModules(cfg))
	if err != nil {
		return nil, &Error{Code: CodeInvalidConfig, Message: "cannot create an engine: " + err.Error(), Err: err}
	}
	r.engines[key] = e
	return e, nil
}

// Status is an instance's place in its life cycle.
type Status string

// The statuses.
const (
	StatusCreated   Status = "created"
	StatusLoaded    Status = "loaded"
	StatusRunning   Status = "running"
	StatusSuspended Status = "suspended"
	StatusDestroyed Status = "destroyed"
)

// Metrics are an instance's running totals.
type Metrics struct {
	Executions      uint64
	GasUsed         uint64 // by every execution, restored from snapshots
	LastGasUsed     uint64
	HostCalls       uint64
	FailedGrows     uint64 // memory.grow calls refused at the cap
	MemoryBytes     uint64 // linear memory now (0 unless loaded)
	PeakMemoryBytes uint64
	TotalDuration   time.Duration
}

// Instance is one sandboxed module. Its methods are safe for concurrent
// use; executions do not overlap (a second one fails with
// CodeInvalidState).
type Instance struct {
	id  string
	rt  *Runtime
	cfg Config // frozen

	mu        sync.Mutex
	status    Status
	destroyed atomic.Bool
	eng       wasm.Engine
	mod       wasm.Module
	cur       wasm.Instance // guarded by mu
	info      *moduleInfo
	// busy names the Load, Restore or Resume in progress. They run
	// without holding mu: under GOOS=js an engine call waits for the
	// host's event loop, and a JavaScript callback asking for the status
	// meanwhile must not wait for mu.
	busy      string
	suspended []byte // the state while suspended
	metrics   Metrics

	// deterministic state, saved in snapshots
	prng      uint32
	timestamp int64

	// per execution, touched only by the goroutine running it
	exec       wasm.Instance // the instance host calls charge, nil in start functions
	given      int64         // fuel handed out
	deadline   time.Time
	abort      *Error
	gasAtAbort uint64
	log        []HostCall
	logs       []string
	hostCalls  uint64
}

// Create returns a new instance with a frozen copy of cfg. Its id is
// "sandbox-N", N counting from 0 in this Runtime.
func (r *Runtime) Create(cfg Config) (*Instance, error) {
	c, err := cfg.frozen()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, newError(CodeInvalidState, "the runtime is closed")
	}
	id := "sandbox-" + strconv.FormatUint(r.nextID, 10)
	r.nextID++
	r.mu.Unlock()
	return &Instance{id: id, rt: r, cfg: c, status: StatusCreated, prng: c.DeterministicSeed, timestamp: c.EventTimestamp}, nil
}

// ID returns the instance's id.
func (in *Instance) ID() string { return in.id }

// Config returns a copy of the instance's frozen config, defaults filled
// in.
func (in *Instance) Config() Config { return in.cfg.clone() }

// Status returns the current status.
func (in *Instance) Status() Status {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.status
}

// Metrics returns the running totals.
func (in *Instance) Metrics() Metrics {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.updateMemoryLocked()
	return in.metrics
}

func (in *Instance) updateMemoryLocked() {
	in.metrics.MemoryBytes = 0
	if in.cur != nil && in.status != StatusRunning {
		if mem := in.cur.Memory(); mem != nil {
			in.metrics.MemoryBytes = uint64(mem.Size())
		}
	}
	in.metrics.PeakMemoryBytes = max(in.metrics.PeakMemoryBytes, in.metrics.MemoryBytes)
}

// require checks that the instance is in one of the statuses allowed for
// op; in.mu is held.
func (in *Instance) require(op string, allowed ...Status) *Error {
	if in.status == StatusDestroyed {
		return newError(CodeInstanceDestroyed, "cannot "+op+" "+in.id+": it was destroyed")
	}
	if in.busy != "" {
		return newError(CodeInvalidState, "cannot "+op+" "+in.id+" while a "+in.busy+" is in progress: wait for it to end")
	}
	for _, s := range allowed {
		if in.status == s {
			return nil
		}
	}
	msg := "cannot " + op + " " + in.id + " while it is " + string(in.status)
	switch in.status {
	case StatusCreated:
		msg += ": load a module first"
	case StatusSuspended:
		msg += ": resume it first"
	case StatusRunning:
		msg += ": wait for the execution to end"
	}
	return newError(CodeInvalidState, msg)
}

// moduleInfo is what Load learns about a module.
type moduleInfo struct {
	hash      [sha256.Size]byte // of the instrumented module
	exports   map[string]binary.FuncType
	globals   []string // exported mutable globals of the module, by index
	hasMemory bool
	minPages  uint32
}

// Load checks and instruments bin, compiles it and instantiates it. The
// instance must be created (not loaded yet). Failures leave it created.
func (in *Instance) Load(ctx context.Context, bin []byte) error {
	in.mu.Lock()
	if err := in.require("load a module into", StatusCreated); err != nil {
		in.mu.Unlock()
		return err
	}
	in.busy = "load"
	in.mu.Unlock()

	info, eng, mod, cur, err := in.load(ctx, bin)

	in.mu.Lock()
	defer in.mu.Unlock()
	in.busy = ""
	if in.destroyed.Load() {
		if cur != nil {
			_ = cur.Close(ctx)
			_ = mod.Close(ctx)
		}
		return newError(CodeInstanceDestroyed, "the instance was destroyed during the load")
	}
	if err != nil {
		return err
	}
	in.info, in.eng, in.mod, in.cur = info, eng, mod, cur
	in.status = StatusLoaded
	in.updateMemoryLocked()
	return nil
}

// load does the work of Load without holding in.mu.
func (in *Instance) load(ctx context.Context, bin []byte) (*moduleInfo, wasm.Engine, wasm.Module, wasm.Instance, error) {
	if tc := in.rt.text.Load(); tc != nil && isWAT(bin) {
		b, err := (*tc)(ctx, bin)
		if err != nil {
			return nil, nil, nil, nil, &Error{Code: CodeInvalidModule, Message: err.Error(), Err: err}
		}
		bin = b
	}
	info, out, err := in.prepare(bin)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	eng, err := in.rt.engine(ctx, &in.cfg)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	mod, err := eng.Compile(ctx, out)
	if err != nil {
		return nil, nil, nil, nil, &Error{Code: CodeInvalidModule, Message: err.Error(), Err: err}
	}
	cur, err := in.instantiate(ctx, mod)
	if err != nil {
		_ = mod.Close(ctx)
		return nil, nil, nil, nil, err
	}
	return info, eng, mod, cur, nil
}

// instantiate creates a fresh instance of mod. A start function runs
// under the same limits as an execution, without gas accounting.
func (in *Instance) instantiate(ctx context.Context, mod wasm.Module) (wasm.Instance, error) {
	in.begin(time.Now())
	in.exec = nil
	cur, err := mod.Instantiate(context.WithValue(ctx, ctxKey{}, in))
	if err != nil {
		e := in.classify(err)
		if e.Code == CodeWasmTrap || e.Code == CodeInvalidArgument {
			e = &Error{Code: CodeInvalidModule, Message: "instantiation failed: " + e.Error(), Err: e}
		}
		return nil, e
	}
	return cur, nil
}

// prepare decodes, checks and instruments bin.
func (in *Instance) prepare(bin []byte) (*moduleInfo, []byte, error) {
	invalid := func(err error) (*moduleInfo, []byte, error) {
		return nil, nil, &Error{Code: CodeInvalidModule, Message: err.Error(), Err: err}
	}
	if isWAT(bin) {
		return nil, nil, newError(CodeInvalidModule, "WebAssembly text (.wat) is not accepted by this runtime: give it a text compiler (Runtime.SetTextCompiler) or compile the text to a binary module first (for example with wat2wasm)")
	}
	m, err := binary.Decode(bin)
	if err != nil {
		return invalid(err)
	}
	declared := map[string]signature{}
	for _, b := range builtins {
		declared[b.name] = b
	}
	for _, hf := range in.cfg.HostFunctions {
		declared[hf.Name] = signature{name: hf.Name, params: hf.Params, results: hf.Results}
	}
	info := &moduleInfo{exports: map[string]binary.FuncType{}}
	var funcTypes []uint32
	for _, im := range m.Imports {
		name := strconv.Quote(im.Module) + "." + strconv.Quote(im.Name)
		if im.Kind != binary.ExternFunc {
			return nil, nil, newError(CodeInvalidModule, "import "+name+" is not a function: only functions from \"env\" may be imported")
		}
		sig, ok := declared[im.Name]
		if im.Module != "env" || !ok {
			return nil, nil, newError(CodeInvalidModule, "import "+name+" is not allowed: only the built-ins and the declared host functions of \"env\" may be imported")
		}
		if int(im.Func) >= len(m.Types) || !sameTypes(m.Types[im.Func], sig) {
			return nil, nil, newError(CodeInvalidModule, "import "+name+" does not have the declared type")
		}
		funcTypes = append(funcTypes, im.Func)
	}
	funcTypes = append(funcTypes, m.Funcs...)
	for _, ex := range m.Exports {
		if ex.Kind == binary.ExternFunc && int(ex.Index) < len(funcTypes) && int(funcTypes[ex.Index]) < len(m.Types) {
			info.exports[ex.Name] = m.Types[funcTypes[ex.Index]]
		}
	}
	if len(m.Memories) > 0 {
		info.hasMemory, info.minPages = true, m.Memories[0].Min
	}
	for i, g := range m.Globals {
		if g.Type.Mutable {
			info.globals = append(info.globals, instrument.GlobalExportName(uint32(i)))
		}
	}
	out, err := instrument.Instrument(bin, instrument.Options{
		MemoryLimitPages:  uint32(in.cfg.MaxMemoryBytes >> 16),
		Fuel:              true,
		CanonicalNaN:      true,
		RejectRelaxedSIMD: true,
		MaxCallDepth:      in.cfg.MaxCallDepth,
		CountFailedGrows:  true,
		ExportState:       true,
	})
	if err != nil {
		return invalid(err)
	}
	info.hash = sha256.Sum256(out)
	return info, out, nil
}

func sameTypes(t binary.FuncType, sig signature) bool {
	if len(t.Params) != len(sig.params) || len(t.Results) != len(sig.results) {
		return false
	}
	for i, p := range t.Params {
		if byte(p) != byte(sig.params[i]) {
			return false
		}
	}
	for i, r := range t.Results {
		if byte(r) != byte(sig.results[i]) {
			return false
		}
	}
	return true
}

// isWAT reports whether b looks like WebAssembly text rather than binary.
func isWAT(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '(', ';':
			return true
		}
		return false
	}
	return false
}

// Destroy releases the instance. It is idempotent; an execution in
// progress stops at its next fuel check or host call with
// CodeInstanceDestroyed.
func (in *Instance) Destroy() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.status == StatusDestroyed {
		return
	}
	running := in.status == StatusRunning || in.busy != ""
	in.destroyed.Store(true)
	in.status = StatusDestroyed
	if !running {
		in.releaseLocked()
	}
}

func (in *Instance) releaseLocked() {
	ctx := context.Background()
	if in.cur != nil {
		_ = in.cur.Close(ctx)
		in.cur = nil
	}
	if in.mod != nil {
		_ = in.mod.Close(ctx)
		in.mod = nil
	}
	in.suspended = nil
	in.metrics.MemoryBytes = 0
}

// Suspend saves the instance's state and frees its memory: the instance
// keeps its module and can Resume, Snapshot or Restore.
func (in *Instance) Suspend() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if err := in.require("suspend", StatusLoaded); err != nil {
		return err
	}
	snap, err := in.snapshotLocked()
	if err != nil {
		return err
	}
	_ = in.cur.Close(context.Background())
	in.cur, in.suspended = nil, snap
	in.status = StatusSuspended
	in.metrics.MemoryBytes = 0
	return nil
}

// Resume brings a suspended instance back to loaded, with its state.
func (in *Instance) Resume(ctx context.Context) error {
	in.mu.Lock()
	if err := in.require("resume", StatusSuspended); err != nil {
		in.mu.Unlock()
		return err
	}
	return in.restore(ctx, in.suspended, "resume")
}
