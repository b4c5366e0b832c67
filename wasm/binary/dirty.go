package binary

import (
	"cmp"
	"slices"
)

// Both hosts recycle a closed instance's memory for the next instance of
// the same module (platform/hostwasm through an imported memory,
// wasm/wazeroengine through a memory allocator), zeroing only what the
// module's data segments will not write again.

// DirtyRanges lists, as start and end byte offsets, the parts of a memory
// of size bytes that m's active data segments do not cover. A recycled
// memory needs zeroing only there: instantiating m writes every segment
// again (so a memory whose instantiation failed must not be recycled).
// Segments with an offset other than an i32.const cover nothing.
func DirtyRanges(m *Module, size uint32) []uint32 {
	type span struct{ lo, hi uint64 }
	var covered []span
	for _, d := range m.Datas {
		if d.Mode != SegmentActive || d.Memory != 0 || len(d.Init) == 0 {
			continue
		}
		off, ok := ConstI32(d.Offset)
		if !ok {
			continue
		}
		covered = append(covered, span{uint64(off), uint64(off) + uint64(len(d.Init))})
	}
	slices.SortFunc(covered, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	var out []uint32
	pos := uint64(0)
	for _, s := range covered {
		if s.lo > pos {
			out = append(out, uint32(pos), uint32(min(s.lo, uint64(size))))
		}
		pos = max(pos, s.hi)
		if pos >= uint64(size) {
			break
		}
	}
	if pos < uint64(size) {
		out = append(out, uint32(pos), size)
	}
	// Drop empty ranges (a segment starting past the end).
	k := 0
	for j := 0; j < len(out); j += 2 {
		if out[j] < out[j+1] {
			out[k], out[k+1] = out[j], out[j+1]
			k += 2
		}
	}
	return out[:k]
}

// ConstI32 reads a constant expression that is one i32.const and reports
// whether it is one.
func ConstI32(expr []byte) (uint32, bool) {
	if len(expr) < 3 || expr[0] != 0x41 || expr[len(expr)-1] != 0x0b {
		return 0, false
	}
	var v int64
	var shift uint
	for k, c := range expr[1 : len(expr)-1] {
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if k != len(expr)-3 || shift > 35 {
				return 0, false
			}
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return uint32(int32(v)), true
		}
	}
	return 0, false
}
