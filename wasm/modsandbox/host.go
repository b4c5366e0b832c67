package modsandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/instrument"
)

// Names of the built-in host functions in "env".
const (
	BuiltinGetTime   = "__get_time"   // () -> i64: Config.EventTimestamp
	BuiltinGetRandom = "__get_random" // () -> i32: next Mulberry32 output
	BuiltinLog       = "__log"        // (ptr, len i32): log a UTF-8 message
	BuiltinReadFile  = "__read_file"  // (pathPtr, pathLen, bufPtr, bufCap i32) -> i32
	BuiltinFetch     = "__fetch"      // (urlPtr, urlLen, bufPtr, bufCap i32) -> i32
)

// Results of __read_file and __fetch besides a length.
const (
	ResultDenied = -1 // the capability was not granted
	ResultFailed = -2 // not found, unreadable, or the fetch failed
)

// maxLogBytes caps one __log message.
const maxLogBytes = 64 << 10

type signature struct {
	name            string
	params, results []wasm.ValueType
	nonBlocking     bool
}

var (
	i32x1 = []wasm.ValueType{wasm.I32}
	i32x2 = []wasm.ValueType{wasm.I32, wasm.I32}
	i32x4 = []wasm.ValueType{wasm.I32, wasm.I32, wasm.I32, wasm.I32}
)

// builtins in the order of the builtin* indices.
var builtins = []signature{
	{BuiltinGetTime, nil, []wasm.ValueType{wasm.I64}, true},
	{BuiltinGetRandom, nil, i32x1, true},
	{BuiltinLog, i32x2, nil, true},
	{BuiltinReadFile, i32x4, i32x1, false}, // Config.FS may wait
	{BuiltinFetch, i32x4, i32x1, false},
}

const (
	builtinGetTime = iota
	builtinGetRandom
	builtinLog
	builtinReadFile
	builtinFetch
)

// HostCall is one entry of the host-call log.
type HostCall struct {
	// Seq is the logical time of the call: its index in the execution's
	// log, from 0.
	Seq int
	// Name is the function's name in "env".
	Name string
	// Inputs and Outputs are the raw argument and result values.
	Inputs, Outputs []uint64
	// GasAtCall is the gas the execution had used when the call was made.
	GasAtCall uint64
	// Capability is the capability the call needed ("read:/path",
	// "fetch:host"), "" for calls that need none; Granted says whether the
	// config granted it.
	Capability string
	Granted    bool
	// Detail is the message of __log, the path of __read_file, the URL of
	// __fetch.
	Detail string
	// Error is the host function's error, if it failed.
	Error string
}

// ctxKey finds the executing instance in the ctx of host calls.
type ctxKey struct{}

func instanceOf(ctx context.Context) *Instance {
	in, _ := ctx.Value(ctxKey{}).(*Instance)
	if in == nil {
		panic(errors.New("modsandbox: host function called outside an execution"))
	}
	return in
}

// engineKey identifies the "env" signatures of a frozen config: instances
// whose keys are equal share an engine.
func engineKey(cfg *Config) string {
	var b strings.Builder
	// Whether __read_file and __fetch may block (see hostModules).
	if cfg.FS != nil {
		b.WriteString("fs;")
	}
	if cfg.Fetch != nil {
		b.WriteString("fetch;")
	}
	for _, hf := range cfg.HostFunctions {
		b.WriteString(hf.Name)
		b.WriteByte('(')
		for _, p := range hf.Params {
			b.WriteByte(byte(p))
		}
		b.WriteByte(')')
		for _, r := range hf.Results {
			b.WriteByte(byte(r))
		}
		if hf.NonBlocking {
			b.WriteByte('!')
		}
		b.WriteByte(';')
	}
	return b.String()
}

