// Package memsize rewrites a WebAssembly module so that an instance keeps
// its memory's size itself, and can so run in a memory larger than it has
// grown to: a recycled one.
//
// An engine that recycles the memory of a finished instance for the next
// instance of the same module (platform/hostwasm does) can only hand out a
// memory of the size the next instance expects. WebAssembly has no way to
// shrink a memory, so a memory that grew used to be dropped, and every
// process that grew its heap (most Go tools that read real input, and
// awk, gzip and jq at any size) started in fresh memory, whose pages the
// kernel faults in and zeroes one by one: about 3 ms a megabyte in V8 on
// the machines we measure, ten times the cost of the rest of a start.
//
// Apply gives the module a size of its own, a mutable i32 global that
// starts at the memory's initial page count, exported as SizeExport so
// that the engine can tell the instance's size too, and replaces
//
//	memory.size  by  call $size   (global.get of that size)
//	memory.grow  by  call $grow
//
// where $grow adds to the size, growing the real memory only when the new
// size passes it, and returns the old size, or -1 past the memory's
// maximum or when the real memory cannot grow, as memory.grow does. Pages
// between the instance's size and the real memory's are the engine's to
// keep zero. What a program sees of its memory's size is unchanged; what
// differs is that an access beyond that size but inside the real memory
// does not trap, so an engine must zero all of a recycled memory past the
// module's initial size, and hand it only to instances of the same module.
//
// The rewrite adds no instructions to a module's metering: apply it after
// instrumentation, so fuel counts stay the same on every engine.
package memsize

