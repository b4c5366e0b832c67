package bc

import "math/big"

// The -l math library, computed in fixed point with guard digits: a value
// x stands for x / 10^w. Results are truncated to the caller's scale, as
// GNU bc's library functions truncate.

type fixed struct{ w int }

func (f fixed) one() *big.Int { return new(big.Int).Set(pow10(f.w)) }

func (f fixed) from(n Num) *big.Int { return n.rescale(f.w).V }

func (f fixed) mul(a, b *big.Int) *big.Int {
	r := new(big.Int).Mul(a, b)
	return r.Quo(r, pow10(f.w))
}

func (f fixed) div(a, b *big.Int) *big.Int {
	r := new(big.Int).Mul(a, pow10(f.w))
	return r.Quo(r, b)
}

func (f fixed) sqrt(a *big.Int) *big.Int {
	r := new(big.Int).Mul(a, pow10(f.w))
	return r.Sqrt(r)
}

func (f fixed) toNum(v *big.Int, scale int) Num {
	return Num{v, f.w}.rescale(scale)
}

// exp is e^x for |x| small enough that the caller chose w well.
func (f fixed) exp(x *big.Int) *big.Int {
	neg := x.Sign() < 0
	x = new(big.Int).Abs(x)
	// Halve until x < 1, sum the series, square back.
	k := 0
	one := f.one()
	for x.Cmp(one) >= 0 {
		x.Quo(x, big.NewInt(2))
		k++
	}
	sum, term := f.one(), f.one()
	for i := int64(1); term.Sign() != 0; i++ {
		term = f.mul(term, x)
		term.Quo(term, big.NewInt(i))
		sum.Add(sum, term)
	}
	for ; k > 0; k-- {
		sum = f.mul(sum, sum)
	}
	if neg {
		return f.div(one, sum)
	}
	return sum
}

// ln is the natural logarithm of x > 0.
func (f fixed) ln(x *big.Int) *big.Int {
	one := f.one()
	// Take square roots until x is near 1, then ln x = 2 atanh((x-1)/(x+1)).
	k := 0
	lo := new(big.Int).Quo(new(big.Int).Mul(one, big.NewInt(9)), big.NewInt(10))
	hi := new(big.Int).Quo(new(big.Int).Mul(one, big.NewInt(11)), big.NewInt(10))
	for x.Cmp(lo) < 0 || x.Cmp(hi) > 0 {
		x = f.sqrt(x)
		k++
	}
	y := f.div(new(big.Int).Sub(x, one), new(big.Int).Add(x, one))
	y2 := f.mul(y, y)
	sum, term := new(big.Int).Set(y), new(big.Int).Set(y)
	for i := int64(3); ; i += 2 {
		term = f.mul(term, y2)
		t := new(big.Int).Quo(term, big.NewInt(i))
		if t.Sign() == 0 {
			break
		}
		sum.Add(sum, t)
	}
	sum.Mul(sum, big.NewInt(2))
	return sum.Lsh(sum, uint(k))
}

// atan is the arctangent of x.
func (f fixed) atan(x *big.Int) *big.Int {
	one := f.one()
	neg := x.Sign() < 0
	x = new(big.Int).Abs(x)
	invert := x.Cmp(one) > 0
	if invert {
		x = f.div(one, x)
	}
	// atan x = 2 atan(x / (1 + sqrt(1 + x^2))) until x is small.
	k := 0
	small := new(big.Int).Quo(one, big.NewInt(5))
	for x.Cmp(small) > 0 {
		x = f.div(x, new(big.Int).Add(one, f.sqrt(new(big.Int).Add(one, f.mul(x, x)))))
		k++
	}
	x2 := f.mul(x, x)
	sum, term := new(big.Int).Set(x), new(big.Int).Set(x)
	for i := int64(3); ; i += 2 {
		term = f.mul(term, x2)
		term.Neg(term)
		t := new(big.Int).Quo(term, big.NewInt(i))
		if t.Sign() == 0 {
			break
		}
		sum.Add(sum, t)
	}
	sum.Lsh(sum, uint(k))
	if invert {
		sum.Sub(f.halfPi(), sum)
	}
	if neg {
		sum.Neg(sum)
	}
	return sum
}

func (f fixed) halfPi() *big.Int {
	// pi/2 = 2 atan(1) via Machin: pi/4 = 4 atan(1/5) - atan(1/239).
	a := f.atanSmall(new(big.Int).Quo(f.one(), big.NewInt(5)))
	b := f.atanSmall(new(big.Int).Quo(f.one(), big.NewInt(239)))
	p4 := new(big.Int).Sub(new(big.Int).Mul(a, big.NewInt(4)), b)
	return p4.Mul(p4, big.NewInt(2))
}

