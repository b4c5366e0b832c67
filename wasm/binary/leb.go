package binary

// LEB128 helpers. Readers take the buffer and a position and return the
// value and the new position; on malformed input they return a position
// of -1 and the caller reports the error with the offset it knows.

// readU32 decodes an unsigned LEB128 value of at most 32 bits.
func readU32(b []byte, pos int) (uint32, int) {
	var v uint32
	for shift := uint(0); shift < 35; shift += 7 {
		if pos >= len(b) {
			return 0, -1
		}
		c := b[pos]
		pos++
		if shift == 28 && c > 0x0f {
			return 0, -1 // more than 32 bits or a continuation bit on byte 5
		}
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return v, pos
		}
	}
	return 0, -1
}

// readS32 decodes a signed LEB128 value of at most 32 bits.
func readS32(b []byte, pos int) (int32, int) {
	var v int64
	shift := uint(0)
	for {
		if pos >= len(b) {
			return 0, -1
		}
		c := b[pos]
		pos++
		if shift == 28 {
			// Last byte: no continuation, and the unused bits must be
			// a sign extension of bit 31.
			if c&0x80 != 0 {
				return 0, -1
			}
			if c&0x08 == 0 && c&0x70 != 0 || c&0x08 != 0 && c&0x70 != 0x70 {
				return 0, -1
			}
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c < 0x80 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return int32(v), pos
		}
	}
}

// readS33 decodes a signed LEB128 value of at most 33 bits (block types).
func readS33(b []byte, pos int) (int64, int) {
	var v int64
	shift := uint(0)
	for {
		if pos >= len(b) {
			return 0, -1
		}
		c := b[pos]
		pos++
		if shift == 28 {
			if c&0x80 != 0 {
				return 0, -1
			}
			if c&0x10 == 0 && c&0x60 != 0 || c&0x10 != 0 && c&0x60 != 0x60 {
				return 0, -1
			}
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c < 0x80 {
			if c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, pos
		}
	}
}

// readS64 decodes a signed LEB128 value of at most 64 bits.
func readS64(b []byte, pos int) (int64, int) {
	var v int64
	shift := uint(0)
	for {
		if pos >= len(b) {
			return 0, -1
		}
		c := b[pos]
		pos++
		if shift == 63 {
			// Last byte holds only bit 63; the rest must sign-extend it.
			if c != 0 && c != 0x7f {
				return 0, -1
			}
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c < 0x80 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, pos
		}
	}
}

// AppendU32 appends v as unsigned LEB128.
func AppendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// AppendU64 appends v as unsigned LEB128.
func AppendU64(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// AppendS64 appends v as signed LEB128 (also right for i32 and s33 values).
func AppendS64(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// sizeU32 is the length of v as unsigned LEB128.
func sizeU32(v uint32) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}
