package bashprintf

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func (z nat) big() *big.Int {
	b := new(big.Int)
	for i := len(z) - 1; i >= 0; i-- {
		b.Lsh(b, 64)
		b.Or(b, new(big.Int).SetUint64(z[i]))
	}
	return b
}

// randNat returns a random nat of up to 8 words, often with long runs of
// zero or one bits.
func randNat(r *rand.Rand) nat {
	z := make(nat, r.IntN(9))
	for i := range z {
		switch r.IntN(4) {
		case 0:
			z[i] = 0
		case 1:
			z[i] = ^uint64(0)
		default:
			z[i] = r.Uint64()
		}
	}
	return z.norm()
}

// TestNat checks every operation of nat against math/big.
func TestNat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		x := randNat(r)
		bx := x.big()
		if x.bitLen() != bx.BitLen() {
			t.Fatalf("bitLen(%v) = %d, want %d", bx, x.bitLen(), bx.BitLen())
		}
		n := uint(r.IntN(600))
		if got, want := x.bit(n), uint64(bx.Bit(int(n))); got != want {
			t.Fatalf("bit(%v, %d) = %d, want %d", bx, n, got, want)
		}
		mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), n), big.NewInt(1))
		if got, want := x.lowBits(n), mask.And(mask, bx).Sign() != 0; got != want {
			t.Fatalf("lowBits(%v, %d) = %v, want %v", bx, n, got, want)
		}
		if got, want := x.shl(n).big(), new(big.Int).Lsh(bx, n); got.Cmp(want) != 0 {
			t.Fatalf("%v << %d = %v, want %v", bx, n, got, want)
		}
		q, lost := x.shr(n)
		if want := new(big.Int).Rsh(bx, n); q.big().Cmp(want) != 0 || lost != (new(big.Int).Lsh(want, n).Cmp(bx) != 0) {
			t.Fatalf("%v >> %d = %v %v, want %v", bx, n, q.big(), lost, want)
		}
		m, a := r.Uint64(), r.Uint64()
		if got, want := append(nat(nil), x...).mulAdd(m, a).big(), new(big.Int).Add(new(big.Int).Mul(bx, new(big.Int).SetUint64(m)), new(big.Int).SetUint64(a)); got.Cmp(want) != 0 {
			t.Fatalf("%v*%d+%d = %v, want %v", bx, m, a, got, want)
		}
		d := r.Uint64() >> r.IntN(64)
		if d == 0 {
			d = 1
		}
		var wq, wr big.Int
		wq.QuoRem(bx, new(big.Int).SetUint64(d), &wr)
		if gq, gr := append(nat(nil), x...).divWord(d); gq.big().Cmp(&wq) != 0 || gr != wr.Uint64() {
			t.Fatalf("%v / %d = %v r %d, want %v r %v", bx, d, gq.big(), gr, &wq, &wr)
		}
		k := r.IntN(120)
		p5 := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(k)), nil)
		if got := pow5(k).big(); got.Cmp(p5) != 0 {
			t.Fatalf("5**%d = %v, want %v", k, got, p5)
		}
		if got, want := append(nat(nil), x...).mulPow5(k).big(), new(big.Int).Mul(bx, p5); got.Cmp(want) != 0 {
			t.Fatalf("%v * 5**%d = %v, want %v", bx, k, got, want)
		}
		wq.QuoRem(bx, p5, &wr)
		if gq, inexact := append(nat(nil), x...).divPow5(k); gq.big().Cmp(&wq) != 0 || inexact != (wr.Sign() != 0) {
			t.Fatalf("%v / 5**%d = %v %v, want %v r %v", bx, k, gq.big(), inexact, &wq, &wr)
		}
		if got, want := string(append(nat(nil), x...).appendDecimal(nil)), bx.String(); got != want {
			t.Fatalf("decimal %s, want %s", got, want)
		}
	}
}