// hostModules builds the modules an engine for cfg's key needs: "env"
// with the built-ins and the declared functions, and the fuel import.
// Every function finds its instance through ctx.
func hostModules(cfg *Config) []wasm.HostModule {
	env := wasm.HostModule{Name: "env"}
	for i, b := range builtins {
		// Without a provider, __read_file and __fetch deny at once.
		nonBlocking := b.nonBlocking || (i == builtinReadFile && cfg.FS == nil) || (i == builtinFetch && cfg.Fetch == nil)
		env.Funcs = append(env.Funcs, wasm.HostFunc{Name: b.name, Params: b.params, Results: b.results, NonBlocking: nonBlocking,
			Fn: func(ctx context.Context, mem wasm.Memory, stack []uint64) {
				instanceOf(ctx).builtin(ctx, i, mem, stack)
			}})
	}
	for i, hf := range cfg.HostFunctions {
		env.Funcs = append(env.Funcs, wasm.HostFunc{Name: hf.Name, Params: hf.Params, Results: hf.Results, NonBlocking: hf.NonBlocking,
			Fn: func(ctx context.Context, mem wasm.Memory, stack []uint64) {
				instanceOf(ctx).declared(ctx, i, mem, stack)
			}})
	}
	fuel := wasm.HostModule{Name: instrument.RefuelModule, Funcs: []wasm.HostFunc{{
		Name: instrument.RefuelName, Params: []wasm.ValueType{wasm.I64}, Results: []wasm.ValueType{wasm.I64}, NonBlocking: true,
		Fn: func(ctx context.Context, _ wasm.Memory, stack []uint64) {
			stack[0] = uint64(instanceOf(ctx).refuel(int64(stack[0])))
		}}}}
	return []wasm.HostModule{env, fuel}
}

// fuelSlice is how much fuel a refuel hands out at most: the deadline is
// checked about this often.
const fuelSlice = 1 << 18

// fail stops the guest with err.
func (in *Instance) fail(err *Error) {
	if in.abort == nil {
		in.abort = err
	}
	panic(err)
}

// checkRunning stops the guest if it was destroyed or ran out of time.
func (in *Instance) checkRunning() {
	if in.destroyed.Load() {
		in.fail(newError(CodeInstanceDestroyed, "the instance was destroyed during the execution"))
	}
	if !in.deadline.IsZero() && time.Now().After(in.deadline) {
		in.fail(&Error{Code: CodeTimeout, Message: "the execution ran longer than MaxExecutionMs"})
	}
}

// refuel implements wasmsand.refuel (see package instrument): it hands
// out fuel up to exactly MaxGas, so gas runs out at the same instruction
// whatever the slices.
func (in *Instance) refuel(bal int64) int64 {
	in.checkRunning()
	maxGas := int64(in.cfg.MaxGas)
	if used := in.given - bal; used > maxGas {
		in.gasAtAbort = uint64(used)
		in.fail(newError(CodeGasExhausted, "the execution used more than MaxGas"))
	}
	s := min(max(fuelSlice, -bal), maxGas-in.given)
	in.given += s
	return bal + s
}

// enterHost charges a host call and starts its log entry.
func (in *Instance) enterHost(name string, stack []uint64, nParams int) *HostCall {
	in.checkRunning()
	var used uint64
	if in.exec != nil {
		bal, _ := in.exec.Global(instrument.FuelGlobal)
		used = uint64(in.given - int64(bal))
		after := int64(bal) - int64(in.cfg.HostCallGas)
		in.exec.SetGlobal(instrument.FuelGlobal, uint64(after))
		if u := in.given - after; u > int64(in.cfg.MaxGas) {
			in.gasAtAbort = uint64(u)
			in.fail(newError(CodeGasExhausted, "the execution used more than MaxGas (at a call of "+name+")"))
		}
	}
	in.log = append(in.log, HostCall{Seq: len(in.log), Name: name, Inputs: slices.Clone(stack[:nParams]), GasAtCall: used})
	in.hostCalls++
	return &in.log[len(in.log)-1]
}

// leaveHost finishes a log entry; a non-nil err stops the guest.
func (in *Instance) leaveHost(rec *HostCall, stack []uint64, nResults int, err error) {
	if err != nil {
		rec.Error = err.Error()
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeHostFunctionError {
			e = &Error{Code: CodeHostFunctionError, Message: "host function " + rec.Name + ": " + err.Error(), Err: err}
		}
		in.fail(e)
	}
	if nResults > 0 {
		rec.Outputs = slices.Clone(stack[:nResults])
	}
}

func (in *Instance) declared(ctx context.Context, i int, mem wasm.Memory, stack []uint64) {
	hf := &in.cfg.HostFunctions[i]
	rec := in.enterHost(hf.Name, stack, len(hf.Params))
	args := rec.Inputs
	res, err := callHost(ctx, hf.Fn, mem, args)
	if err == nil && len(res) != len(hf.Results) {
		err = errors.New("returned " + strconv.Itoa(len(res)) + " results, declared " + strconv.Itoa(len(hf.Results)))
	}
	if err == nil {
		copy(stack, res)
	}
	in.leaveHost(rec, stack, len(hf.Results), err)
}

