// Package lazytable rewrites a WebAssembly module so that its function
// table is filled on first use instead of at instantiation.
//
// Go's wasm linker puts nearly every function of a program in the table
// (about 3,000 entries for a small tool): a goroutine resumes through
// call_indirect, so any function that can be on a stack needs an entry.
// An engine fills the whole table on every instantiation; wazero does so
// one entry at a time, evaluating a constant expression and allocating a
// function reference for each, which was 40 % of the CPU time of starting
// a pre-initialised tool natively. A process runs a few hundred of those
// functions at most.
//
// Apply makes the element segment declarative (it then only declares the
// functions for ref.func, and no engine copies it), leaves the table empty
// and guards every call_indirect:
//
//	local.tee $i  table.get  ref.is_null
//	if  local.get $i  call $fill  end
//	local.get $i  call_indirect
//
// $fill, a function added at the end of the function index space, stores
// the function the segment had at that index (a br_table over ref.func and
// table.set) and does nothing for an index the segment did not cover, so
// call_indirect then traps as it did before. What every call_indirect
// reaches, and every trap, is unchanged; only the table's contents differ
// where nothing has called yet, and the module has no instruction that
// could look at them (Apply declines modules with table.get, table.set,
// table.size, table.grow, table.fill, table.copy, table.init, elem.drop or
// return_call_indirect of their own, or an exported or imported table).
//
// The rewrite adds no instructions to a module's metering: apply it after
// instrumentation, so fuel counts stay the same on every engine.
package lazytable

