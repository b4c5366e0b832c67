package lazytable

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// testModule builds a module whose table holds, from tableOffset on, n
// functions each returning its own number k, and exports
//
//	call(i) -> i32   call_indirect of table entry i
//	twice(i) -> i32  the same through two call_indirects, plus a call
//
// The table has 8 more slots than the segment fills.
func testModule(n int, tableOffset uint32, edit func(*binary.Module)) []byte {
	i32 := binary.I32
	m := &binary.Module{
		Types: []binary.FuncType{
			{Results: []binary.ValType{i32}},                                // 0: () -> i32
			{Params: []binary.ValType{i32}, Results: []binary.ValType{i32}}, // 1: (i32) -> i32
		},
		Tables: []binary.TableType{{Elem: binary.FuncRef, Limits: binary.Limits{Min: tableOffset + uint32(n) + 8}}},
	}
	seg := binary.Element{Offset: binary.AppendS64([]byte{byte(binary.OpI32Const)}, int64(tableOffset))}
	seg.Offset = append(seg.Offset, byte(binary.OpEnd))
	for k := range n {
		m.Funcs = append(m.Funcs, 0)
		body := binary.AppendS64([]byte{byte(binary.OpI32Const)}, int64(k))
		m.Codes = append(m.Codes, binary.Code{Body: append(body, byte(binary.OpEnd))})
		seg.Funcs = append(seg.Funcs, uint32(k))
	}
	m.Elements = []binary.Element{seg}
	// call: local.get 0; call_indirect (type 0) 0
	m.Funcs = append(m.Funcs, 1)
	m.Codes = append(m.Codes, binary.Code{Body: []byte{0x20, 0, 0x11, 0, 0, 0x0b}})
	m.Exports = append(m.Exports, binary.Export{Name: "call", Kind: binary.ExternFunc, Index: uint32(n)})
	// twice: (call_indirect i) + (call $call i) + (call_indirect i), with
	// a local of its own to check the new local's index.
	m.Funcs = append(m.Funcs, 1)
	body := []byte{0x20, 0, 0x11, 0, 0, 0x21, 1, 0x20, 0, 0x10}
	body = binary.AppendU32(body, uint32(n))
	body = append(body, 0x20, 1, 0x6a, 0x20, 0, 0x11, 0, 0, 0x6a, 0x0b)
	m.Codes = append(m.Codes, binary.Code{Locals: []binary.LocalDecl{{Count: 1, Type: i32}}, Body: body})
	m.Exports = append(m.Exports, binary.Export{Name: "twice", Kind: binary.ExternFunc, Index: uint32(n + 1)})
	if edit != nil {
		edit(m)
	}
	return m.Encode()
}

// outcome is what calling name(arg) gives: a value or a trap.
type outcome struct {
	v    uint64
	trap bool
}

func run(t *testing.T, bin []byte, calls [][2]uint64) []outcome {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	cm, err := rt.CompileModule(ctx, bin)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	mod, err := rt.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		t.Fatalf("instantiate: %v", err)
	}
	var out []outcome
	for _, c := range calls {
		name := "call"
		if c[0] == 1 {
			name = "twice"
		}
		res, err := mod.ExportedFunction(name).Call(ctx, c[1])
		if err != nil {
			if !strings.Contains(err.Error(), "table") && !strings.Contains(err.Error(), "indirect call") {
				t.Fatalf("%s(%d): unexpected error %v", name, c[1], err)
			}
			out = append(out, outcome{trap: true})
			continue
		}
		out = append(out, outcome{v: res[0]})
	}
	return out
}

func TestApplyKeepsBehaviour(t *testing.T) {
	const n, off = 600, 10
	bin := testModule(n, off, nil)
	lazy := Apply(bin)
	if bytes.Equal(lazy, bin) {
		t.Fatal("Apply left a module it applies to unchanged")
	}
	m, err := binary.Decode(lazy)
	if err != nil {
		t.Fatal(err)
	}
	if e := m.Elements[0]; e.Mode != binary.SegmentDeclarative || len(e.Funcs) != n {
		t.Fatalf("segment after Apply: mode %v, %d functions", e.Mode, len(e.Funcs))
	}
	// Every kind of index, several times over (filled, then already
	// there), through both call sites.
	var calls [][2]uint64
	for _, i := range []uint64{off, off + 1, off + 599, off + 1, off, 0, 9, off + 600, off + 607, off + 608, 1 << 31, 1<<32 - 1, off + 300} {
		calls = append(calls, [2]uint64{0, i}, [2]uint64{1, i}, [2]uint64{0, i})
	}
	want := run(t, bin, calls)
	got := run(t, lazy, calls)
	for k := range calls {
		if got[k] != want[k] {
			t.Errorf("call %v: got %+v, want %+v", calls[k], got[k], want[k])
		}
	}
	if want[0] != (outcome{v: 0}) || want[6] != (outcome{v: 599}) || !want[15].trap {
		t.Errorf("the test module does not do what it should: %+v", want)
	}
}

func TestApplyDeclines(t *testing.T) {
	tests := map[string][]byte{
		"small segment": testModule(MinEntries-1, 0, nil),
		"exported table": testModule(MinEntries, 0, func(m *binary.Module) {
			m.Exports = append(m.Exports, binary.Export{Name: "t", Kind: binary.ExternTable})
		}),
		"two segments": testModule(MinEntries, 0, func(m *binary.Module) {
			m.Elements = append(m.Elements, m.Elements[0])
		}),
		"table.size": testModule(MinEntries, 0, func(m *binary.Module) {
			m.Codes[0].Body = []byte{0xfc, 16, 0, 0x0b}
		}),
		"table.get": testModule(MinEntries, 0, func(m *binary.Module) {
			m.Codes[0].Body = []byte{0x41, 0, 0x25, 0, 0xd1, 0x0b}
		}),
		"segment past the table": testModule(MinEntries, 0, func(m *binary.Module) {
			m.Tables[0].Limits.Min = MinEntries - 1
		}),
		"offset not a constant": testModule(MinEntries, 0, func(m *binary.Module) {
			m.Elements[0].Offset = []byte{0x23, 0, 0x0b}
		}),
		"not a module": []byte("\x00asm\x01\x00\x00\x00\x01"),
	}
	for name, bin := range tests {
		if got := Apply(bin); !bytes.Equal(got, bin) {
			t.Errorf("%s: Apply changed the module", name)
		}
	}
	// Applied twice, the second time changes nothing.
	once := Apply(testModule(MinEntries, 3, nil))
	if twice := Apply(once); !bytes.Equal(twice, once) {
		t.Error("Apply changed a module it had already rewritten")
	}
}
