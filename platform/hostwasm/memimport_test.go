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

func TestImportMemory(t *testing.T) {
	for _, lim := range []binary.Limits{{Min: 1}, {Min: 2, Max: 300, HasMax: true}} {
		src := memModule(lim)
		bin := src.Encode()
		m, err := binary.Decode(bin)
		if err != nil {
			t.Fatal(err)
		}
		out, got, err := importMemory(bin, m)
		if err != nil {
			t.Fatalf("%+v: %v", lim, err)
		}
		if got != lim {
			t.Errorf("limits %+v, want %+v", got, lim)
		}
		m2, err := binary.Decode(out)
		if err != nil {
			t.Fatalf("%+v: the rewritten module does not decode: %v", lim, err)
		}
		if len(m2.Memories) != 0 || len(m2.Imports) != 2 {
			t.Fatalf("%+v: %d memories, %d imports", lim, len(m2.Memories), len(m2.Imports))
		}
		want := binary.Import{Module: memImportModule, Name: memImportName, Kind: binary.ExternMemory, Memory: lim}
		if m2.Imports[0] != src.Imports[0] || m2.Imports[1] != want {
			t.Errorf("%+v: imports %+v", lim, m2.Imports)
		}
		// Everything else is the same module: encoding the expected
		// module gives the same bytes.
		src.Memories = nil
		src.Imports = append(src.Imports, want)
		if !bytes.Equal(out, src.Encode()) {
			t.Errorf("%+v: the rewritten module differs from the expected one", lim)
		}

		// And it runs: wazero links the import to a module exporting a
		// memory of those limits, whose data segment it fills.
		ctx := context.Background()
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
		defer rt.Close(ctx)
		if _, err := rt.NewHostModuleBuilder("env").NewFunctionBuilder().WithFunc(func() {}).Export("nop").Instantiate(ctx); err != nil {
			t.Fatal(err)
		}
		provider := &binary.Module{Memories: []binary.Limits{lim}, Exports: []binary.Export{{Name: memImportName, Kind: binary.ExternMemory}}}
		if _, err := rt.InstantiateWithConfig(ctx, provider.Encode(), wazero.NewModuleConfig().WithName(memImportModule)); err != nil {
			t.Fatal(err)
		}
		inst, err := rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithName("guest"))
		if err != nil {
			t.Fatalf("%+v: instantiating the rewritten module: %v", lim, err)
		}
		for k, c := range []byte("hello\x00") {
			r, err := inst.ExportedFunction("peek").Call(ctx, uint64(16+k))
			if err != nil || byte(r[0]) != c {
				t.Errorf("%+v: peek(%d) = %v, %v; want %q", lim, 16+k, r, err, c)
			}
		}
		if size := inst.ExportedMemory("memory").Size(); size != lim.Min<<16 {
			t.Errorf("%+v: memory of %d bytes", lim, size)
		}
	}
}

func TestImportMemoryRefuses(t *testing.T) {
	noMem := memModule(binary.Limits{Min: 1})
	noMem.Memories, noMem.Datas, noMem.Exports = nil, nil, noMem.Exports[:1]
	noMem.Codes[0].Body = []byte{0x20, 0, 0x0b}
	twoImports := memModule(binary.Limits{Min: 1})
	twoImports.Memories = nil
	twoImports.Imports = append(twoImports.Imports, binary.Import{Module: "env", Name: "memory", Kind: binary.ExternMemory, Memory: binary.Limits{Min: 1}})
	noImports := memModule(binary.Limits{Min: 1})
	noImports.Imports = nil
	for name, m := range map[string]*binary.Module{"no memory": noMem, "imported memory": twoImports, "no import section": noImports} {
		bin := m.Encode()
		dm, err := binary.Decode(bin)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, _, err := importMemory(bin, dm); !errors.Is(err, errNoMemoryImport) {
			t.Errorf("%s: err = %v, want errNoMemoryImport", name, err)
		}
	}
}
