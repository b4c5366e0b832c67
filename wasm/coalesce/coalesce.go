// Package coalesce joins the data segments of a WebAssembly module, which
// makes instantiating Go-built modules several times cheaper on every
// engine.
package coalesce

import (
	"cmp"
	"encoding/binary"
	"errors"
	"slices"
)

// maxDataGap is the largest run of zero bytes Data writes to join
// two data segments: copying that many zeros costs about what wazero spends
// on one more segment at instantiation.
const maxDataGap = 4096

const (
	sectionImport    = 2
	sectionData      = 11
	sectionDataCount = 12
)

// Data returns bin with its active data segments joined into as few
// segments as possible, or bin itself when that is not known to be safe.
//
// Go's wasip1 linker emits tens of thousands of small segments (30,352 for
// hello world), and wazero evaluates and copies each one, with allocations,
// on every instantiation: most of the cost of spawning a process. Joining
// segments that lie close together in memory, filling the gaps with the
// zeros a fresh memory holds anyway, gives the same initial memory.
//
// It applies only when the memory is the module's own (not imported, so it
// starts zeroed), there is no DataCount section (so no memory.init or
// data.drop refers to segments by index), and every segment is active on
// memory 0 at an i32.const offset, and no two non-empty segments overlap.
func Data(bin []byte) []byte {
	out, err := coalesce(bin)
	if err != nil {
		return bin
	}
	return out
}

var errNotApplicable = errors.New("not applicable")

type segment struct {
	offset uint32
	init   []byte
}

func coalesce(bin []byte) ([]byte, error) {
	if len(bin) < 8 || string(bin[:4]) != "\x00asm" || binary.LittleEndian.Uint32(bin[4:8]) != 1 {
		return nil, errNotApplicable
	}
	var dataStart, dataEnd int // the whole data section, header included
	var data []byte            // its payload
	r := reader{b: bin, pos: 8}
	for r.pos < len(r.b) {
		start := r.pos
		id := r.byte()
		size := r.u32()
		payload := r.bytes(int(size))
		if r.err != nil {
			return nil, r.err
		}
		switch id {
		case sectionImport:
			if importsMemory(payload) {
				return nil, errNotApplicable
			}
		case sectionDataCount:
			return nil, errNotApplicable
		case sectionData:
			dataStart, dataEnd, data = start, r.pos, payload
		}
	}
	if data == nil {
		return nil, errNotApplicable
	}

	d := reader{b: data}
	n := d.u32()
	if d.err != nil || uint64(n) > uint64(len(data)) {
		return nil, errNotApplicable
	}
	segs := make([]segment, 0, n)
	for range n {
		if flag := d.u32(); flag != 0 || d.byte() != 0x41 { // active on memory 0, i32.const
			return nil, errNotApplicable
		}
		off := uint32(d.s32())
		if d.byte() != 0x0b { // end
			return nil, errNotApplicable
		}
		init := d.bytes(int(d.u32()))
		if d.err != nil {
			return nil, errNotApplicable
		}
		segs = append(segs, segment{off, init})
	}
	if d.pos != len(data) {
		return nil, errNotApplicable
	}
	// Segments are applied in order; once sorted, disjoint ones give the
	// same memory in any order.
	slices.SortStableFunc(segs, func(a, b segment) int { return cmp.Compare(a.offset, b.offset) })
	var end uint64
	for _, s := range segs {
		if len(s.init) == 0 {
			continue // writes nothing; its bounds check is kept below
		}
		if uint64(s.offset) < end {
			return nil, errNotApplicable
		}
		end = uint64(s.offset) + uint64(len(s.init))
	}

	// Group segments into runs with gaps of at most maxDataGap. A run ends
	// where its last segment ends, so instantiation still fails exactly when
	// some segment lies beyond the memory.
	type run struct {
		offset uint32
		first  int // index of the first segment
		size   uint64
	}
	var runs []run
	for i, s := range segs {
		segEnd := uint64(s.offset) + uint64(len(s.init))
		if k := len(runs) - 1; k >= 0 && uint64(s.offset) <= uint64(runs[k].offset)+runs[k].size+maxDataGap {
			runs[k].size = max(runs[k].size, segEnd-uint64(runs[k].offset))
			continue
		}
		runs = append(runs, run{offset: s.offset, first: i, size: uint64(len(s.init))})
	}
	if len(runs) == len(segs) {
		return nil, errNotApplicable
	}

	var payload []byte
	payload = binary.AppendUvarint(payload, uint64(len(runs)))
	for k, rn := range runs {
		last := len(segs)
		if k+1 < len(runs) {
			last = runs[k+1].first
		}
		payload = append(payload, 0, 0x41)
		payload = appendSleb(payload, int64(int32(rn.offset)))
		payload = append(payload, 0x0b)
		payload = binary.AppendUvarint(payload, rn.size)
		base := len(payload)
		payload = append(payload, make([]byte, rn.size)...)
		for _, s := range segs[rn.first:last] {
			copy(payload[base+int(s.offset-rn.offset):], s.init)
		}
	}
	if uint64(len(payload)) > 1<<32-1 {
		return nil, errNotApplicable
	}

	out := make([]byte, 0, len(bin)-(dataEnd-dataStart)+len(payload)+6)
	out = append(out, bin[:dataStart]...)
	out = append(out, sectionData)
	out = binary.AppendUvarint(out, uint64(len(payload)))
	out = append(out, payload...)
	out = append(out, bin[dataEnd:]...)
	return out, nil
}

// importsMemory reports whether an import section payload imports a memory.
// Payloads it cannot read count as importing one.
func importsMemory(p []byte) bool {
	r := reader{b: p}
	n := r.u32()
	for i := uint32(0); i < n && r.err == nil; i++ {
		r.bytes(int(r.u32())) // module
		r.bytes(int(r.u32())) // name
		switch r.byte() {
		case 0x00: // func
			r.u32()
		case 0x01: // table
			r.byte()
			r.limits()
		case 0x02: // memory
			return true
		case 0x03: // global
			r.byte()
			r.byte()
		case 0x04: // tag
			r.byte()
			r.u32()
		default:
			return true
		}
	}
	return r.err != nil
}

// reader reads the WebAssembly binary encoding; the first error sticks.
type reader struct {
	b   []byte
	pos int
	err error
}

var errTruncated = errors.New("truncated")

func (r *reader) byte() byte {
	if r.err != nil || r.pos >= len(r.b) {
		r.err = errTruncated
		return 0
	}
	c := r.b[r.pos]
	r.pos++
	return c
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.pos {
		r.err = errTruncated
		return nil
	}
	b := r.b[r.pos : r.pos+n]
	r.pos += n
	return b
}

func (r *reader) u32() uint32 {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			if v > 1<<32-1 {
				r.err = errTruncated
			}
			return uint32(v)
		}
	}
	r.err = errTruncated
	return 0
}

func (r *reader) s32() int32 {
	var v int64
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= int64(c&0x7f) << shift
		if c&0x80 == 0 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			if v < -1<<31 || v > 1<<31-1 {
				r.err = errTruncated
			}
			return int32(v)
		}
	}
	r.err = errTruncated
	return 0
}

func (r *reader) limits() {
	flags := r.byte()
	r.u64()
	if flags&1 != 0 {
		r.u64()
	}
}

func (r *reader) u64() uint64 {
	var v uint64
	for shift := 0; shift < 70; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
	r.err = errTruncated
	return 0
}

func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
