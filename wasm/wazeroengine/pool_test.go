package wazeroengine

import (
	"context"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
)

// poolModule has a memory of 2 pages (at most 8), "hello" at 16 as its
// image, and exports peek(addr) → byte, poke(addr, byte) and grow(pages).
func poolModule() []byte {
	const end = 0x0b
	m := &binary.Module{
		Types: []binary.FuncType{
			{Params: []binary.ValType{binary.I32}, Results: []binary.ValType{binary.I32}},
			{Params: []binary.ValType{binary.I32, binary.I32}},
		},
		Funcs:    []uint32{0, 1, 0},
		Memories: []binary.Limits{{Min: 2, Max: 8, HasMax: true}},
		Exports: []binary.Export{
			{Name: "peek", Kind: binary.ExternFunc, Index: 0},
			{Name: "poke", Kind: binary.ExternFunc, Index: 1},
			{Name: "grow", Kind: binary.ExternFunc, Index: 2},
			{Name: "memory", Kind: binary.ExternMemory},
		},
		Codes: []binary.Code{
			{Body: []byte{0x20, 0, 0x2d, 0, 0, end}},          // i32.load8_u
			{Body: []byte{0x20, 0, 0x20, 1, 0x3a, 0, 0, end}}, // i32.store8
			{Body: []byte{0x20, 0, 0x40, 0, end}},             // memory.grow
		},
		Datas: []binary.Data{{Offset: []byte{0x41, 16, end}, Init: []byte("hello")}},
	}
	return m.Encode()
}

func poolCall(t *testing.T, inst wasm.Instance, name string, params ...uint64) uint64 {
	t.Helper()
	res, err := inst.Call(context.Background(), name, params...)
	if err != nil {
		t.Fatalf("%s%v: %v", name, params, err)
	}
	if len(res) > 0 {
		return res[0]
	}
	return 0
}

// scribble writes a marker over the image and around it.
var marks = []uint64{0, 15, 16, 18, 20, 21, 1000, 2*pageSize - 1}

func scribble(t *testing.T, inst wasm.Instance) {
	for _, a := range marks {
		poolCall(t, inst, "poke", a, 0xAB)
	}
}

// checkFresh verifies that inst sees the module's image and zeros.
func checkFresh(t *testing.T, inst wasm.Instance) {
	t.Helper()
	if n := inst.Memory().Size(); n != 2*pageSize {
		t.Fatalf("size %d", n)
	}
	for _, a := range marks {
		want := uint64(0)
		if a >= 16 && a < 21 {
			want = uint64("hello"[a-16])
		}
		if got := poolCall(t, inst, "peek", a); got != want {
			t.Errorf("byte %d = %#x, want %#x", a, got, want)
		}
	}
	b, _ := inst.Memory().Read(0, 2*pageSize)
	for i, c := range b {
		if (i < 16 || i >= 21) && c != 0 {
			t.Fatalf("byte %d = %#x, want 0", i, c)
		}
	}
}

