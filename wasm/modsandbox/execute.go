package modsandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/instrument"
)

// Result is the outcome of Execute. Exactly one of Value (when OK) and
// Error (when not) is meaningful; a failed execution returns no partial
// value.
type Result struct {
	OK    bool
	Value any
	Error *Error
	// GasUsed is the gas of this execution (for GAS_EXHAUSTED, the amount
	// reached when it was detected, more than MaxGas).
	GasUsed  uint64
	Duration time.Duration
	Metrics  Metrics
	// HostCalls is the host-call log of this execution, Logs the messages
	// of its __log calls.
	HostCalls []HostCall
	Logs      []string
}

// DurationMs is Duration in milliseconds, as durationMs in JS.
func (r *Result) DurationMs() float64 { return float64(r.Duration) / float64(time.Millisecond) }

// HostCallLog returns the host-call log of the last execution.
func (in *Instance) HostCallLog() []HostCall {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.log
}

// begin resets the per-execution state.
func (in *Instance) begin(start time.Time) {
	in.given, in.abort, in.gasAtAbort = 0, nil, 0
	in.log, in.logs = nil, nil
	in.hostCalls = 0
	in.deadline = start.Add(time.Duration(in.cfg.MaxExecutionMs) * time.Millisecond)
}

// Execute calls the export named action with payload (see the package
// documentation for the calling conventions). It never panics and returns
// guest failures in the Result, never as a Go error.
func (in *Instance) Execute(ctx context.Context, action string, payload any) Result {
	start := time.Now()
	in.mu.Lock()
	if err := in.require("execute", StatusLoaded); err != nil {
		in.mu.Unlock()
		return Result{Error: err, Duration: time.Since(start), Metrics: in.Metrics()}
	}
	in.status = StatusRunning
	cur := in.cur
	in.mu.Unlock()

	value, gas, failures, err := in.execute(ctx, cur, action, payload, start)
	res := Result{OK: err == nil, GasUsed: gas, Error: err, HostCalls: in.log, Logs: in.logs}
	if err == nil {
		res.Value = value
	}
	res.Duration = time.Since(start)

	in.mu.Lock()
	if in.destroyed.Load() {
		in.releaseLocked()
		if res.Error == nil || res.Error.Code != CodeInstanceDestroyed {
			res.OK, res.Value = false, nil
			res.Error = newError(CodeInstanceDestroyed, "the instance was destroyed during the execution")
		}
	} else {
		in.status = StatusLoaded
	}
	m := &in.metrics
	m.Executions++
	m.GasUsed += gas
	m.LastGasUsed = gas
	m.HostCalls += in.hostCalls
	m.FailedGrows += failures
	m.TotalDuration += res.Duration
	in.updateMemoryLocked()
	res.Metrics = *m
	in.mu.Unlock()
	return res
}

// conventions
const (
	modeNumbers = iota
	modeJSON
	modeBytes
)

func (in *Instance) execute(ctx context.Context, cur wasm.Instance, action string, payload any, start time.Time) (value any, gas, failures uint64, err *Error) {
	sig, ok := in.info.exports[action]
	if !ok || strings.HasPrefix(action, "wasmsand_") {
		return nil, 0, 0, newError(CodeInvalidArgument, "the module exports no function "+quote(action))
	}
	mode, args, data, err := encodeArgs(payload, sig)
	if err != nil {
		return nil, 0, 0, err
	}
	in.begin(start)
	in.exec = cur
	cur.SetGlobal(instrument.FuelGlobal, 0)
	cur.SetGlobal(instrument.DepthGlobal, 0)
	grows0, _ := cur.Global(instrument.GrowFailuresGlobal)
	ctx = context.WithValue(ctx, ctxKey{}, in)
	defer func() {
		grows, _ := cur.Global(instrument.GrowFailuresGlobal)
		failures = uint64(uint32(grows) - uint32(grows0))
		if err != nil && err.Code == CodeWasmTrap && failures > 0 {
			err = &Error{Code: CodeMemoryExceeded, Trap: err.Trap, Err: err,
				Message: "memory.grow failed at MaxMemoryBytes, then the guest trapped: " + err.Message}
		}
		gas = in.gasUsed()
	}()

	if mode != modeNumbers {
		if err := checkBufferABI(in.info, sig); err != nil {
			return nil, 0, 0, err
		}
		res, cerr := cur.Call(ctx, "alloc", uint64(len(data)))
		if cerr != nil {
			return nil, 0, 0, in.classify(cerr)
		}
		mem := cur.Memory()
		ptr := uint32(res[0])
		if mem == nil || !mem.Write(ptr, data) {
			return nil, 0, 0, newError(CodeInvalidResult, "alloc returned a buffer outside memory")
		}
		args = []uint64{uint64(ptr), uint64(len(data))}
	}
	res, cerr := cur.Call(ctx, action, args...)
	if cerr != nil {
		return nil, 0, 0, in.classify(cerr)
	}
	// Charges made after the guest's last fuel check: the limit is exact.
	if in.gasUsed() > in.cfg.MaxGas {
		return nil, 0, 0, newError(CodeGasExhausted, "the execution used more than MaxGas")
	}
	if mode == modeNumbers {
		return decodeNumbers(res, sig.Results), 0, 0, nil
	}
	value, err = decodeBuffer(cur.Memory(), res, sig.Results, mode)
	return value, 0, 0, err
}

