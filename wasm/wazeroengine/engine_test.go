package wazeroengine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
)

// engines lists the configurations every behaviour test runs under.
var engines = []struct {
	name string
	cfg  Config
}{
	{"compiler", Config{}},
	{"interpreter", Config{Interpreter: true}},
}

type hostKey struct{}

// hostState is what the "env" test host module finds through ctx.
type hostState struct {
	value  uint64
	writes []string
	memNil bool
}

var errHostSentinel = errors.New("host sentinel")

// hostError is a typed error a host function panics with.
type hostError struct{ code int }

func (e *hostError) Error() string { return fmt.Sprintf("host error %d", e.code) }
func (e *hostError) Unwrap() error { return errHostSentinel }

func envModule() wasm.HostModule {
	i32, i64, f32, f64 := wasm.I32, wasm.I64, wasm.F32, wasm.F64
	state := func(ctx context.Context) *hostState { return ctx.Value(hostKey{}).(*hostState) }
	return wasm.HostModule{Name: "env", Funcs: []wasm.HostFunc{
		{Name: "exit", Params: []wasm.ValueType{i32}, Fn: func(ctx context.Context, mem wasm.Memory, s []uint64) {
			panic(&wasm.ExitError{Code: uint32(s[0]), Reason: "test exit"})
		}},
		{Name: "fail", Fn: func(ctx context.Context, mem wasm.Memory, s []uint64) {
			panic(&hostError{code: 42})
		}},
		{Name: "ctx_value", Results: []wasm.ValueType{i64}, Fn: func(ctx context.Context, mem wasm.Memory, s []uint64) {
			st := state(ctx)
			st.memNil = mem == nil
			s[0] = st.value
		}},
		{Name: "write", Params: []wasm.ValueType{i32, i32}, Fn: func(ctx context.Context, mem wasm.Memory, s []uint64) {
			b, ok := mem.Read(uint32(s[0]), uint32(s[1]))
			if !ok {
				panic(errors.New("write: out of range"))
			}
			st := state(ctx)
			st.writes = append(st.writes, string(b))
		}},
		{Name: "add_f64", Params: []wasm.ValueType{f64, f32}, Results: []wasm.ValueType{f64}, Fn: func(ctx context.Context, mem wasm.Memory, s []uint64) {
			x := math.Float64frombits(s[0]) + float64(math.Float32frombits(uint32(s[1])))
			s[0] = math.Float64bits(x)
		}},
	}}
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newEngine(t testing.TB, cfg Config) *Engine {
	t.Helper()
	cfg.HostModules = append(cfg.HostModules, envModule())
	e, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

func instantiate(t testing.TB, e *Engine, file string) wasm.Instance {
	t.Helper()
	ctx := context.Background()
	m, err := e.Compile(ctx, readTestdata(t, file))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := m.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Close(ctx) })
	return inst
}

func forEachEngine(t *testing.T, f func(t *testing.T, e *Engine)) {
	for _, tc := range engines {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f(t, newEngine(t, tc.cfg))
		})
	}
}

