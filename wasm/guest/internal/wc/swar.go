package wc

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

const (
	lsb = 0x0101010101010101
	low = 0x7f7f7f7f7f7f7f7f
)

// CountByte returns the number of bytes of b equal to c, like bytes.Count
// with a one-byte separator. It looks at eight bytes per step (SWAR), which
// matters under GOOS=wasip1 where bytes.Count has no assembly and walks the
// slice a byte at a time.
func CountByte(b []byte, c byte) int {
	n := 0
	pat := uint64(c) * lsb
	i := 0
	if len(b) >= 8 {
		p := unsafe.Pointer(unsafe.SliceData(b))
		// Four words per step: fewer loop-header checks under the
		// sandbox's fuel metering.
		for end := len(b) - 32; i <= end; i += 32 {
			x0 := *(*uint64)(unsafe.Add(p, i)) ^ pat
			x1 := *(*uint64)(unsafe.Add(p, i+8)) ^ pat
			x2 := *(*uint64)(unsafe.Add(p, i+16)) ^ pat
			x3 := *(*uint64)(unsafe.Add(p, i+24)) ^ pat
			n += bits.OnesCount64(^((x0&low + low) | x0 | low))
			n += bits.OnesCount64(^((x1&low + low) | x1 | low))
			n += bits.OnesCount64(^((x2&low + low) | x2 | low))
			n += bits.OnesCount64(^((x3&low + low) | x3 | low))
		}
		for end := len(b) - 8; i <= end; i += 8 {
			x := *(*uint64)(unsafe.Add(p, i)) ^ pat
			// High bit of each byte of t is set where that byte of x is
			// zero; no carries cross bytes since the low 7 bits are added
			// separately.
			t := ^((x&low + low) | x | low)
			n += bits.OnesCount64(t)
		}
	}
	for ; i < len(b); i++ {
		if b[i] == c {
			n++
		}
	}
	return n
}

// IsASCII reports whether b has no byte above 0x7f, eight bytes a step.
func IsASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// IndexByte is bytes.IndexByte thirty-two bytes a step: under the
// sandbox's fuel metering the assembly of bytes.IndexByte, four bytes a
// step, costs more, the more so for short searches.
func IndexByte(b []byte, c byte) int {
	pat := uint64(c) * lsb
	i := 0
	if len(b) >= 32 {
		p := unsafe.Pointer(unsafe.SliceData(b))
		for end := len(b) - 32; i <= end; i += 32 {
			x0 := *(*uint64)(unsafe.Add(p, i)) ^ pat
			x1 := *(*uint64)(unsafe.Add(p, i+8)) ^ pat
			x2 := *(*uint64)(unsafe.Add(p, i+16)) ^ pat
			x3 := *(*uint64)(unsafe.Add(p, i+24)) ^ pat
			t0 := ^((x0&low + low) | x0 | low)
			t1 := ^((x1&low + low) | x1 | low)
			t2 := ^((x2&low + low) | x2 | low)
			t3 := ^((x3&low + low) | x3 | low)
			if t0|t1|t2|t3 == 0 {
				continue
			}
			switch {
			case t0 != 0:
				return i + bits.TrailingZeros64(t0)>>3
			case t1 != 0:
				return i + 8 + bits.TrailingZeros64(t1)>>3
			case t2 != 0:
				return i + 16 + bits.TrailingZeros64(t2)>>3
			}
			return i + 24 + bits.TrailingZeros64(t3)>>3
		}
	}
	for ; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return -1
}

// Index is bytes.Index by IndexByte on sep's first byte: the fast path
// for a literal that is not common in the text.
func Index(b, sep []byte) int {
	if len(sep) == 0 {
		return 0
	}
	c := sep[0]
	if len(sep) == 1 {
		return IndexByte(b, c)
	}
	for i := 0; i+len(sep) <= len(b); i++ {
		k := IndexByte(b[i:len(b)-len(sep)+1], c)
		if k < 0 {
			return -1
		}
		i += k
		if string(b[i:i+len(sep)]) == string(sep) {
			return i
		}
	}
	return -1
}