import (
	"errors"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// MinEntries is the smallest element segment Apply rewrites. Below it,
// filling the table eagerly costs less than the guards would.
const MinEntries = 512

// Apply returns bin rewritten as the package documentation describes, or
// bin itself when the rewrite does not apply: the module must define one
// funcref table (neither imported nor exported) with one element segment,
// active at a constant offset and listing at least MinEntries functions by
// index, and use no table instruction other than call_indirect.
func Apply(bin []byte) []byte {
	out, err := apply(bin)
	if err != nil {
		return bin
	}
	return out
}

var errNotApplicable = errors.New("lazytable: not applicable")

func apply(bin []byte) ([]byte, error) {
	m, err := binary.Decode(bin)
	if err != nil {
		return nil, err
	}
	if len(m.Tables) != 1 || m.NumImported(binary.ExternTable) != 0 ||
		m.Tables[0].Elem != binary.FuncRef || len(m.Elements) != 1 {
		return nil, errNotApplicable
	}
	for _, e := range m.Exports {
		if e.Kind == binary.ExternTable {
			return nil, errNotApplicable
		}
	}
	seg := &m.Elements[0]
	if seg.Flags != 0 || seg.Table != 0 || len(seg.Funcs) < MinEntries {
		return nil, errNotApplicable
	}
	offset, ok := binary.ConstI32(seg.Offset)
	if !ok || uint64(offset)+uint64(len(seg.Funcs)) > uint64(m.Tables[0].Limits.Min) {
		return nil, errNotApplicable
	}
	nFuncs := m.NumImported(binary.ExternFunc) + uint32(len(m.Funcs))
	if nFuncs == 1<<32-1 || len(m.Codes) != len(m.Funcs) {
		return nil, errNotApplicable
	}
	fill := nFuncs // the function Apply adds

	// Rewrite the bodies first: a module using the table any other way
	// is left alone.
	codes := make([]binary.Code, len(m.Codes))
	var r binary.Reader
	var in binary.Instr
	for i := range m.Codes {
		c := &m.Codes[i]
		if int(m.Funcs[i]) >= len(m.Types) {
			return nil, errNotApplicable
		}
		codes[i] = *c
		var out []byte
		var tmp uint32
		prev := 0
		r.Reset(c.Body, c.BodyOffset)
		for r.More() {
			if err := r.Next(&in); err != nil {
				return nil, err
			}
			switch in.Op {
			case binary.OpTableGet, binary.OpTableSet, binary.OpTableSize, binary.OpTableGrow,
				binary.OpTableFill, binary.OpTableCopy, binary.OpTableInit, binary.OpElemDrop,
				binary.OpReturnCallIndirect:
				return nil, errNotApplicable
			case binary.OpCallIndirect:
				if out == nil {
					out = make([]byte, 0, len(c.Body)+len(c.Body)/8+16)
					tmp, ok = newLocal(m, i, &codes[i])
					if !ok {
						return nil, errNotApplicable
					}
				}
				out = append(out, c.Body[prev:in.Pos]...)
				out = appendGuard(out, tmp, fill)
				prev = in.Pos
			}
		}
		if out != nil {
			codes[i].Body = append(out, c.Body[prev:]...)
			codes[i].BodyOffset = 0
		}
	}
	m.Codes = codes

	// The segment now only declares its functions for ref.func.
	seg.Flags, seg.Mode, seg.Kind, seg.Offset = 3, binary.SegmentDeclarative, 0x00, nil

	ft := binary.FuncType{Params: []binary.ValType{binary.I32}}
	typeIdx := -1
	for i := range m.Types {
		if m.Types[i].Equal(ft) {
			typeIdx = i
			break
		}
	}
	if typeIdx < 0 {
		typeIdx = len(m.Types)
		m.Types = append(m.Types, ft)
	}
	m.Funcs = append(m.Funcs, uint32(typeIdx))
	m.Codes = append(m.Codes, binary.Code{Body: fillBody(offset, seg.Funcs)})
	return m.Encode(), nil
}

// newLocal declares one more i32 local in code, the body of defined
// function i, and returns its index.
func newLocal(m *binary.Module, i int, code *binary.Code) (uint32, bool) {
	n := uint64(len(m.Types[m.Funcs[i]].Params))
	for _, l := range code.Locals {
		n += uint64(l.Count)
	}
	if n >= 50000 { // engines refuse more locals than about this
		return 0, false
	}
	code.Locals = append(code.Locals[:len(code.Locals):len(code.Locals)], binary.LocalDecl{Count: 1, Type: binary.I32})
	return uint32(n), true
}

// appendGuard appends the code run before a call_indirect, whose table
// index is on the stack: fill the entry if it is still null, and leave the
// index on the stack again.
func appendGuard(b []byte, tmp, fill uint32) []byte {
	b = append(b, byte(binary.OpLocalTee))
	b = binary.AppendU32(b, tmp)
	b = append(b, byte(binary.OpTableGet), 0, byte(binary.OpRefIsNull), byte(binary.OpIf), 0x40, byte(binary.OpLocalGet))
	b = binary.AppendU32(b, tmp)
	b = append(b, byte(binary.OpCall))
	b = binary.AppendU32(b, fill)
	b = append(b, byte(binary.OpEnd), byte(binary.OpLocalGet))
	return binary.AppendU32(b, tmp)
}

// fillBody is the body of $fill (param $i i32): a br_table on $i-offset
// whose case k stores funcs[k] at $i; any other index falls out of the
// outermost block and returns.
func fillBody(offset uint32, funcs []uint32) []byte {
	n := len(funcs)
	b := make([]byte, 0, 2*(n+1)+16+n*14)
	for range n + 1 {
		b = append(b, byte(binary.OpBlock), 0x40)
	}
	b = append(b, byte(binary.OpLocalGet), 0, byte(binary.OpI32Const))
	b = binary.AppendS64(b, int64(int32(offset)))
	b = append(b, byte(binary.OpI32Sub), byte(binary.OpBrTable))
	b = binary.AppendU32(b, uint32(n))
	for k := range n + 1 {
		b = binary.AppendU32(b, uint32(k))
	}
	for _, f := range funcs {
		b = append(b, byte(binary.OpEnd), byte(binary.OpLocalGet), 0, byte(binary.OpRefFunc))
		b = binary.AppendU32(b, f)
		b = append(b, byte(binary.OpTableSet), 0, byte(binary.OpReturn))
	}
	return append(b, byte(binary.OpEnd), byte(binary.OpEnd))
}