func TestTraps(t *testing.T) {
	tests := []struct {
		fn     string
		params []uint64
		kind   wasm.TrapKind
	}{
		{"unreachable", nil, wasm.TrapUnreachable},
		{"div_by_zero", []uint64{0}, wasm.TrapDivideByZero},
		{"int_overflow", nil, wasm.TrapIntegerOverflow},
		{"float_overflow", nil, wasm.TrapIntegerOverflow},
		{"out_of_bounds", nil, wasm.TrapOutOfBounds},
		{"stack_overflow", []uint64{0}, wasm.TrapStackOverflow},
		{"indirect_mismatch", nil, wasm.TrapIndirectCall},
		{"table_out_of_bounds", nil, wasm.TrapInvalidTableAccess},
		{"table_null", nil, wasm.TrapInvalidTableAccess},
		{"invalid_conversion", nil, wasm.TrapInvalidConversion},
	}
	forEachEngine(t, func(t *testing.T, e *Engine) {
		inst := instantiate(t, e, "traps.wasm")
		ctx := context.Background()
		for _, tt := range tests {
			_, err := inst.Call(ctx, tt.fn, tt.params...)
			var trap *wasm.Trap
			if !errors.As(err, &trap) {
				t.Errorf("%s: got %v (%T), want a *wasm.Trap", tt.fn, err, err)
				continue
			}
			if trap.Kind != tt.kind {
				t.Errorf("%s: trap kind %q, want %q (%s)", tt.fn, trap.Kind, tt.kind, trap.Msg)
			}
			if trap.Msg == "" {
				t.Errorf("%s: trap has no message", tt.fn)
			}
		}
		// The instance stays usable after traps.
		res, err := inst.Call(ctx, "ok")
		if err != nil || len(res) != 1 || res[0] != 1 {
			t.Errorf("ok after traps: %v, %v", res, err)
		}
		res, err = inst.Call(ctx, "div_by_zero", 1)
		if err != nil || res[0] != 1 {
			t.Errorf("div_by_zero(1): %v, %v", res, err)
		}
	})
}

func TestStartSectionTrap(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		m, err := e.Compile(context.Background(), readTestdata(t, "start_trap.wasm"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.Instantiate(context.Background())
		var trap *wasm.Trap
		if !errors.As(err, &trap) || trap.Kind != wasm.TrapUnreachable {
			t.Fatalf("got %v, want an unreachable trap", err)
		}
	})
}

func TestHostErrors(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		inst := instantiate(t, e, "host.wasm")
		ctx := context.WithValue(context.Background(), hostKey{}, &hostState{})

		_, err := inst.Call(ctx, "exit", 3)
		var exit *wasm.ExitError
		if !errors.As(err, &exit) || exit.Code != 3 || exit.Reason != "test exit" {
			t.Errorf("exit: got %v, want exit status 3", err)
		}

		_, err = inst.Call(ctx, "fail")
		var he *hostError
		if !errors.As(err, &he) || he.code != 42 {
			t.Errorf("fail: got %v, want a *hostError", err)
		}
		if !errors.Is(err, errHostSentinel) {
			t.Errorf("fail: %v does not wrap the sentinel", err)
		}
		var trap *wasm.Trap
		if errors.As(err, &trap) {
			t.Errorf("fail: a host panic reported as a trap: %v", err)
		}

		if _, err := inst.Call(ctx, "no_such_function"); err == nil {
			t.Error("calling a missing export succeeded")
		}
	})
}

func TestHostContext(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		for _, file := range []string{"host.wasm", "nomem.wasm"} {
			inst := instantiate(t, e, file)
			for _, v := range []uint64{1, 1 << 40} {
				st := &hostState{value: v}
				ctx := context.WithValue(context.Background(), hostKey{}, st)
				res, err := inst.Call(ctx, "ctx_value")
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				if res[0] != v {
					t.Errorf("%s: host saw ctx value %d, want %d", file, res[0], v)
				}
				if wantNil := file == "nomem.wasm"; st.memNil != wantNil {
					t.Errorf("%s: host memory nil = %v, want %v", file, st.memNil, wantNil)
				}
			}
		}
	})
}

func TestHostValues(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		inst := instantiate(t, e, "host.wasm")
		ctx := context.WithValue(context.Background(), hostKey{}, &hostState{})
		res, err := inst.Call(ctx, "add_f64", math.Float64bits(1.25), uint64(math.Float32bits(0.5)))
		if err != nil {
			t.Fatal(err)
		}
		if got := math.Float64frombits(res[0]); got != 1.75 {
			t.Errorf("add_f64 = %v, want 1.75", got)
		}
	})
}