// CountLinesWith returns how many lines of b (each ending in eol, the
// last may lack it) contain sep, which must not contain eol. It is one
// call for a whole buffer, with no call per line found: it looks for
// sep's first and last bytes at their distance eight positions a step,
// checks the candidates whole, and after a hit skips to the line's end,
// eight bytes a step too.
func CountLinesWith(b, sep []byte, eol byte) int {
	if len(sep) == 0 {
		n := CountByte(b, eol)
		if len(b) > 0 && b[len(b)-1] != eol {
			n++
		}
		return n
	}
	first, last, off := sep[0], sep[len(sep)-1], len(sep)-1
	pf, pl, pe := uint64(first)*lsb, uint64(last)*lsb, uint64(eol)*lsb
	p := unsafe.Pointer(unsafe.SliceData(b))
	load := func(i int) uint64 { return *(*uint64)(unsafe.Add(p, i)) }
	n, i := 0, 0
	for i+len(sep) <= len(b) {
		// A candidate: first at i and last at i+off. Thirty-two bytes
		// a step: fewer loop-header checks under the fuel metering.
		for ; i+off+32 <= len(b); i += 32 {
			x0, y0 := load(i)^pf, load(i+off)^pl
			x1, y1 := load(i+8)^pf, load(i+off+8)^pl
			x2, y2 := load(i+16)^pf, load(i+off+16)^pl
			x3, y3 := load(i+24)^pf, load(i+off+24)^pl
			// A byte of x|y is zero where both bytes are: one test.
			z0, z1, z2, z3 := x0|y0, x1|y1, x2|y2, x3|y3
			t0 := ^((z0&low + low) | z0 | low)
			t1 := ^((z1&low + low) | z1 | low)
			t2 := ^((z2&low + low) | z2 | low)
			t3 := ^((z3&low + low) | z3 | low)
			if t0|t1|t2|t3 == 0 {
				continue
			}
			switch {
			case t0 != 0:
				i += bits.TrailingZeros64(t0) >> 3
			case t1 != 0:
				i += 8 + bits.TrailingZeros64(t1)>>3
			case t2 != 0:
				i += 16 + bits.TrailingZeros64(t2)>>3
			default:
				i += 24 + bits.TrailingZeros64(t3)>>3
			}
			goto found
		}
		for ; i+off+8 <= len(b); i += 8 {
			z := (load(i) ^ pf) | (load(i+off) ^ pl)
			if t := ^((z&low + low) | z | low); t != 0 {
				i += bits.TrailingZeros64(t) >> 3
				goto found
			}
		}
		for ; i+len(sep) <= len(b); i++ {
			if b[i] == first && b[i+off] == last {
				goto found
			}
		}
		return n
	found:
		if string(b[i:i+len(sep)]) != string(sep) {
			i++
			continue
		}
		n++
		// On past the line's end.
		i += len(sep)
		for ; i+8 <= len(b); i += 8 {
			x := load(i) ^ pe
			if t := ^((x&low + low) | x | low); t != 0 {
				i += bits.TrailingZeros64(t) >> 3
				goto eolFound
			}
		}
		for ; i < len(b) && b[i] != eol; i++ {
		}
	eolFound:
		i++
	}
	return n
}

// CountLinesWithAny is CountLinesWith for two to four strings: how many
// lines contain any of them. Each word of b is tested for every string's
// first byte and, at its distance, last byte at once.
func CountLinesWithAny(b []byte, seps [][]byte, eol byte) int {
	if len(seps) < 2 || len(seps) > 4 {
		panic("wc: CountLinesWithAny takes two to four strings")
	}
	var (
		s        [4][]byte
		pf, pl   [4]uint64
		off      [4]int
		shortest = len(seps[0])
		reach    = 0 // the largest distance from first to last byte
	)
	for k := range s {
		sep := seps[k%len(seps)] // a repeated string changes nothing
		s[k], off[k] = sep, len(sep)-1
		pf[k], pl[k] = uint64(sep[0])*lsb, uint64(sep[len(sep)-1])*lsb
		shortest, reach = min(shortest, len(sep)), max(reach, len(sep)-1)
	}
	pe := uint64(eol) * lsb
	p := unsafe.Pointer(unsafe.SliceData(b))
	load := func(i int) uint64 { return *(*uint64)(unsafe.Add(p, i)) }
	zero := func(x uint64) uint64 { return ^((x&low + low) | x | low) }
	// In scalars, not arrays: under wasm an array lives in memory.
	f0, f1, f2, f3 := pf[0], pf[1], pf[2], pf[3]
	l0, l1, l2, l3 := pl[0], pl[1], pl[2], pl[3]
	o0, o1, o2, o3 := off[0], off[1], off[2], off[3]
	n, i := 0, 0
	for i+shortest <= len(b) {
		for ; i+reach+8 <= len(b); i += 8 {
			w := load(i)
			t := zero((w^f0)|(load(i+o0)^l0)) | zero((w^f1)|(load(i+o1)^l1)) |
				zero((w^f2)|(load(i+o2)^l2)) | zero((w^f3)|(load(i+o3)^l3))
			if t != 0 {
				i += bits.TrailingZeros64(t) >> 3
				break
			}
		}
		if i+shortest > len(b) {
			break
		}
		hit := false
		for _, sep := range s {
			if i+len(sep) <= len(b) && string(b[i:i+len(sep)]) == string(sep) {
				hit = true
				break
			}
		}
		if !hit {
			i++
			continue
		}
		n++
		// On past the line's end.
		for i += shortest; i+8 <= len(b); i += 8 {
			if t := zero(load(i) ^ pe); t != 0 {
				i += bits.TrailingZeros64(t) >> 3
				goto eolFound
			}
		}
		for ; i < len(b) && b[i] != eol; i++ {
		}
	eolFound:
		i++
	}
	return n
}
