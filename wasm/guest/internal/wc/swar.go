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