func TestMemory(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		inst := instantiate(t, e, "host.wasm")
		st := &hostState{}
		ctx := context.WithValue(context.Background(), hostKey{}, st)
		if _, err := inst.Call(ctx, "hello"); err != nil {
			t.Fatal(err)
		}
		if len(st.writes) != 1 || st.writes[0] != "hello" {
			t.Errorf("host read %q, want [hello]", st.writes)
		}

		mem := inst.Memory()
		if mem == nil {
			t.Fatal("no memory")
		}
		if mem.Size() != 65536 {
			t.Errorf("Size = %d, want 65536", mem.Size())
		}
		// Read is a view: writes through it are seen by the guest, and
		// guest stores are seen through it.
		view, ok := mem.Read(100, 4)
		if !ok {
			t.Fatal("Read(100, 4) out of range")
		}
		copy(view, []byte{1, 2, 3, 4})
		if res, _ := inst.Call(ctx, "load", 100); res[0] != 0x04030201 {
			t.Errorf("guest loaded %#x after writing the view, want 0x04030201", res[0])
		}
		if _, err := inst.Call(ctx, "store", 100, 0xaabbccdd); err != nil {
			t.Fatal(err)
		}
		if view[0] != 0xdd || view[3] != 0xaa {
			t.Errorf("view %x does not alias guest memory", view)
		}
		if v, ok := mem.ReadUint32Le(100); !ok || v != 0xaabbccdd {
			t.Errorf("ReadUint32Le = %#x, %v", v, ok)
		}
		if !mem.WriteUint64Le(200, 0x1122334455667788) {
			t.Fatal("WriteUint64Le failed")
		}
		if v, ok := mem.ReadUint64Le(200); !ok || v != 0x1122334455667788 {
			t.Errorf("ReadUint64Le = %#x, %v", v, ok)
		}
		if !mem.Write(300, []byte("abc")) {
			t.Fatal("Write failed")
		}
		if b, _ := mem.Read(300, 3); string(b) != "abc" {
			t.Errorf("Read after Write = %q", b)
		}
		// Bounds.
		if _, ok := mem.Read(65535, 2); ok {
			t.Error("Read past the end succeeded")
		}
		if mem.WriteUint32Le(65534, 1) {
			t.Error("WriteUint32Le past the end succeeded")
		}
		if _, ok := mem.Read(65536, 0); !ok {
			t.Error("empty Read at the end failed")
		}
		// Growth is visible, and capped by the module's maximum (4 pages).
		if res, err := inst.Call(ctx, "grow", 2); err != nil || res[0] != 1 {
			t.Errorf("grow(2) = %v, %v; want 1", res, err)
		}
		if mem.Size() != 3*65536 {
			t.Errorf("Size after grow = %d", mem.Size())
		}
		if res, _ := inst.Call(ctx, "grow", 2); int32(res[0]) != -1 {
			t.Errorf("grow past the maximum = %d, want -1", int32(res[0]))
		}
		if inst := instantiate(t, e, "nomem.wasm"); inst.Memory() != nil {
			t.Error("a module without memory has a Memory")
		}
	})
}

func TestMemoryLimitPages(t *testing.T) {
	e := newEngine(t, Config{MemoryLimitPages: 2})
	inst := instantiate(t, e, "host.wasm")
	ctx := context.WithValue(context.Background(), hostKey{}, &hostState{})
	if res, _ := inst.Call(ctx, "grow", 1); res[0] != 1 {
		t.Errorf("grow(1) = %d, want 1", int32(res[0]))
	}
	if res, _ := inst.Call(ctx, "grow", 1); int32(res[0]) != -1 {
		t.Errorf("grow past MemoryLimitPages = %d, want -1", int32(res[0]))
	}
}