func quote(s string) string { return `"` + s + `"` }

// gasUsed is the gas of the current execution.
func (in *Instance) gasUsed() uint64 {
	if in.gasAtAbort != 0 {
		return in.gasAtAbort
	}
	if in.exec == nil {
		return 0
	}
	bal, _ := in.exec.Global(instrument.FuelGlobal)
	return uint64(in.given - int64(bal))
}

// classify turns an error of a guest call into an *Error.
func (in *Instance) classify(err error) *Error {
	if in.abort != nil {
		return in.abort
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var trap *wasm.Trap
	if errors.As(err, &trap) {
		kind := trap.Kind
		if kind == wasm.TrapUnreachable && in.exec != nil {
			if d, ok := in.exec.Global(instrument.DepthGlobal); ok && uint32(d) > in.cfg.MaxCallDepth {
				kind = wasm.TrapStackOverflow
			}
		}
		msg := string(kind)
		if kind == wasm.TrapStackOverflow {
			msg = "call depth exceeded MaxCallDepth"
		}
		return &Error{Code: CodeWasmTrap, Trap: kind, Message: msg, Err: err}
	}
	var exit *wasm.ExitError
	if errors.As(err, &exit) {
		return &Error{Code: CodeWasmTrap, Trap: wasm.TrapOther, Message: exit.Error(), Err: err}
	}
	return &Error{Code: CodeWasmTrap, Trap: wasm.TrapOther, Message: err.Error(), Err: err}
}

var (
	i32i32 = binary.FuncType{Params: []binary.ValType{binary.I32, binary.I32}}
	allocT = binary.FuncType{Params: []binary.ValType{binary.I32}, Results: []binary.ValType{binary.I32}}
)

func checkBufferABI(info *moduleInfo, sig binary.FuncType) *Error {
	if a, ok := info.exports["alloc"]; !ok || !a.Equal(allocT) {
		return newError(CodeInvalidArgument, "a string, object or byte payload needs the export alloc(len i32) -> i32")
	}
	if !info.hasMemory {
		return newError(CodeInvalidArgument, "a string, object or byte payload needs a memory")
	}
	if !(binary.FuncType{Params: sig.Params}).Equal(i32i32) {
		return newError(CodeInvalidArgument, "a string, object or byte payload needs an action taking (ptr, len i32)")
	}
	switch {
	case len(sig.Results) == 0,
		len(sig.Results) == 1 && sig.Results[0] == binary.I64,
		len(sig.Results) == 2 && sig.Results[0] == binary.I32 && sig.Results[1] == binary.I32:
		return nil
	}
	return newError(CodeInvalidArgument, "an action taking a string, object or byte payload must return nothing, a packed i64 (ptr<<32|len) or (ptr, len i32)")
}

// encodeArgs picks the calling convention for payload and encodes it.
func encodeArgs(payload any, sig binary.FuncType) (mode int, args []uint64, data []byte, err *Error) {
	switch p := payload.(type) {
	case nil:
		return modeNumbers, nil, nil, checkArity(0, sig)
	case []byte:
		return modeBytes, nil, p, nil
	case json.RawMessage:
		if !json.Valid(p) {
			return 0, nil, nil, newError(CodeInvalidArgument, "the json.RawMessage payload is not valid JSON")
		}
		return modeJSON, nil, p, nil
	case string:
		b, _ := marshalJSON(p)
		return modeJSON, nil, b, nil
	}
	v := reflect.ValueOf(payload)
	if isNumber(v) {
		if err := checkArity(1, sig); err != nil {
			return 0, nil, nil, err
		}
		a, err := toArg(v, sig.Params[0], 0)
		return modeNumbers, []uint64{a}, nil, err
	}
	if (v.Kind() == reflect.Slice || v.Kind() == reflect.Array) && allNumbers(v) {
		if err := checkArity(v.Len(), sig); err != nil {
			return 0, nil, nil, err
		}
		args = make([]uint64, v.Len())
		for i := range args {
			if args[i], err = toArg(v.Index(i), sig.Params[i], i); err != nil {
				return 0, nil, nil, err
			}
		}
		return modeNumbers, args, nil, nil
	}
	b, jerr := marshalJSON(payload)
	if jerr != nil {
		return 0, nil, nil, &Error{Code: CodeInvalidArgument, Message: "the payload cannot be JSON-encoded: " + jerr.Error(), Err: jerr}
	}
	return modeJSON, nil, b, nil
}

// marshalJSON is json.Marshal without HTML escaping, so that a string
// reaches the guest as JavaScript's JSON.stringify encodes it.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func checkArity(n int, sig binary.FuncType) *Error {
	if n != len(sig.Params) {
		return newError(CodeInvalidArgument, "the action takes "+itoa(len(sig.Params))+" arguments, the payload has "+itoa(n))
	}
	return nil
}

