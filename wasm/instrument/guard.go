package instrument

import (
	"math"
	"strconv"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// Names of what the determinism and snapshot options add to a module.
const (
	// DepthGlobal is the exported mutable i32 global holding the current
	// call depth (Options.MaxCallDepth).
	DepthGlobal = "wasmsand_depth"
	// GrowFailuresGlobal is the exported mutable i32 global counting the
	// memory.grow instructions that returned -1 (Options.CountFailedGrows).
	GrowFailuresGlobal = "wasmsand_grow_failures"
	// GlobalPrefix followed by a global's decimal index names the export of
	// each of the module's own mutable globals (Options.ExportState).
	GlobalPrefix = "wasmsand_global_"
	// MemoryExport is the name memory 0 is exported under
	// (Options.ExportState).
	MemoryExport = "memory"
	// GrowFunc is an exported function (i32) -> i32 doing memory.grow on
	// memory 0, so the host can give a fresh instance the memory size of a
	// snapshot (Options.ExportState).
	GrowFunc = "wasmsand_memory_grow"
)

// Canonical NaNs: quiet, positive, zero payload. Options.CanonicalNaN makes
// every NaN produced by a float operation one of these.
const (
	CanonicalNaN32 uint32 = 0x7fc00000
	CanonicalNaN64 uint64 = 0x7ff8000000000000
)

// GlobalExportName is the name Options.ExportState exports the mutable
// global with index idx under.
func GlobalExportName(idx uint32) string {
	return GlobalPrefix + strconv.FormatUint(uint64(idx), 10)
}

// scratch value kinds for the NaN and grow rewrites
const (
	sNone uint8 = iota
	sF32
	sF64
	sV32 // v128 seen as f32x4
	sV64 // v128 seen as f64x2
)

// nanOps maps one-byte float opcodes whose result may be a NaN with an
// engine-dependent payload to the type of that result. abs, neg, copysign
// and reinterpretations only move bits and are left alone.
var nanOps = func() (t [256]uint8) {
	for op := 0x8d; op <= 0x97; op++ { // f32 ceil … max
		t[op] = sF32
	}
	for op := 0x9b; op <= 0xa5; op++ { // f64 ceil … max
		t[op] = sF64
	}
	t[0xb6] = sF32 // f32.demote_f64
	t[0xbb] = sF64 // f64.promote_f32
	return t
}()

// simdNaNOps does the same for 0xfd sub-opcodes.
var simdNaNOps = map[uint32]uint8{
	0x67: sV32, 0x68: sV32, 0x69: sV32, 0x6a: sV32, // f32x4 ceil floor trunc nearest
	0xe3: sV32, 0xe4: sV32, 0xe5: sV32, 0xe6: sV32, 0xe7: sV32, 0xe8: sV32, 0xe9: sV32, // sqrt add sub mul div min max
	0x5e: sV32,                                     // f32x4.demote_f64x2_zero
	0x74: sV64, 0x75: sV64, 0x7a: sV64, 0x94: sV64, // f64x2 ceil floor trunc nearest
	0xef: sV64, 0xf0: sV64, 0xf1: sV64, 0xf2: sV64, 0xf3: sV64, 0xf4: sV64, 0xf5: sV64,
	0x5f: sV64, // f64x2.promote_low_f32x4
}

// guarded reports whether opts asks for the rewrites done by guard.
func (opts *Options) guarded() bool {
	return opts.CanonicalNaN || opts.RejectRelaxedSIMD || opts.MaxCallDepth > 0 ||
		opts.CountFailedGrows || opts.ExportState
}

// guard applies the determinism and snapshot options to every function
// body (after fuel metering, whose instructions it sees as ordinary code)
// and adds the globals and exports they need. ownGlobals is the number of
// globals the module defined before instrumentation. grows, if not nil,
// marks the bodies that have a memory.grow (see meterCode).
func guard(m *binary.Module, opts *Options, ownGlobals int, grows []bool) error {
	nImpGlobals := m.NumImported(binary.ExternGlobal)
	newGlobal := func(name string) uint32 {
		idx := nImpGlobals + uint32(len(m.Globals))
		m.Globals = append(m.Globals, binary.Global{
			Type: binary.GlobalType{Type: binary.I32, Mutable: true},
			Init: []byte{byte(binary.OpI32Const), 0, byte(binary.OpEnd)},
		})
		m.Exports = append(m.Exports, binary.Export{Name: name, Kind: binary.ExternGlobal, Index: idx})
		return idx
	}
	for _, name := range []string{DepthGlobal, GrowFailuresGlobal, GrowFunc} {
		if hasExport(m, name) {
			return invalidf("module already exports %q (instrumented twice?)", name)
		}
	}
	g := guardian{opts: opts}
	if opts.MaxCallDepth > 0 {
		g.depth = newGlobal(DepthGlobal)
	}
	if opts.CountFailedGrows {
		g.grows = newGlobal(GrowFailuresGlobal)
	}

	nTypes := uint32(len(m.Types))
	var in binary.Instr
	var r binary.Reader
	// Counting failed growths alone leaves bodies without memory.grow as
	// they are.
	onlyGrows := grows != nil && !opts.CanonicalNaN && !opts.RejectRelaxedSIMD && opts.MaxCallDepth == 0
	for i := range m.Codes {
		c := &m.Codes[i]
		if i >= len(m.Funcs) || m.Funcs[i] >= nTypes {
			return invalidf("function %d has no valid type", i)
		}
		if onlyGrows && !grows[i] {
			continue
		}
		ft := m.Types[m.Funcs[i]]
		n := uint64(len(ft.Params))
		for _, l := range c.Locals {
			n += uint64(l.Count)
		}
		g.nextLocal, g.scratch = n, [5]uint32{}
		g.newLocals = g.newLocals[:0]
		if opts.MaxCallDepth > 0 {
			g.blockType = blockTypeOf(m, ft.Results)
		}
		out := make([]byte, 0, len(c.Body)+len(c.Body)/8+32)
		out = g.prologue(out)
		r.Reset(c.Body, c.BodyOffset)
		prev := 0
		for r.More() {
			depth := r.Depth()
			if err := r.Next(&in); err != nil {
				return err
			}
			var err error
			if out, prev, err = g.rewrite(out, c.Body, prev, &in, depth, !r.More()); err != nil {
				return err
			}
		}
		out = append(out, c.Body[prev:]...)
		if g.nextLocal >= 1<<32-1 {
			return invalidf("function %d has too many locals", i)
		}
		if len(g.newLocals) > 0 {
			locals := make([]binary.LocalDecl, len(c.Locals), len(c.Locals)+len(g.newLocals))
			copy(locals, c.Locals)
			c.Locals = append(locals, g.newLocals...)
		}
		c.Body = out
	}

	if opts.ExportState {
		return exportState(m, ownGlobals)
	}
	return nil
}

func hasExport(m *binary.Module, name string) bool {
	for i := range m.Exports {
		if m.Exports[i].Name == name {
			return true
		}
	}
	return false
}

// blockTypeOf returns the block type of a block with no parameters and
// the given results: 0x40, a value type, or the index of a (possibly new)
// function type.
func blockTypeOf(m *binary.Module, results []binary.ValType) []byte {
	switch len(results) {
	case 0:
		return []byte{0x40}
	case 1:
		return []byte{byte(results[0])}
	}
	want := binary.FuncType{Results: results}
	for i := range m.Types {
		if m.Types[i].Equal(want) {
			return binary.AppendS64(nil, int64(i))
		}
	}
	m.Types = append(m.Types, want)
	return binary.AppendS64(nil, int64(len(m.Types)-1))
}

// guardian rewrites one function body at a time.
type guardian struct {
	opts         *Options
	depth, grows uint32 // global indices
	blockType    []byte // of the block wrapping the body, with MaxCallDepth

	nextLocal uint64
	scratch   [5]uint32 // local index + 1 per kind: sNone is the i32 of grows, sV32 the v128 of both vector kinds
	newLocals []binary.LocalDecl
}

// local returns the function's scratch local of the given type, adding it
// on first use.
func (g *guardian) local(kind uint8, t binary.ValType) uint32 {
	if g.scratch[kind] == 0 {
		g.newLocals = append(g.newLocals, binary.LocalDecl{Count: 1, Type: t})
		g.scratch[kind] = uint32(g.nextLocal) + 1
		g.nextLocal++
	}
	return g.scratch[kind] - 1
}

func appendOp(b []byte, op binary.Opcode, idx uint32) []byte {
	return binary.AppendU32(append(b, byte(op)), idx)
}

func appendSIMD(b []byte, sub uint32) []byte {
	return binary.AppendU32(append(b, 0xfd), sub)
}

// addDepth emits depth += delta (delta is 1 or -1).
func (g *guardian) addDepth(b []byte, delta int64) []byte {
	b = appendOp(b, binary.OpGlobalGet, g.depth)
	b = binary.AppendS64(append(b, byte(binary.OpI32Const)), 1)
	if delta > 0 {
		b = append(b, byte(binary.OpI32Add))
	} else {
		b = append(b, byte(binary.OpI32Sub))
	}
	return appendOp(b, binary.OpGlobalSet, g.depth)
}

// prologue starts a body: count the call and trap past the limit, then
// open the block every exit of the function now goes through.
//
//	global.get D; i32.const 1; i32.add; global.set D
//	global.get D; i32.const MAX; i32.gt_u; if; unreachable; end
//	block BT
func (g *guardian) prologue(b []byte) []byte {
	if g.opts.MaxCallDepth == 0 {
		return b
	}
	b = g.addDepth(b, 1)
	b = appendOp(b, binary.OpGlobalGet, g.depth)
	b = binary.AppendS64(append(b, byte(binary.OpI32Const)), int64(int32(g.opts.MaxCallDepth)))
	b = append(b, 0x4b /* i32.gt_u */, byte(binary.OpIf), 0x40, byte(binary.OpUnreachable), byte(binary.OpEnd))
	b = append(b, byte(binary.OpBlock))
	return append(b, g.blockType...)
}

// rewrite handles one instruction of body: it copies body[prev:in.End]
// to out with any edits and returns the new prev. depth is the Reader's
// depth before the instruction; last is set for the body's final end.
func (g *guardian) rewrite(out, body []byte, prev int, in *binary.Instr, depth int, last bool) ([]byte, int, error) {
	opts := g.opts
	op := in.Op
	switch {
	case op>>16 == 0xfd && op&0xffff >= 0x100:
		if opts.RejectRelaxedSIMD {
			return nil, 0, invalidf("relaxed SIMD instruction 0xfd %#x at offset %d is not deterministic and not allowed", uint32(op&0xffff), in.Pos)
		}
	case opts.MaxCallDepth > 0 && last:
		// end the wrapping block, count the return, end the function
		out = append(out, body[prev:in.Pos]...)
		out = append(out, byte(binary.OpEnd))
		out = g.addDepth(out, -1)
		return append(out, byte(binary.OpEnd)), in.End, nil
	case opts.MaxCallDepth > 0 && op == binary.OpReturn:
		// return becomes a branch to the wrapping block, now at depth-1
		out = append(out, body[prev:in.Pos]...)
		return appendOp(out, binary.OpBr, uint32(depth-1)), in.End, nil
	case opts.MaxCallDepth > 0 && (op == binary.OpReturnCall || op == binary.OpReturnCallIndirect):
		// a tail call leaves this function: count that before it
		out = append(out, body[prev:in.Pos]...)
		out = g.addDepth(out, -1)
		return append(out, body[in.Pos:in.End]...), in.End, nil
	case opts.CountFailedGrows && op == binary.OpMemoryGrow:
		// local.tee I; local.get I; i32.const -1; i32.eq
		// global.get G; i32.add; global.set G
		l := g.local(sNone, binary.I32)
		out = append(out, body[prev:in.End]...)
		out = appendOp(out, binary.OpLocalTee, l)
		out = appendOp(out, binary.OpLocalGet, l)
		out = append(out, byte(binary.OpI32Const), 0x7f, 0x46 /* i32.eq */)
		out = appendOp(out, binary.OpGlobalGet, g.grows)
		out = append(out, byte(binary.OpI32Add))
		return appendOp(out, binary.OpGlobalSet, g.grows), in.End, nil
	case opts.CanonicalNaN:
		var kind uint8
		if op < 0x100 {
			kind = nanOps[op]
		} else if op>>16 == 0xfd {
			kind = simdNaNOps[uint32(op&0xffff)]
		}
		if kind == sNone {
			break
		}
		out = append(out, body[prev:in.End]...)
		return g.canonicalize(out, kind), in.End, nil
	}
	return out, prev, nil
}

// canonicalize replaces a NaN on top of the stack by the canonical NaN:
//
//	local.tee T; f32.const NaN; local.get T; local.get T; f32.eq; select
//
// and for vectors, lane by lane:
//
//	local.tee V; v128.const NaN…; local.get V; local.get V; f32x4.eq; v128.bitselect
func (g *guardian) canonicalize(b []byte, kind uint8) []byte {
	switch kind {
	case sF32:
		l := g.local(sF32, binary.F32)
		b = appendOp(b, binary.OpLocalTee, l)
		b = append(b, byte(binary.OpF32Const))
		b = appendLE(b, uint64(CanonicalNaN32), 4)
		b = appendOp(appendOp(b, binary.OpLocalGet, l), binary.OpLocalGet, l)
		return append(b, 0x5b /* f32.eq */, byte(binary.OpSelect))
	case sF64:
		l := g.local(sF64, binary.F64)
		b = appendOp(b, binary.OpLocalTee, l)
		b = append(b, byte(binary.OpF64Const))
		b = appendLE(b, CanonicalNaN64, 8)
		b = appendOp(appendOp(b, binary.OpLocalGet, l), binary.OpLocalGet, l)
		return append(b, 0x61 /* f64.eq */, byte(binary.OpSelect))
	}
	l := g.local(sV32, binary.V128)
	b = appendOp(b, binary.OpLocalTee, l)
	b = appendSIMD(b, 0x0c) // v128.const
	eq := uint32(0x41)      // f32x4.eq
	if kind == sV32 {
		for range 4 {
			b = appendLE(b, uint64(CanonicalNaN32), 4)
		}
	} else {
		eq = 0x47 // f64x2.eq
		b = appendLE(appendLE(b, CanonicalNaN64, 8), CanonicalNaN64, 8)
	}
	b = appendOp(appendOp(b, binary.OpLocalGet, l), binary.OpLocalGet, l)
	return appendSIMD(appendSIMD(b, eq), 0x52) // v128.bitselect
}

func appendLE(b []byte, v uint64, n int) []byte {
	for i := 0; i < n; i++ {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// exportState exports every mutable global the module defines (of the
// first ownGlobals) as GlobalExportName(index), memory 0 as MemoryExport,
// and adds GrowFunc.
func exportState(m *binary.Module, ownGlobals int) error {
	nImpGlobals := m.NumImported(binary.ExternGlobal)
	for i := 0; i < ownGlobals; i++ {
		if !m.Globals[i].Type.Mutable {
			continue
		}
		idx := nImpGlobals + uint32(i)
		name := GlobalExportName(idx)
		if hasExport(m, name) {
			return invalidf("module already exports %q (instrumented twice?)", name)
		}
		m.Exports = append(m.Exports, binary.Export{Name: name, Kind: binary.ExternGlobal, Index: idx})
	}
	if len(m.Memories) == 0 && m.NumImported(binary.ExternMemory) == 0 {
		return nil
	}
	exported := false
	for i := range m.Exports {
		if e := &m.Exports[i]; e.Name == MemoryExport {
			if e.Kind != binary.ExternMemory || e.Index != 0 {
				return invalidf("export %q is not memory 0; the sandbox needs that name for the module's memory", MemoryExport)
			}
			exported = true
		}
	}
	if !exported {
		m.Exports = append(m.Exports, binary.Export{Name: MemoryExport, Kind: binary.ExternMemory})
	}

	growType := binary.FuncType{Params: []binary.ValType{binary.I32}, Results: []binary.ValType{binary.I32}}
	typeIdx := -1
	for i := range m.Types {
		if m.Types[i].Equal(growType) {
			typeIdx = i
			break
		}
	}
	if typeIdx < 0 {
		typeIdx = len(m.Types)
		m.Types = append(m.Types, growType)
	}
	fn := uint64(m.NumImported(binary.ExternFunc)) + uint64(len(m.Funcs))
	if fn >= math.MaxUint32 {
		return invalidf("too many functions")
	}
	m.Funcs = append(m.Funcs, uint32(typeIdx))
	// local.get 0; memory.grow 0; end
	m.Codes = append(m.Codes, binary.Code{Body: []byte{byte(binary.OpLocalGet), 0, byte(binary.OpMemoryGrow), 0, byte(binary.OpEnd)}})
	m.Exports = append(m.Exports, binary.Export{Name: GrowFunc, Kind: binary.ExternFunc, Index: uint32(fn)})
	return nil
}