func TestGlobals(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		inst := instantiate(t, e, "host.wasm")
		ctx := context.Background()
		if v, ok := inst.Global("seven"); !ok || v != 7 {
			t.Errorf("seven = %d, %v", v, ok)
		}
		if inst.SetGlobal("seven", 8) {
			t.Error("SetGlobal on an immutable global succeeded")
		}
		if _, ok := inst.Global("nope"); ok {
			t.Error("Global of a missing name succeeded")
		}
		if inst.SetGlobal("nope", 1) {
			t.Error("SetGlobal of a missing name succeeded")
		}
		// _start did not run on Instantiate.
		if v, _ := inst.Global("counter"); v != 0 {
			t.Errorf("counter = %d before any call; did _start run?", v)
		}
		if !inst.SetGlobal("counter", 41) {
			t.Fatal("SetGlobal(counter) failed")
		}
		if res, err := inst.Call(ctx, "bump"); err != nil || res[0] != 42 {
			t.Errorf("bump = %v, %v; want 42", res, err)
		}
		if v, _ := inst.Global("counter"); v != 42 {
			t.Errorf("counter = %d, want 42", v)
		}
		if v, _ := inst.Global("f32"); math.Float32frombits(uint32(v)) != 1.5 {
			t.Errorf("f32 = %#x", v)
		}
		if v, _ := inst.Global("f64"); math.Float64frombits(v) != 2.5 {
			t.Errorf("f64 = %#x", v)
		}
		inst.SetGlobal("f64", math.Float64bits(-3))
		if v, _ := inst.Global("f64"); math.Float64frombits(v) != -3 {
			t.Errorf("f64 after SetGlobal = %v", math.Float64frombits(v))
		}
		if _, err := inst.Call(ctx, "_start"); err != nil {
			t.Fatal(err)
		}
		if v, _ := inst.Global("counter"); v != 100 {
			t.Errorf("counter = %d after _start, want 100", v)
		}
	})
}

func TestConcurrentInstances(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e *Engine) {
		m, err := e.Compile(context.Background(), readTestdata(t, "host.wasm"))
		if err != nil {
			t.Fatal(err)
		}
		const workers, rounds = 16, 20
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- func() error {
					st := &hostState{value: uint64(w)}
					ctx := context.WithValue(context.Background(), hostKey{}, st)
					inst, err := m.Instantiate(ctx)
					if err != nil {
						return err
					}
					defer inst.Close(ctx)
					for i := range rounds {
						if res, err := inst.Call(ctx, "bump"); err != nil || res[0] != uint64(i+1) {
							return fmt.Errorf("worker %d: bump = %v, %v", w, res, err)
						}
						if res, err := inst.Call(ctx, "fib", 15); err != nil || res[0] != 610 {
							return fmt.Errorf("worker %d: fib = %v, %v", w, res, err)
						}
						if res, err := inst.Call(ctx, "ctx_value"); err != nil || res[0] != uint64(w) {
							return fmt.Errorf("worker %d: ctx_value = %v, %v", w, res, err)
						}
						inst.Memory().WriteUint32Le(0, uint32(w))
						runtime.Gosched()
						if v, _ := inst.Memory().ReadUint32Le(0); v != uint32(w) {
							return fmt.Errorf("worker %d: memory shared with %d", w, v)
						}
					}
					return nil
				}()
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
	})
}