// callHost calls fn, turning a panic into an error: a faulty handler
// stops the guest like a failing one.
func callHost(ctx context.Context, fn HostFunc, mem wasm.Memory, args []uint64) (res []uint64, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = errors.New("panic: " + strings.TrimSpace(fmt.Sprint(r)))
			}
		}
	}()
	return fn(ctx, mem, args)
}

func (in *Instance) builtin(ctx context.Context, i int, mem wasm.Memory, stack []uint64) {
	b := &builtins[i]
	rec := in.enterHost(b.name, stack, len(b.params))
	var err error
	switch i {
	case builtinGetTime:
		stack[0] = uint64(in.timestamp)
	case builtinGetRandom:
		stack[0] = uint64(mulberry32(&in.prng))
	case builtinLog:
		var msg []byte
		if msg, err = guestBytes(mem, stack[0], stack[1], maxLogBytes); err == nil {
			rec.Detail = string(msg)
			in.logs = append(in.logs, rec.Detail)
		}
	case builtinReadFile:
		err = in.readFile(rec, mem, stack)
	case builtinFetch:
		err = in.fetch(ctx, rec, mem, stack)
	}
	in.leaveHost(rec, stack, len(b.results), err)
}

// guestBytes reads len bytes at ptr, failing if they are out of bounds or
// more than limit.
func guestBytes(mem wasm.Memory, ptr, n uint64, limit uint32) ([]byte, error) {
	if uint32(n) > limit {
		return nil, errors.New("length " + strconv.Itoa(int(uint32(n))) + " is more than " + strconv.Itoa(int(limit)))
	}
	if mem == nil {
		return nil, errors.New("the module has no memory")
	}
	b, ok := mem.Read(uint32(ptr), uint32(n))
	if !ok {
		return nil, errors.New("range out of memory bounds")
	}
	return b, nil
}

// deliver copies data to the guest's buffer (as much as fits) and
// returns its full length.
func deliver(mem wasm.Memory, stack []uint64, data []byte) error {
	n := min(uint32(stack[3]), uint32(len(data)))
	if n > 0 && !mem.Write(uint32(stack[2]), data[:n]) {
		return errors.New("buffer out of memory bounds")
	}
	if len(data) > 1<<31-1 {
		setResult(stack, ResultFailed)
		return nil
	}
	stack[0] = uint64(len(data))
	return nil
}

func setResult(stack []uint64, v int32) { stack[0] = uint64(uint32(v)) }

func (in *Instance) readFile(rec *HostCall, mem wasm.Memory, stack []uint64) error {
	p, err := guestBytes(mem, stack[0], stack[1], 4096)
	if err != nil {
		return err
	}
	name := path.Clean("/" + string(p))
	rec.Detail = name
	rec.Capability = "read:" + name
	for _, prefix := range in.cfg.ReadPrefixes {
		prefix = path.Clean("/" + prefix)
		if name == prefix || prefix == "/" || strings.HasPrefix(name, prefix+"/") {
			rec.Granted = in.cfg.FS != nil
			break
		}
	}
	if !rec.Granted {
		setResult(stack, ResultDenied)
		return nil
	}
	data, rerr := fs.ReadFile(in.cfg.FS, strings.TrimPrefix(name, "/"))
	if rerr != nil {
		setResult(stack, ResultFailed)
		return nil
	}
	return deliver(mem, stack, data)
}

func (in *Instance) fetch(ctx context.Context, rec *HostCall, mem wasm.Memory, stack []uint64) error {
	p, err := guestBytes(mem, stack[0], stack[1], 8192)
	if err != nil {
		return err
	}
	rec.Detail = string(p)
	u, perr := url.Parse(rec.Detail)
	if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		rec.Capability = "fetch:?"
		setResult(stack, ResultDenied)
		return nil
	}
	rec.Capability = "fetch:" + u.Host
	rec.Granted = in.cfg.Fetch != nil && slices.Contains(in.cfg.FetchHosts, u.Host)
	if !rec.Granted {
		setResult(stack, ResultDenied)
		return nil
	}
	fctx, cancel := context.WithDeadline(ctx, in.deadline)
	data, ferr := in.cfg.Fetch(fctx, rec.Detail)
	cancel()
	if ferr != nil {
		setResult(stack, ResultFailed)
		return nil
	}
	return deliver(mem, stack, data)
}

// mulberry32 advances the generator state and returns its next output.
func mulberry32(state *uint32) uint32 {
	*state += 0x6d2b79f5
	t := *state
	t = (t ^ t>>15) * (t | 1)
	t = (t + (t^t>>7)*(t|61)) ^ t
	return t ^ t>>14
}

func itoa(n int) string { return strconv.Itoa(n) }
