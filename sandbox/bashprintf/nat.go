package bashprintf

import "math/bits"

// nat is an unsigned integer of any size, least significant word first,
// with no zero words at the top (zero is the empty nat).
//
// It does only what exact long double conversion needs: multiplying by a
// word and adding one, shifting, and dividing by a word. Every divisor
// there is a power of two times a power of five, so dividing by a word at a
// time is enough, and math/big (about 150 KB of the js/wasm core's code)
// is not needed.
type nat []uint64

func (z nat) norm() nat {
	for len(z) > 0 && z[len(z)-1] == 0 {
		z = z[:len(z)-1]
	}
	return z
}

// natOf returns x as a nat.
func natOf(x uint64) nat {
	if x == 0 {
		return nil
	}
	return nat{x}
}

func (z nat) isZero() bool { return len(z) == 0 }

// bitLen returns the number of bits needed to write z.
func (z nat) bitLen() int {
	if len(z) == 0 {
		return 0
	}
	return 64*(len(z)-1) + bits.Len64(z[len(z)-1])
}

// lowBits reports whether any of the n lowest bits of z is set.
func (z nat) lowBits(n uint) bool {
	for i, w := range z {
		switch {
		case uint(i+1)*64 <= n:
			if w != 0 {
				return true
			}
		case uint(i)*64 < n:
			return w<<(64-n%64) != 0
		default:
			return false
		}
	}
	return false
}

// bit returns bit i of z.
func (z nat) bit(i uint) uint64 {
	w := i / 64
	if w >= uint(len(z)) {
		return 0
	}
	return z[w] >> (i % 64) & 1
}

// low64 returns the lowest 64 bits of z.
func (z nat) low64() uint64 {
	if len(z) == 0 {
		return 0
	}
	return z[0]
}

// mulAdd returns z*m + a, reusing z's storage.
func (z nat) mulAdd(m, a uint64) nat {
	carry := a
	for i, w := range z {
		hi, lo := bits.Mul64(w, m)
		lo, c := bits.Add64(lo, carry, 0)
		z[i] = lo
		carry = hi + c
	}
	if carry != 0 {
		z = append(z, carry)
	}
	return z.norm()
}

// shl returns z << n in new storage.
func (z nat) shl(n uint) nat {
	if len(z) == 0 {
		return nil
	}
	ws, bs := int(n/64), n%64
	r := make(nat, len(z)+ws+1)
	for i, w := range z {
		r[i+ws] |= w << bs
		if bs != 0 {
			r[i+ws+1] = w >> (64 - bs)
		}
	}
	return r.norm()
}

// shr returns z >> n in new storage, and whether any bit shifted out was
// set.
func (z nat) shr(n uint) (nat, bool) {
	ws, bs := int(n/64), n%64
	if ws >= len(z) {
		return nil, len(z) > 0
	}
	lost := false
	for _, w := range z[:ws] {
		lost = lost || w != 0
	}
	if bs != 0 && z[ws]<<(64-bs) != 0 {
		lost = true
	}
	r := make(nat, len(z)-ws)
	for i := range r {
		r[i] = z[i+ws] >> bs
		if bs != 0 && i+ws+1 < len(z) {
			r[i] |= z[i+ws+1] << (64 - bs)
		}
	}
	return r.norm(), lost
}

// divWord returns z / d (d > 0), reusing z's storage, and the remainder.
func (z nat) divWord(d uint64) (nat, uint64) {
	var r uint64
	for i := len(z) - 1; i >= 0; i-- {
		z[i], r = bits.Div64(r, z[i], d)
	}
	return z.norm(), r
}

// pow5Word is the largest power of five in a word, and pow5Digits its
// exponent.
const (
	pow5Word   = 7450580596923828125 // 5**27
	pow5Digits = 27
)

// pow5 returns 5**n.
func pow5(n int) nat { return natOf(1).mulPow5(n) }

// mulPow5 returns z * 5**n, reusing z's storage.
func (z nat) mulPow5(n int) nat {
	for ; n >= pow5Digits; n -= pow5Digits {
		z = z.mulAdd(pow5Word, 0)
	}
	p := uint64(1)
	for ; n > 0; n-- {
		p *= 5
	}
	return z.mulAdd(p, 0)
}

// divPow5 returns z / 5**n, reusing z's storage, and whether the division
// left a remainder. Dividing by the factors one after another gives the
// same quotient as dividing by their product.
func (z nat) divPow5(n int) (nat, bool) {
	inexact := false
	var r uint64
	for ; n >= pow5Digits; n -= pow5Digits {
		z, r = z.divWord(pow5Word)
		inexact = inexact || r != 0
	}
	p := uint64(1)
	for ; n > 0; n-- {
		p *= 5
	}
	if p > 1 {
		z, r = z.divWord(p)
		inexact = inexact || r != 0
	}
	return z, inexact
}

// appendDecimal appends the decimal digits of z ("0" for zero) to b. It
// consumes z.
func (z nat) appendDecimal(b []byte) []byte {
	if len(z) == 0 {
		return append(b, '0')
	}
	const chunk = 10000000000000000000 // 10**19
	var parts []uint64                 // 19-digit groups, least significant first
	for len(z) > 0 {
		var r uint64
		z, r = z.divWord(chunk)
		parts = append(parts, r)
	}
	var buf [20]byte
	for i := len(parts) - 1; i >= 0; i-- {
		n := len(buf)
		for v := parts[i]; v > 0; v /= 10 {
			n--
			buf[n] = byte('0' + v%10)
		}
		if i < len(parts)-1 {
			for n > len(buf)-19 {
				n--
				buf[n] = '0'
			}
		}
		b = append(b, buf[n:]...)
	}
	return b
}
