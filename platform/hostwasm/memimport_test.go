package hostwasm

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// memModule is a module with one function import, one memory (limits
// lim), a data segment "hello" at 16 and an export peek(addr) → byte.
func memModule(lim binary.Limits) *binary.Module {
	const end = 0x0b
	return &binary.Module{
		Types: []binary.FuncType{
			{Params: []binary.ValType{binary.I32}, Results: []binary.ValType{binary.I32}},
			{},
		},
		Imports:  []binary.Import{{Module: "env", Name: "nop", Kind: binary.ExternFunc, Func: 1}},
		Funcs:    []uint32{0},
		Memories: []binary.Limits{lim},
		Exports: []binary.Export{
			{Name: "peek", Kind: binary.ExternFunc, Index: 1},
			{Name: "memory", Kind: binary.ExternMemory},
		},
		Codes:   []binary.Code{{Body: []byte{0x20, 0, 0x2d, 0, 0, end}}}, // i32.load8_u
		Datas:   []binary.Data{{Offset: []byte{0x41, 16, end}, Init: []byte("hello")}},
		Customs: []binary.Custom{{Name: "note", Data: []byte("kept")}},
	}
}

// withTable adds to m a funcref table of limits lim whose element segment
// puts seven (a function returning 7) at index 2, and an export
// callAt(i) that calls table entry i with argument 0.
func withTable(m *binary.Module, lim binary.Limits) *binary.Module {
	const end = 0x0b
	m.Tables = []binary.TableType{{Elem: binary.FuncRef, Limits: lim}}
	seven := uint32(len(m.Imports) + len(m.Funcs))
	m.Funcs = append(m.Funcs, 0, 0)
	m.Codes = append(m.Codes,
		binary.Code{Body: []byte{0x41, 7, end}},                      // seven: i32.const 7
		binary.Code{Body: []byte{0x41, 0, 0x20, 0, 0x11, 0, 0, end}}, // callAt: call_indirect (type 0) table 0
	)
	m.Exports = append(m.Exports, binary.Export{Name: "callAt", Kind: binary.ExternFunc, Index: seven + 1})
	m.Elements = []binary.Element{{Flags: 0, Mode: binary.SegmentActive, Offset: []byte{0x41, 2, end}, Funcs: []uint32{seven}}}
	return m
}