import (
	"errors"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// SizeExport is the name under which a rewritten module exports its
// memory's size in pages, a mutable i32 global.
const SizeExport = "wasmsand:memory.size"

// maxPages is the most pages a 32-bit memory can have.
const maxPages = 65536

// Apply returns bin rewritten as the package documentation describes, and
// true; or bin itself and false when the rewrite does not apply: the
// module must define its one memory (not import it), be a 32-bit memory,
// and have at least one memory.size or memory.grow (a module with neither
// never changes its memory's size, so needs no rewrite to run in a
// recycled one of its initial size).
func Apply(bin []byte) ([]byte, bool) {
	out, err := apply(bin)
	if err != nil {
		return bin, false
	}
	return out, true
}

var errNotApplicable = errors.New("memsize: not applicable")

func apply(bin []byte) ([]byte, error) {
	m, err := binary.Decode(bin)
	if err != nil {
		return nil, err
	}
	if len(m.Memories) != 1 || m.NumImported(binary.ExternMemory) != 0 || len(m.Codes) != len(m.Funcs) {
		return nil, errNotApplicable
	}
	for _, e := range m.Exports {
		if e.Name == SizeExport {
			return nil, errNotApplicable
		}
	}
	lim := m.Memories[0]
	max := uint32(maxPages)
	if lim.HasMax && lim.Max < max {
		max = lim.Max
	}
	if lim.Min > max {
		return nil, errNotApplicable
	}
	nFuncs := uint64(m.NumImported(binary.ExternFunc)) + uint64(len(m.Funcs))
	if nFuncs+2 > 1<<32-1 {
		return nil, errNotApplicable
	}
	sizeFn, growFn := uint32(nFuncs), uint32(nFuncs+1)
	global := m.NumImported(binary.ExternGlobal) + uint32(len(m.Globals))

	codes := make([]binary.Code, len(m.Codes))
	rewrote := false
	var r binary.Reader
	var in binary.Instr
	for i := range m.Codes {
		c := &m.Codes[i]
		codes[i] = *c
		var out []byte
		prev := 0
		r.Reset(c.Body, c.BodyOffset)
		for r.More() {
			if err := r.Next(&in); err != nil {
				return nil, err
			}
			var fn uint32
			switch in.Op {
			case binary.OpMemorySize:
				fn = sizeFn
			case binary.OpMemoryGrow:
				fn = growFn
			default:
				continue
			}
			if in.Index != 0 {
				return nil, errNotApplicable
			}
			if out == nil {
				out = make([]byte, 0, len(c.Body)+16)
			}
			out = append(out, c.Body[prev:in.Pos]...)
			out = append(out, byte(binary.OpCall))
			out = binary.AppendU32(out, fn)
			prev = in.End
		}
		if out != nil {
			codes[i].Body = append(out, c.Body[prev:]...)
			codes[i].BodyOffset = 0
			rewrote = true
		}
	}
	if !rewrote {
		return nil, errNotApplicable
	}
	m.Codes = codes

	init := binary.AppendS64([]byte{byte(binary.OpI32Const)}, int64(int32(lim.Min)))
	m.Globals = append(m.Globals, binary.Global{
		Type: binary.GlobalType{Type: binary.I32, Mutable: true},
		Init: append(init, byte(binary.OpEnd)),
	})
	m.Exports = append(m.Exports, binary.Export{Name: SizeExport, Kind: binary.ExternGlobal, Index: global})
	i32 := []binary.ValType{binary.I32}
	m.Funcs = append(m.Funcs,
		typeIndex(m, binary.FuncType{Results: i32}),
		typeIndex(m, binary.FuncType{Params: i32, Results: i32}))
	m.Codes = append(m.Codes,
		binary.Code{Body: sizeBody(global)},
		binary.Code{Locals: []binary.LocalDecl{{Count: 1, Type: binary.I64}}, Body: growBody(global, max)})
	return m.Encode(), nil
}

// typeIndex returns the index of ft in m's types, adding it if need be.
func typeIndex(m *binary.Module, ft binary.FuncType) uint32 {
	for i := range m.Types {
		if m.Types[i].Equal(ft) {
			return uint32(i)
		}
	}
	m.Types = append(m.Types, ft)
	return uint32(len(m.Types) - 1)
}

// sizeBody is $size: () -> i32, the instance's size in pages.
func sizeBody(global uint32) []byte {
	b := binary.AppendU32([]byte{byte(binary.OpGlobalGet)}, global)
	return append(b, byte(binary.OpEnd))
}

// growBody is $grow (param $n i32) (result i32) (local $new i64):
//
//	global.get $size  i64.extend_i32_u  local.get $n  i64.extend_i32_u
//	i64.add  local.tee $new  i64.const max  i64.gt_u
//	if  i32.const -1  return  end
//	local.get $new  memory.size  i64.extend_i32_u  i64.gt_u
//	if  ;; the real memory must grow by $new - memory.size pages
//	  local.get $new  i32.wrap_i64  memory.size  i32.sub  memory.grow
//	  i32.const -1  i32.eq
//	  if  i32.const -1  return  end
//	end
//	global.get $size  ;; the result: the old size
//	local.get $new  i32.wrap_i64  global.set $size
func growBody(global, max uint32) []byte {
	const n, newSize = 0, 1
	b := binary.AppendU32([]byte{byte(binary.OpGlobalGet)}, global)
	b = append(b, 0xad /* i64.extend_i32_u */, byte(binary.OpLocalGet), n, 0xad, 0x7c /* i64.add */, byte(binary.OpLocalTee), newSize)
	b = binary.AppendS64(append(b, byte(binary.OpI64Const)), int64(max))
	b = append(b, 0x56 /* i64.gt_u */, byte(binary.OpIf), 0x40, byte(binary.OpI32Const), 0x7f, byte(binary.OpReturn), byte(binary.OpEnd))
	b = append(b, byte(binary.OpLocalGet), newSize, byte(binary.OpMemorySize), 0, 0xad, 0x56,
		byte(binary.OpIf), 0x40,
		byte(binary.OpLocalGet), newSize, 0xa7 /* i32.wrap_i64 */, byte(binary.OpMemorySize), 0, 0x6b, /* i32.sub */
		byte(binary.OpMemoryGrow), 0, byte(binary.OpI32Const), 0x7f, 0x46, /* i32.eq */
		byte(binary.OpIf), 0x40, byte(binary.OpI32Const), 0x7f, byte(binary.OpReturn), byte(binary.OpEnd),
		byte(binary.OpEnd))
	b = binary.AppendU32(append(b, byte(binary.OpGlobalGet)), global)
	b = append(b, byte(binary.OpLocalGet), newSize, 0xa7, byte(binary.OpGlobalSet))
	b = binary.AppendU32(b, global)
	return append(b, byte(binary.OpEnd))
}