func newPoolEngine(t *testing.T) (*Engine, wasm.Module) {
	t.Helper()
	e, err := New(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	m, err := e.Compile(context.Background(), poolModule())
	if err != nil {
		t.Fatal(err)
	}
	return e, m
}

func newInst(t *testing.T, m wasm.Module) *instance {
	t.Helper()
	inst, err := m.Instantiate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return inst.(*instance)
}

// A recycled memory is the very buffer of the closed instance, and the
// next process sees only the module's image: nothing process 1 wrote.
func TestMemoryRecycledClean(t *testing.T) {
	_, m := newPoolEngine(t)
	for round := range 3 {
		a := newInst(t, m)
		checkFresh(t, a)
		scribble(t, a)
		lm := a.lm
		a.Close(context.Background())

		b := newInst(t, m)
		if b.lm != lm {
			t.Fatalf("round %d: the closed instance's memory was not reused", round)
		}
		checkFresh(t, b)
		scribble(t, b)
		b.Close(context.Background())
	}
}

// A memory that grew is recycled cut back to the module's size: the next
// instance sees two pages, zero past the image, and grows into the kept
// capacity again with nothing of the last instance in it.
func TestMemoryRecycledGrown(t *testing.T) {
	_, m := newPoolEngine(t)
	a := newInst(t, m)
	scribble(t, a)
	if old := poolCall(t, a, "grow", 2); old != 2 {
		t.Fatalf("grow: %d", old)
	}
	poolCall(t, a, "poke", 3*pageSize+5, 0xAB)
	lm := a.lm
	a.Close(context.Background())
	b := newInst(t, m)
	if b.lm != lm {
		t.Fatal("a grown memory was not reused")
	}
	checkFresh(t, b)
	if got := b.Memory().Size(); got != 2*pageSize {
		t.Fatalf("the reused memory has %d bytes, want the module's 2 pages", got)
	}
	if old := poolCall(t, b, "grow", 2); old != 2 {
		t.Fatalf("grow in the reused memory: %d", old)
	}
	if got := poolCall(t, b, "peek", 3*pageSize+5); got != 0 {
		t.Fatalf("the last instance's byte %#x is back after grow", got)
	}
	b.Close(context.Background())
}

func TestMemoryNotRecycled(t *testing.T) {
	_, m := newPoolEngine(t)
	b := newInst(t, m)

	// A memory closed while a call runs in it stays with that call.
	scribble(t, b)
	b.running.Add(1) // as if a Call were still running
	lm := b.lm
	b.Close(context.Background())
	b.running.Add(-1)
	c := newInst(t, m)
	if c.lm == lm {
		t.Fatal("a memory still in use was reused")
	}
	checkFresh(t, c)
	if _, err := b.Call(context.Background(), "peek", 0); err == nil {
		t.Error("Call on a closed instance succeeded")
	}
	c.Close(context.Background())
}

func TestMemoryPoolBounds(t *testing.T) {
	e, m := newPoolEngine(t)
	var insts []*instance
	for range maxPooledPerModule + 3 {
		insts = append(insts, newInst(t, m))
	}
	for _, inst := range insts {
		scribble(t, inst)
		inst.Close(context.Background())
	}
	p := m.(*module).c.pool
	if len(p.free) != maxPooledPerModule {
		t.Fatalf("%d memories pooled, want %d", len(p.free), maxPooledPerModule)
	}
	if got, want := e.poolBytes.Load(), int64(maxPooledPerModule*cap(p.free[0].buf)); got != want {
		t.Fatalf("poolBytes %d, want %d", got, want)
	}
	for range maxPooledPerModule + 1 {
		inst := newInst(t, m)
		checkFresh(t, inst)
		defer inst.Close(context.Background())
	}
	if e.poolBytes.Load() != 0 {
		t.Fatalf("poolBytes %d with the pool empty", e.poolBytes.Load())
	}
	// Closing the engine drops the pool.
	e.Close(context.Background())
	if len(p.free) != 0 || e.poolBytes.Load() != 0 {
		t.Fatalf("after Close: %d pooled, %d bytes", len(p.free), e.poolBytes.Load())
	}
}

// wazero's own allocator stays selectable and the pool is then unused.
func TestMemoryPoolOff(t *testing.T) {
	e, m := newPoolEngine(t)
	e.ownAlloc = false
	a := newInst(t, m)
	scribble(t, a)
	a.Close(context.Background())
	b := newInst(t, m)
	checkFresh(t, b)
	b.Close(context.Background())
}

// Instances of one module started and closed from many goroutines each
// see a clean memory, and no memory is shared by two live instances.
func TestMemoryPoolConcurrent(t *testing.T) {
	_, m := newPoolEngine(t)
	var mu sync.Mutex
	live := map[*linearMemory]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 25 {
				inst, err := m.Instantiate(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				in := inst.(*instance)
				mu.Lock()
				if live[in.lm] {
					t.Error("a memory was handed to two live instances")
				}
				live[in.lm] = true
				mu.Unlock()
				for _, a := range marks {
					want := uint64(0)
					if a >= 16 && a < 21 {
						want = uint64("hello"[a-16])
					}
					res, err := in.Call(context.Background(), "peek", a)
					if err != nil || res[0] != want {
						t.Errorf("byte %d = %v (%v), want %#x", a, res, err, want)
					}
					if _, err := in.Call(context.Background(), "poke", a, 0xAB); err != nil {
						t.Error(err)
					}
				}
				mu.Lock()
				delete(live, in.lm)
				mu.Unlock()
				in.Close(context.Background())
			}
		})
	}
	wg.Wait()
}