func TestImportDefs(t *testing.T) {
	lims := []binary.Limits{{Min: 1}, {Min: 2, Max: 300, HasMax: true}}
	tables := []binary.Limits{{Min: 4}, {Min: 3, Max: 10, HasMax: true}}
	for _, c := range []struct {
		name       string
		mem, table *binary.Limits
	}{
		{"memory", &lims[0], nil},
		{"memory with a maximum", &lims[1], nil},
		{"memory and table", &lims[0], &tables[0]},
		{"memory and table with maxima", &lims[1], &tables[1]},
		{"table", nil, &tables[0]},
	} {
		src := memModule(binary.Limits{Min: 1})
		if c.mem != nil {
			src.Memories[0] = *c.mem
		} else {
			src.Memories, src.Datas, src.Exports = nil, nil, src.Exports[:1]
			src.Codes[0].Body = []byte{0x20, 0, 0x0b}
		}
		if c.table != nil {
			withTable(src, *c.table)
		}
		bin := src.Encode()
		m, err := binary.Decode(bin)
		if err != nil {
			t.Fatal(err)
		}
		out, h, err := importDefs(bin, m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if (h.mem == nil) != (c.mem == nil) || h.mem != nil && *h.mem != *c.mem {
			t.Errorf("%s: memory %+v, want %+v", c.name, h.mem, c.mem)
		}
		if (h.table == nil) != (c.table == nil) || h.table != nil && *h.table != (binary.TableType{Elem: binary.FuncRef, Limits: *c.table}) {
			t.Errorf("%s: table %+v, want %+v", c.name, h.table, c.table)
		}
		// Everything else is the same module: encoding the expected
		// module gives the same bytes.
		want := *src
		want.Imports = append([]binary.Import(nil), src.Imports...)
		if c.mem != nil {
			want.Memories = nil
			want.Imports = append(want.Imports, binary.Import{Module: memImportModule, Name: memImportName, Kind: binary.ExternMemory, Memory: *c.mem})
		}
		if c.table != nil {
			want.Tables = nil
			want.Imports = append(want.Imports, binary.Import{Module: memImportModule, Name: tableImportName, Kind: binary.ExternTable, Table: *h.table})
		}
		if !bytes.Equal(out, want.Encode()) {
			t.Errorf("%s: the rewritten module differs from the expected one", c.name)
		}
		if _, err := binary.Decode(out); err != nil {
			t.Fatalf("%s: the rewritten module does not decode: %v", c.name, err)
		}

		// And it runs: wazero links the imports to a module exporting a
		// memory and a table of those limits, which the data and element
		// segments fill.
		ctx := context.Background()
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
		defer rt.Close(ctx)
		if _, err := rt.NewHostModuleBuilder("env").NewFunctionBuilder().WithFunc(func() {}).Export("nop").Instantiate(ctx); err != nil {
			t.Fatal(err)
		}
		provider := &binary.Module{}
		if c.mem != nil {
			provider.Memories = []binary.Limits{*c.mem}
			provider.Exports = append(provider.Exports, binary.Export{Name: memImportName, Kind: binary.ExternMemory})
		}
		if c.table != nil {
			provider.Tables = []binary.TableType{*h.table}
			provider.Exports = append(provider.Exports, binary.Export{Name: tableImportName, Kind: binary.ExternTable})
		}
		if _, err := rt.InstantiateWithConfig(ctx, provider.Encode(), wazero.NewModuleConfig().WithName(memImportModule)); err != nil {
			t.Fatal(err)
		}
		inst, err := rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithName("guest"))
		if err != nil {
			t.Fatalf("%s: instantiating the rewritten module: %v", c.name, err)
		}
		if c.mem != nil {
			for k, ch := range []byte("hello\x00") {
				r, err := inst.ExportedFunction("peek").Call(ctx, uint64(16+k))
				if err != nil || byte(r[0]) != ch {
					t.Errorf("%s: peek(%d) = %v, %v; want %q", c.name, 16+k, r, err, ch)
				}
			}
			if size := inst.ExportedMemory("memory").Size(); size != c.mem.Min<<16 {
				t.Errorf("%s: memory of %d bytes", c.name, size)
			}
		}
		if c.table != nil {
			if r, err := inst.ExportedFunction("callAt").Call(ctx, 2); err != nil || r[0] != 7 {
				t.Errorf("%s: callAt(2) = %v, %v; want 7", c.name, r, err)
			}
			if _, err := inst.ExportedFunction("callAt").Call(ctx, 1); err == nil {
				t.Errorf("%s: callAt(1), a null entry, did not trap", c.name)
			}
		}
	}
}

func TestImportDefsRefuses(t *testing.T) {
	noMem := memModule(binary.Limits{Min: 1})
	noMem.Memories, noMem.Datas, noMem.Exports = nil, nil, noMem.Exports[:1]
	noMem.Codes[0].Body = []byte{0x20, 0, 0x0b}
	externTable := memModule(binary.Limits{Min: 1})
	externTable.Memories, externTable.Datas, externTable.Exports = nil, nil, externTable.Exports[:1]
	externTable.Codes[0].Body = []byte{0x20, 0, 0x0b}
	externTable.Tables = []binary.TableType{{Elem: binary.ExternRef, Limits: binary.Limits{Min: 1}}}
	twoImports := memModule(binary.Limits{Min: 1})
	twoImports.Memories = nil
	twoImports.Imports = append(twoImports.Imports, binary.Import{Module: "env", Name: "memory", Kind: binary.ExternMemory, Memory: binary.Limits{Min: 1}})
	noImports := memModule(binary.Limits{Min: 1})
	noImports.Imports = nil
	noImportsTable := withTable(memModule(binary.Limits{Min: 1}), binary.Limits{Min: 4})
	noImportsTable.Imports = nil
	for name, m := range map[string]*binary.Module{
		"no memory or table": noMem, "an externref table": externTable, "imported memory": twoImports,
		"no import section": noImports, "no import section, a table": noImportsTable,
	} {
		bin := m.Encode()
		dm, err := binary.Decode(bin)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, _, err := importDefs(bin, dm); !errors.Is(err, errNoMemoryImport) {
			t.Errorf("%s: err = %v, want errNoMemoryImport", name, err)
		}
	}
}
