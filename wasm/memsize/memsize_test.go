package memsize

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// testModule has a memory of 1 page (at most max, or unbounded when max is
// 0) and exports
//
//	size() -> i32      memory.size
//	grow(n) -> i32     memory.grow
//	poke(a, v)         i32.store8
//	peek(a) -> i32     i32.load8_u
func testModule(max uint32) *binary.Module {
	i32 := binary.I32
	m := &binary.Module{
		Types: []binary.FuncType{
			{Results: []binary.ValType{i32}},                                // 0: () -> i32
			{Params: []binary.ValType{i32}, Results: []binary.ValType{i32}}, // 1: (i32) -> i32
			{Params: []binary.ValType{i32, i32}},                            // 2: (i32, i32)
		},
		Memories: []binary.Limits{{Min: 1, Max: max, HasMax: max > 0}},
	}
	add := func(name string, typ uint32, body ...byte) {
		m.Exports = append(m.Exports, binary.Export{Name: name, Kind: binary.ExternFunc, Index: uint32(len(m.Funcs))})
		m.Funcs = append(m.Funcs, typ)
		m.Codes = append(m.Codes, binary.Code{Body: append(body, byte(binary.OpEnd))})
	}
	add("size", 0, 0x3f, 0)
	add("grow", 1, 0x20, 0, 0x40, 0)
	add("poke", 2, 0x20, 0, 0x20, 1, 0x3a, 0, 0) // i32.store8 align=0 offset=0
	add("peek", 1, 0x20, 0, 0x2d, 0, 0)          // i32.load8_u
	m.Exports = append(m.Exports, binary.Export{Name: "memory", Kind: binary.ExternMemory})
	return m
}

// withRealGrow adds to bin (a rewritten module) an export realgrow(n)
// that grows the real memory, as a recycled memory would have grown.
func withRealGrow(t *testing.T, bin []byte) []byte {
	t.Helper()
	m, err := binary.Decode(bin)
	if err != nil {
		t.Fatal(err)
	}
	m.Exports = append(m.Exports, binary.Export{Name: "realgrow", Kind: binary.ExternFunc, Index: m.NumImported(binary.ExternFunc) + uint32(len(m.Funcs))})
	m.Funcs = append(m.Funcs, 1)
	m.Codes = append(m.Codes, binary.Code{Body: []byte{0x20, 0, 0x40, 0, byte(binary.OpEnd)}})
	return m.Encode()
}

func instantiate(t *testing.T, bin []byte) api.Module {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	t.Cleanup(func() { rt.Close(ctx) })
	mod, err := rt.Instantiate(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

func call(t *testing.T, mod api.Module, name string, args ...uint64) int32 {
	t.Helper()
	r, err := mod.ExportedFunction(name).Call(context.Background(), args...)
	if err != nil {
		t.Fatalf("%s%v: %v", name, args, err)
	}
	if len(r) == 0 {
		return 0
	}
	return int32(r[0])
}

// The rewritten module answers every sequence of size and grow as the
// original does, up to and past its maximum.
func TestSameAnswers(t *testing.T) {
	for _, max := range []uint32{0, 1, 10} {
		bin := testModule(max).Encode()
		out, ok := Apply(bin)
		if !ok {
			t.Fatalf("max %d: Apply did not apply", max)
		}
		a, b := instantiate(t, bin), instantiate(t, out)
		for _, n := range []uint64{0, 1, 3, 100, 5, 0, 70000, 1 << 31, 1<<32 - 1, 2} {
			if x, y := call(t, a, "grow", n), call(t, b, "grow", n); x != y {
				t.Errorf("max %d: grow(%d) = %d, rewritten %d", max, n, x, y)
			}
			if x, y := call(t, a, "size"), call(t, b, "size"); x != y {
				t.Errorf("max %d: size = %d, rewritten %d", max, x, y)
			}
		}
	}
}

// In a memory larger than its own size, an instance sees its own size,
// grows into the real memory's pages without growing it, and grows the
// real memory only past them; the maximum still holds.
func TestLargerMemory(t *testing.T) {
	out, ok := Apply(testModule(10).Encode())
	if !ok {
		t.Fatal("Apply did not apply")
	}
	mod := instantiate(t, withRealGrow(t, out))
	real := func() uint32 { return mod.ExportedMemory("memory").Size() >> 16 }
	if old := call(t, mod, "realgrow", 3); old != 1 || real() != 4 {
		t.Fatalf("realgrow(3) = %d, real size %d", old, real())
	}
	if got := call(t, mod, "size"); got != 1 {
		t.Fatalf("size in a 4-page memory = %d, want the instance's 1", got)
	}
	exported := func() uint64 { return mod.ExportedGlobal(SizeExport).Get() }
	if got := exported(); got != 1 {
		t.Fatalf("%s = %d, want 1", SizeExport, got)
	}
	if old := call(t, mod, "grow", 2); old != 1 || call(t, mod, "size") != 3 || real() != 4 {
		t.Fatalf("grow(2) = %d: size %d, real %d; want 1: 3, 4", old, call(t, mod, "size"), real())
	}
	call(t, mod, "poke", 3<<16-1, 7)
	if got := call(t, mod, "peek", 3<<16-1); got != 7 {
		t.Fatalf("peek = %d", got)
	}
	if old := call(t, mod, "grow", 3); old != 3 || call(t, mod, "size") != 6 || real() != 6 {
		t.Fatalf("grow(3) = %d: size %d, real %d; want 3: 6, 6", old, call(t, mod, "size"), real())
	}
	if old := call(t, mod, "grow", 5); old != -1 || call(t, mod, "size") != 6 || real() != 6 {
		t.Fatalf("grow(5) past the maximum = %d: size %d, real %d; want -1: 6, 6", old, call(t, mod, "size"), real())
	}
	if old := call(t, mod, "grow", 4); old != 6 || real() != 10 || exported() != 10 {
		t.Fatalf("grow(4) to the maximum = %d, real %d, %s %d", old, real(), SizeExport, exported())
	}
}

func TestNotApplicable(t *testing.T) {
	noOps := testModule(0)
	noOps.Codes[0].Body = []byte{0x41, 1, byte(binary.OpEnd)} // size: i32.const 1
	noOps.Codes[1].Body = []byte{0x20, 0, byte(binary.OpEnd)} // grow: local.get 0
	imported := testModule(0)
	imported.Memories = nil
	imported.Imports = []binary.Import{{Module: "env", Name: "memory", Kind: binary.ExternMemory, Memory: binary.Limits{Min: 1}}}
	imported.Exports = imported.Exports[:4]
	clash := testModule(0)
	clash.Exports[0].Name = SizeExport
	for name, bin := range map[string][]byte{
		"an export named SizeExport": clash.Encode(),
		"no memory instruction":      noOps.Encode(),
		"imported memory":            imported.Encode(),
		"not wasm":                   []byte("\x00asm\x01\x00\x00\x00\x05"),
	} {
		if out, ok := Apply(bin); ok || &out[0] != &bin[0] {
			t.Errorf("%s: Apply applied", name)
		}
	}
}