func TestOverlappingCalls(t *testing.T) {
	// Calls on one instance from several goroutines each get their own
	// call stack.
	e := newEngine(t, Config{})
	inst := instantiate(t, e, "host.wasm")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if res, err := inst.Call(context.Background(), "fib", 18); err != nil || res[0] != 2584 {
					t.Errorf("fib(18) = %v, %v", res, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestInvalidModule(t *testing.T) {
	valid := readTestdata(t, "host.wasm")
	tests := []struct {
		name string
		bin  []byte
	}{
		{"empty", nil},
		{"garbage", []byte("not a wasm module at all")},
		{"bad version", []byte{0, 'a', 's', 'm', 2, 0, 0, 0}},
		{"truncated", valid[:len(valid)/2]},
		{"invalid code", readInvalidCode(t)},
	}
	forEachEngine(t, func(t *testing.T, e *Engine) {
		for _, tt := range tests {
			_, err := e.Compile(context.Background(), tt.bin)
			if !errors.Is(err, wasm.ErrInvalidModule) {
				t.Errorf("%s: got %v, want an error wrapping ErrInvalidModule", tt.name, err)
			} else if strings.TrimSpace(strings.TrimPrefix(err.Error(), wasm.ErrInvalidModule.Error()+":")) == "" {
				t.Errorf("%s: error %q lacks wazero's message", tt.name, err)
			}
		}
		// A failed compilation is not memoized as a success.
		if _, err := e.Compile(context.Background(), tests[1].bin); !errors.Is(err, wasm.ErrInvalidModule) {
			t.Errorf("second compile of garbage: %v", err)
		}
	})
}

// readInvalidCode is a well-formed module whose only function fails
// validation: (func (result i32) (i64.const 0)).
func readInvalidCode(t testing.TB) []byte {
	return []byte{
		0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 5, 1, 0x60, 0, 1, 0x7f, // type: () -> i32
		3, 2, 1, 0, // func 0 has type 0
		10, 6, 1, 4, 0, 0x42, 0, 0x0b, // code: i64.const 0; end
	}
}

func TestInstantiateWithoutHost(t *testing.T) {
	e, err := New(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	m, err := e.Compile(context.Background(), readTestdata(t, "host.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Instantiate(context.Background()); err == nil {
		t.Fatal("instantiating with a missing host module succeeded")
	}
}

func TestBadHostModule(t *testing.T) {
	_, err := New(context.Background(), Config{HostModules: []wasm.HostModule{{
		Name:  "env",
		Funcs: []wasm.HostFunc{{Name: "f", Params: []wasm.ValueType{0x70}, Fn: func(context.Context, wasm.Memory, []uint64) {}}},
	}}})
	if err == nil {
		t.Fatal("New accepted a host function with a reference type parameter")
	}
}

func TestExports(t *testing.T) {
	e := newEngine(t, Config{})
	m, err := e.Compile(context.Background(), readTestdata(t, "nomem.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Exports(); len(got) != 1 || got[0] != "ctx_value" {
		t.Errorf("Exports = %q, want [ctx_value]", got)
	}
}

func TestCompileMemo(t *testing.T) {
	e := newEngine(t, Config{})
	ctx := context.Background()
	bin := readTestdata(t, "host.wasm")
	m1, err := e.Compile(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := e.Compile(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	m3, err := e.Compile(ctx, append([]byte(nil), bin...)) // same bytes, other slice
	if err != nil {
		t.Fatal(err)
	}
	c1, c2, c3 := m1.(*module).c, m2.(*module).c, m3.(*module).c
	if c1 != c2 || c1 != c3 {
		t.Error("compiling the same bytes again did not reuse the compilation")
	}
	// Changing the bytes behind the same slice must not return the old module.
	mutated := append([]byte(nil), bin...)
	if _, err := e.Compile(ctx, mutated); err != nil {
		t.Fatal(err)
	}
	copy(mutated, readTestdata(t, "nomem.wasm"))
	mutated = mutated[:len(readTestdata(t, "nomem.wasm"))]
	m4, err := e.Compile(ctx, mutated)
	if err != nil {
		t.Fatal(err)
	}
	if got := m4.Exports(); len(got) != 1 {
		t.Errorf("a rewritten buffer compiled to the old module: exports %q", got)
	}
}

// withCustomSection returns bin with a custom section appended, a different
// but equivalent module.
func withCustomSection(bin []byte, payload string) []byte {
	name := "x"
	body := append([]byte{byte(len(name))}, name...)
	body = append(body, payload...)
	out := append([]byte(nil), bin...)
	out = append(out, 0, byte(len(body)))
	return append(out, body...)
}

func TestCloseAndEviction(t *testing.T) {
	e := newEngine(t, Config{})
	ctx := context.Background()
	bin := readTestdata(t, "host.wasm")
	m, err := e.Compile(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := m.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Instantiate(ctx); err == nil {
		t.Error("Instantiate after Module.Close succeeded")
	}
	// The instance outlives its module handle.
	if res, err := inst.Call(ctx, "fib", 10); err != nil || res[0] != 55 {
		t.Errorf("fib after Module.Close = %v, %v", res, err)
	}
	if err := inst.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := inst.Call(ctx, "fib", 10); err == nil {
		t.Error("Call after Instance.Close succeeded")
	}

	// Unreferenced compilations stay memoized, up to maxIdleModules.
	first := m.(*module).c
	m, _ = e.Compile(ctx, bin)
	if m.(*module).c != first {
		t.Error("an idle compilation was not reused")
	}
	m.Close(ctx)
	for i := range maxIdleModules + 4 {
		m, err := e.Compile(ctx, withCustomSection(bin, fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		m.Close(ctx)
	}
	e.mu.Lock()
	n, idle := len(e.byHash), len(e.idle)
	e.mu.Unlock()
	if n != maxIdleModules || idle != maxIdleModules {
		t.Errorf("memo holds %d compilations (%d idle), want %d", n, idle, maxIdleModules)
	}
	if m, _ = e.Compile(ctx, bin); m.(*module).c == first {
		t.Error("the oldest idle compilation was not evicted")
	}

	// Engine.Close ends everything.
	inst, err = m.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(ctx); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := inst.Call(ctx, "fib", 10); err == nil {
		t.Error("Call after Engine.Close succeeded")
	}
	if _, err := e.Compile(ctx, bin); err == nil {
		t.Error("Compile after Engine.Close succeeded")
	}
}

func TestConcurrentCompile(t *testing.T) {
	e := newEngine(t, Config{})
	bin := helloWasm(t)
	var wg sync.WaitGroup
	mods := make([]wasm.Module, 4)
	for i := range mods {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := e.Compile(context.Background(), append([]byte(nil), bin...))
			if err != nil {
				t.Error(err)
				return
			}
			mods[i] = m
		}()
	}
	wg.Wait()
	for _, m := range mods[1:] {
		if m == nil || mods[0] == nil || m.(*module).c != mods[0].(*module).c {
			t.Fatal("concurrent compiles of the same bytes were not shared")
		}
	}
}

// runHello runs Go's hello world once and checks its output.
func runHello(tb testing.TB, m wasm.Module) {
	p := &testProc{args: []string{"hello"}}
	ctx := withTestProc(context.Background(), p)
	inst, err := m.Instantiate(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	_, err = inst.Call(ctx, "_start")
	var exit *wasm.ExitError
	if err != nil && (!errors.As(err, &exit) || exit.Code != 0) {
		tb.Fatalf("_start: %v (stderr %q)", err, p.stderr.String())
	}
	if got := p.stdout.String(); got != "hello, world\n" {
		tb.Fatalf("stdout = %q", got)
	}
	inst.Close(ctx)
}

func TestGoHello(t *testing.T) {
	bin := helloWasm(t)
	for _, tc := range engines {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := tc.cfg
			cfg.HostModules = []wasm.HostModule{testWASI()}
			e, err := New(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close(context.Background())
			m, err := e.Compile(context.Background(), bin)
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				runHello(t, m)
			}
		})
	}
}

func TestDiskCache(t *testing.T) {
	bin := helloWasm(t)
	dir := t.TempDir()
	compile := func() time.Duration {
		e, err := New(context.Background(), Config{CacheDir: dir, HostModules: []wasm.HostModule{testWASI()}})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close(context.Background())
		start := time.Now()
		m, err := e.Compile(context.Background(), bin)
		if err != nil {
			t.Fatal(err)
		}
		d := time.Since(start)
		runHello(t, m)
		return d
	}
	cold, warm := compile(), compile()
	t.Logf("compile: cold %v, from the disk cache %v", cold, warm)
	if entries, _ := os.ReadDir(dir); len(entries) == 0 {
		t.Error("the cache directory is empty")
	}
	if warm > cold/2 {
		t.Errorf("compiling from the disk cache took %v, cold %v", warm, cold)
	}
}