func isNumber(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Interface:
		return !v.IsNil() && isNumber(v.Elem())
	}
	return false
}

func allNumbers(v reflect.Value) bool {
	for i := range v.Len() {
		if !isNumber(v.Index(i)) {
			return false
		}
	}
	return true
}

// toArg converts a number to the raw bits of a parameter of type t.
func toArg(v reflect.Value, t binary.ValType, i int) (uint64, *Error) {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	var f float64
	var n int64
	var u uint64
	integral, isUnsigned := true, false
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		f = v.Float()
		integral = f == math.Trunc(f) && !math.IsInf(f, 0)
		n = int64(f)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u, isUnsigned = v.Uint(), true
		n, f = int64(u), float64(u)
	default:
		n = v.Int()
		f = float64(n)
	}
	bad := func(what string) *Error {
		return newError(CodeInvalidArgument, "argument "+itoa(i)+" does not fit an "+what+" parameter")
	}
	switch t {
	case binary.I32:
		switch {
		case !integral:
			return 0, bad("i32")
		case isUnsigned && u <= math.MaxUint32:
			return u, nil
		case !isUnsigned && f >= math.MinInt32 && f <= math.MaxUint32:
			return uint64(uint32(n)), nil
		}
		return 0, bad("i32")
	case binary.I64:
		switch {
		case !integral:
			return 0, bad("i64")
		case isUnsigned:
			return u, nil
		case v.Kind() == reflect.Float32 || v.Kind() == reflect.Float64:
			if f < -(1<<63) || f >= 1<<63 {
				return 0, bad("i64")
			}
		}
		return uint64(n), nil
	case binary.F32:
		return uint64(math.Float32bits(float32(f))), nil
	case binary.F64:
		return math.Float64bits(f), nil
	}
	return 0, bad("unsupported")
}

// decodeNumbers converts raw results to Go numbers.
func decodeNumbers(raw []uint64, types []binary.ValType) any {
	switch len(types) {
	case 0:
		return nil
	case 1:
		return fromRaw(raw[0], types[0])
	}
	out := make([]any, len(types))
	for i, t := range types {
		out[i] = fromRaw(raw[i], t)
	}
	return out
}

func fromRaw(v uint64, t binary.ValType) any {
	switch t {
	case binary.I32:
		return int32(uint32(v))
	case binary.I64:
		return int64(v)
	case binary.F32:
		return math.Float32frombits(uint32(v))
	case binary.F64:
		return math.Float64frombits(v)
	}
	return v
}

// decodeBuffer reads the (ptr, len) output of a buffer-convention action.
func decodeBuffer(mem wasm.Memory, raw []uint64, types []binary.ValType, mode int) (any, *Error) {
	var ptr, n uint32
	switch len(types) {
	case 0:
		return nil, nil
	case 1:
		ptr, n = uint32(raw[0]>>32), uint32(raw[0])
	default:
		ptr, n = uint32(raw[0]), uint32(raw[1])
	}
	b, ok := mem.Read(ptr, n)
	if !ok {
		return nil, newError(CodeInvalidResult, "the returned (ptr, len) is outside memory")
	}
	out := make([]byte, len(b))
	copy(out, b)
	if mode == modeBytes {
		return out, nil
	}
	if !json.Valid(out) {
		return nil, newError(CodeInvalidResult, "the returned bytes are not valid JSON")
	}
	return json.RawMessage(out), nil
}
