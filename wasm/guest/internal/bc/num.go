package bc

import (
	"math/big"
	"strings"
)

// Num is a bc number: V / 10^Scale.
type Num struct {
	V     *big.Int
	Scale int
}

var (
	bigTen = big.NewInt(10)
	pow10s []*big.Int
)

func pow10(n int) *big.Int {
	for len(pow10s) <= n && len(pow10s) < 512 {
		if len(pow10s) == 0 {
			pow10s = append(pow10s, big.NewInt(1))
			continue
		}
		pow10s = append(pow10s, new(big.Int).Mul(pow10s[len(pow10s)-1], bigTen))
	}
	if n < len(pow10s) {
		return pow10s[n]
	}
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

func intNum(v int64) Num { return Num{big.NewInt(v), 0} }

func zero() Num { return Num{new(big.Int), 0} }

// rescale returns n with the given scale, truncating toward zero.
func (n Num) rescale(s int) Num {
	switch {
	case s == n.Scale:
		return n
	case s > n.Scale:
		return Num{new(big.Int).Mul(n.V, pow10(s-n.Scale)), s}
	}
	return Num{new(big.Int).Quo(n.V, pow10(n.Scale-s)), s}
}

func (n Num) isZero() bool { return n.V.Sign() == 0 }

func add(a, b Num) Num {
	s := max(a.Scale, b.Scale)
	a, b = a.rescale(s), b.rescale(s)
	return Num{new(big.Int).Add(a.V, b.V), s}
}

func sub(a, b Num) Num {
	s := max(a.Scale, b.Scale)
	a, b = a.rescale(s), b.rescale(s)
	return Num{new(big.Int).Sub(a.V, b.V), s}
}

func mul(a, b Num, scale int) Num {
	r := Num{new(big.Int).Mul(a.V, b.V), a.Scale + b.Scale}
	return r.rescale(min(a.Scale+b.Scale, max(scale, a.Scale, b.Scale)))
}

// div divides at the given scale, truncating; ok is false for a zero
// divisor.
func div(a, b Num, scale int) (Num, bool) {
	if b.isZero() {
		return Num{}, false
	}
	// a/b = (a.V*10^(scale+b.Scale-a.Scale)) / b.V at scale.
	num := new(big.Int).Set(a.V)
	shift := scale + b.Scale - a.Scale
	if shift >= 0 {
		num.Mul(num, pow10(shift))
	} else {
		num.Quo(num, pow10(-shift))
	}
	return Num{num.Quo(num, b.V), scale}, true
}

func mod(a, b Num, scale int) (Num, bool) {
	q, ok := div(a, b, scale)
	if !ok {
		return Num{}, false
	}
	rs := max(scale+b.Scale, a.Scale)
	p := Num{new(big.Int).Mul(q.V, b.V), q.Scale + b.Scale}
	return sub(a.rescale(rs), p.rescale(rs)).rescale(rs), true
}

func cmp(a, b Num) int {
	s := max(a.Scale, b.Scale)
	return a.rescale(s).V.Cmp(b.rescale(s).V)
}

// power raises a to an integer exponent.
func power(a Num, e int64, scale int) (Num, bool) {
	if e == 0 {
		return intNum(1), true
	}
	neg := e < 0
	if neg {
		e = -e
	}
	rs := scale
	if !neg {
		rs = min(a.Scale*int(min(e, 1<<20)), max(scale, a.Scale))
	}
	r := Num{new(big.Int).Exp(a.V, big.NewInt(e), nil), a.Scale * int(e)}
	if neg {
		return div(intNum(1), r, rs)
	}
	return r.rescale(rs), true
}

// sqrtNum is the square root at scale max(scale, a.Scale), truncated.
func sqrtNum(a Num, scale int) (Num, bool) {
	if a.V.Sign() < 0 {
		return Num{}, false
	}
	s := max(scale, a.Scale)
	v := a.rescale(2 * s).V
	return Num{new(big.Int).Sqrt(v), s}, true
}

// length is the number of significant decimal digits.
func length(a Num) int {
	if a.isZero() {
		if a.Scale > 0 {
			return a.Scale
		}
		return 1
	}
	d := len(new(big.Int).Abs(a.V).String())
	return max(d, a.Scale)
}

// toInt64 truncates a to an integer, saturating.
func toInt64(a Num) int64 {
	i := a.rescale(0).V
	if !i.IsInt64() {
		if i.Sign() < 0 {
			return -1 << 62
		}
		return 1 << 62
	}
	return i.Int64()
}

// format writes a in base obase as bc prints it (no line splitting).
func format(a Num, obase int) string {
	var b strings.Builder
	v := new(big.Int).Set(a.V)
	if v.Sign() < 0 {
		b.WriteByte('-')
		v.Neg(v)
	}
	ip, fp := new(big.Int).QuoRem(v, pow10(a.Scale), new(big.Int))
	if obase == 10 {
		if ip.Sign() != 0 || a.Scale == 0 {
			b.WriteString(ip.String())
		}
		if a.Scale > 0 {
			f := fp.String()
			b.WriteByte('.')
			b.WriteString(strings.Repeat("0", a.Scale-len(f)))
			b.WriteString(f)
		}
		if a.V.Sign() == 0 && a.Scale > 0 {
			return "0"
		}
		return b.String()
	}
	wide := obase > 16
	digit := func(d int64, first bool) {
		if wide {
			w := len(itoa(int64(obase - 1)))
			s := itoa(d)
			b.WriteByte(' ')
			b.WriteString(strings.Repeat("0", w-len(s)))
			b.WriteString(s)
			return
		}
		b.WriteByte("0123456789ABCDEF"[d])
	}
	if ip.Sign() == 0 {
		if a.Scale == 0 || wide {
			digit(0, true)
		}
	} else {
		var digits []int64
		ob := big.NewInt(int64(obase))
		r := new(big.Int)
		for ip.Sign() > 0 {
			ip.QuoRem(ip, ob, r)
			digits = append(digits, r.Int64())
		}
		for i := len(digits) - 1; i >= 0; i-- {
			digit(digits[i], i == len(digits)-1)
		}
	}
	if a.Scale > 0 {
		b.WriteByte('.')
		// Enough digits that obase^k >= 10^scale.
		one := pow10(a.Scale)
		f := new(big.Int).Set(fp)
		ob := big.NewInt(int64(obase))
		prec := big.NewInt(1)
		for prec.Cmp(one) < 0 {
			f.Mul(f, ob)
			d := new(big.Int).Quo(f, one)
			f.Sub(f, new(big.Int).Mul(d, one))
			digit(d.Int64(), false)
			prec.Mul(prec, ob)
		}
	}
	if a.V.Sign() == 0 && a.Scale > 0 {
		return "0"
	}
	return b.String()
}

func itoa(v int64) string { return big.NewInt(v).String() }

// parseNumber converts a numeric constant in base ibase. A single digit
// keeps its value whatever the base, as POSIX says.
func parseNumber(s string, ibase int) Num {
	ip, fp, _ := strings.Cut(s, ".")
	digit := func(c byte) int64 {
		if c >= '0' && c <= '9' {
			return int64(c - '0')
		}
		return int64(c-'A') + 10
	}
	if len(s) == 1 {
		return intNum(digit(s[0]))
	}
	if ibase == 10 {
		v, _ := new(big.Int).SetString(ip+fp, 10)
		if v == nil {
			v = new(big.Int)
			for i := 0; i < len(ip+fp); i++ {
				v.Mul(v, bigTen)
				v.Add(v, big.NewInt(digit((ip + fp)[i])))
			}
		}
		return Num{v, len(fp)}
	}
	b := big.NewInt(int64(ibase))
	v := new(big.Int)
	for i := 0; i < len(ip); i++ {
		v.Mul(v, b)
		v.Add(v, big.NewInt(digit(ip[i])))
	}
	n := Num{v, 0}
	if fp != "" {
		// Fraction digits d1 d2 ... in base ibase, at scale len(fp).
		num := new(big.Int)
		den := big.NewInt(1)
		for i := 0; i < len(fp); i++ {
			num.Mul(num, b)
			num.Add(num, big.NewInt(digit(fp[i])))
			den.Mul(den, b)
		}
		sc := len(fp)
		f := new(big.Int).Mul(num, pow10(sc))
		f.Quo(f, den)
		n = add(n, Num{f, sc})
	}
	return n
}
