package grep

import (
	"bytes"
	"math/bits"
	"testing"
	"unsafe"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/wc"
)

func BenchmarkZZCount(b *testing.B) {
	for b.Loop() {
		wc.CountByte(records, '\n')
	}
}

func BenchmarkZZIndexByteFull(b *testing.B) {
	for b.Loop() {
		bytes.IndexByte(records, 0)
	}
}

func BenchmarkZZIndexByteX(b *testing.B) {
	for b.Loop() {
		for i := 0; ; i++ {
			k := bytes.IndexByte(records[i:], 'x')
			if k < 0 {
				break
			}
			i += k
		}
	}
}

func BenchmarkZZSwarFull(b *testing.B) {
	for b.Loop() {
		zzIndex(records, 0)
	}
}

func BenchmarkZZSwarX(b *testing.B) {
	for b.Loop() {
		for i := 0; ; i++ {
			k := zzIndex(records[i:], 'x')
			if k < 0 {
				break
			}
			i += k
		}
	}
}

func zzIndex(b []byte, c byte) int {
	const lsb, low = 0x0101010101010101, 0x7f7f7f7f7f7f7f7f
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
			if t0|t1|t2|t3 != 0 {
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
	}
	for ; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return -1
}
