package instrument

import "github.com/wasmsand/wasmsand/wasm/binary"

// nameReader reads the "name" custom section. Any malformed input makes
// ok false; the caller then drops the section.
type nameReader struct {
	b   []byte
	pos int
	ok  bool
}

func (r *nameReader) u32() uint32 {
	var v uint32
	for shift := uint(0); shift < 35; shift += 7 {
		if r.pos >= len(r.b) {
			r.ok = false
			return 0
		}
		c := r.b[r.pos]
		r.pos++
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.ok = false
	return 0
}

func (r *nameReader) bytes() []byte {
	n := r.u32()
	if !r.ok || uint64(n) > uint64(len(r.b)-r.pos) {
		r.ok = false
		return nil
	}
	s := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return s
}

// remapNames renumbers the function indices of a "name" section's
// function, local and label subsections after the refuel import took
// index nImp, and names that import.
func remapNames(data []byte, nImp uint32) ([]byte, bool) {
	r := nameReader{b: data, ok: true}
	out := make([]byte, 0, len(data)+32)
	var sub []byte
	for r.ok && r.pos < len(data) {
		id := data[r.pos]
		r.pos++
		content := r.bytes()
		if !r.ok {
			return nil, false
		}
		switch id {
		case 1, 2, 3:
			var ok bool
			if sub, ok = remapNameMap(sub[:0], content, id != 1, nImp); !ok {
				return nil, false
			}
		default:
			sub = append(sub[:0], content...)
		}
		out = append(out, id)
		out = binary.AppendU32(out, uint32(len(sub)))
		out = append(out, sub...)
	}
	return out, r.ok
}

// remapNameMap rewrites a name map (or an indirect name map whose outer
// index is a function) with function indices ≥ nImp moved up by one.
func remapNameMap(dst, content []byte, indirect bool, nImp uint32) ([]byte, bool) {
	r := nameReader{b: content, ok: true}
	n := r.u32()
	if !r.ok || uint64(n) > uint64(len(content)) {
		return nil, false
	}
	count := n
	if !indirect {
		count++ // room for the refuel import's name
	}
	dst = binary.AppendU32(dst, count)
	inserted := indirect
	insert := func() {
		dst = binary.AppendU32(dst, nImp)
		dst = binary.AppendU32(dst, uint32(len(RefuelModule)+1+len(RefuelName)))
		dst = append(dst, RefuelModule+"."+RefuelName...)
		inserted = true
	}
	for i := uint32(0); i < n && r.ok; i++ {
		idx := r.u32()
		start := r.pos
		if indirect {
			m := r.u32()
			if uint64(m) > uint64(len(content)) {
				return nil, false
			}
			for j := uint32(0); j < m && r.ok; j++ {
				r.u32()
				r.bytes()
			}
		} else {
			r.bytes()
		}
		if !r.ok {
			return nil, false
		}
		if idx >= nImp {
			if !inserted {
				insert()
			}
			idx++
		}
		dst = binary.AppendU32(dst, idx)
		dst = append(dst, content[start:r.pos]...)
	}
	if !inserted {
		insert()
	}
	return dst, r.ok && r.pos == len(content)
}