// atanSmall sums the arctangent series directly (|x| well below 1).
func (f fixed) atanSmall(x *big.Int) *big.Int {
	x2 := f.mul(x, x)
	sum, term := new(big.Int).Set(x), new(big.Int).Set(x)
	for i := int64(3); ; i += 2 {
		term = f.mul(term, x2)
		term.Neg(term)
		t := new(big.Int).Quo(term, big.NewInt(i))
		if t.Sign() == 0 {
			break
		}
		sum.Add(sum, t)
	}
	return sum
}

// sin is the sine of x, reduced modulo 2 pi first.
func (f fixed) sin(x *big.Int) *big.Int {
	twoPi := new(big.Int).Mul(f.halfPi(), big.NewInt(4))
	pi := new(big.Int).Mul(f.halfPi(), big.NewInt(2))
	x = new(big.Int).Rem(x, twoPi)
	if x.Cmp(pi) > 0 {
		x.Sub(x, twoPi)
	} else if new(big.Int).Neg(x).Cmp(pi) > 0 {
		x.Add(x, twoPi)
	}
	x2 := f.mul(x, x)
	sum, term := new(big.Int).Set(x), new(big.Int).Set(x)
	for i := int64(2); ; i += 2 {
		term = f.mul(term, x2)
		term.Quo(term, big.NewInt(i*(i+1)))
		term.Neg(term)
		if term.Sign() == 0 {
			break
		}
		sum.Add(sum, term)
	}
	return sum
}

// bessel is the Bessel function of the first kind of integer order n.
func (f fixed) bessel(n int64, x *big.Int) *big.Int {
	neg := false
	if n < 0 {
		n = -n
		neg = n%2 == 1
	}
	half := new(big.Int).Quo(x, big.NewInt(2))
	// term0 = (x/2)^n / n!
	term := f.one()
	for i := int64(1); i <= n; i++ {
		term = f.mul(term, half)
		term.Quo(term, big.NewInt(i))
	}
	h2 := f.mul(half, half)
	sum := new(big.Int).Set(term)
	for k := int64(1); ; k++ {
		term = f.mul(term, h2)
		term.Quo(term, big.NewInt(k*(k+n)))
		term.Neg(term)
		if term.Sign() == 0 {
			break
		}
		sum.Add(sum, term)
	}
	if neg {
		sum.Neg(sum)
	}
	return sum
}

// mathCall evaluates s, c, a, l, e and j.
func (in *interp) mathCall(n *node) (Num, bool) {
	want := map[string]int{"s": 1, "c": 1, "a": 1, "l": 1, "e": 1, "j": 2}
	k, ok := want[n.name]
	if !ok {
		return Num{}, false
	}
	if len(n.args) != k {
		in.fail("Parameter number mismatch")
	}
	args := make([]Num, k)
	for i, a := range n.args {
		if a.kind == nArray {
			in.fail("Parameter type mismatch")
		}
		args[i] = in.eval(a)
	}
	x := args[len(args)-1]
	scale := in.scale
	digits := len(new(big.Int).Abs(x.rescale(0).V).String())
	f := fixed{w: scale + 12 + digits}
	switch n.name {
	case "s":
		return f.toNum(f.sin(f.from(x)), scale), true
	case "c":
		v := new(big.Int).Add(f.from(x), f.halfPi())
		return f.toNum(f.sin(v), scale), true
	case "a":
		return f.toNum(f.atan(f.from(x)), scale), true
	case "l":
		if x.V.Sign() <= 0 {
			// GNU's library answers -(10^scale - 1)... for l(0) and
			// negative arguments; report it as an error instead.
			in.fail("logarithm of a non-positive number")
		}
		return f.toNum(f.ln(f.from(x)), scale), true
	case "e":
		// e^x has about 0.4343 x integer digits; keep scale digits after them.
		xi := toInt64(x)
		if xi > 1<<20 {
			in.fail("exponent too large")
		}
		extra := 0
		if xi > 0 {
			extra = int(xi)/2 + 1
		}
		f.w += extra + 2*bitLen(xi)
		return f.toNum(f.exp(f.from(x)), scale), true
	}
	order := toInt64(args[0])
	return f.toNum(f.bessel(order, f.from(x)), scale), true
}

func bitLen(v int64) int {
	if v < 0 {
		v = -v
	}
	n := 0
	for ; v > 0; v >>= 1 {
		n++
	}
	return n
}
