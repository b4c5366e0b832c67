package bashprintf

import (
	"math"
	"math/bits"
)

// ldouble is an x86 80-bit long double: a 64-bit significand with an
// explicit integer bit. A finite value is mant * 2**exp; normal values have
// bit 63 of mant set, subnormals have exp == minExp.
type ldouble struct {
	neg  bool
	kind uint8
	mant uint64
	exp  int
}

const (
	finite uint8 = iota
	infinity
	notANumber
)

const (
	minExp = -16445          // exponent of the least significant bit of subnormals
	maxExp = 16383 - 63      // largest exponent of the least significant bit
	bias   = 16383           // exponent bias of the 80-bit format
	expCap = 1 << 30         // exponents beyond this are clamped while parsing
	decMax = 4934            // 10**(decMax-1) exceeds the largest long double
	decMin = -4952           // 10**decMin is below half the smallest subnormal
	binMax = maxExp + 64 + 1 // 2**binMax exceeds the largest long double
	binMin = minExp - 2      // 2**binMin is below half the smallest subnormal
)

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s starts with the lower-case word w,
// ignoring case.
func hasPrefixFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if lower(s[i]) != w[i] {
			return false
		}
	}
	return true
}

// strtold parses s like glibc's strtold in the C locale. end is the length
// of the parsed prefix (0 when s does not start with a number) and erange
// reports overflow or an inexact subnormal result.
func strtold(s string) (v ldouble, end int, erange bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		v.neg = s[i] == '-'
		i++
	}
	rest := s[i:]
	switch {
	case hasPrefixFold(rest, "inf"):
		v.kind = infinity
		if hasPrefixFold(rest, "infinity") {
			return v, i + 8, false
		}
		return v, i + 3, false
	case hasPrefixFold(rest, "nan"):
		v.kind = notANumber
		i += 3
		if i < len(s) && s[i] == '(' {
			j := i + 1
			for j < len(s) && (s[j] == '_' || isDigit(s[j]) || 'a' <= lower(s[j]) && lower(s[j]) <= 'z') {
				j++
			}
			if j < len(s) && s[j] == ')' {
				i = j + 1
			}
		}
		return v, i, false
	}
	if len(rest) > 2 && rest[0] == '0' && lower(rest[1]) == 'x' &&
		(hexVal(rest[2]) >= 0 || rest[2] == '.' && len(rest) > 3 && hexVal(rest[3]) >= 0) {
		return parseHexFloat(s, i+2, v.neg)
	}
	// Decimal: digits, optional fraction, optional exponent.
	var mant nat
	var small uint64 // digits accumulated before spilling into mant
	nsmall, nd := 0, 0
	digits, nonzero := 0, false
	dexp := 0
	sawDot := false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' && !sawDot {
			sawDot = true
			continue
		}
		if !isDigit(c) {
			break
		}
		digits++
		if sawDot {
			dexp--
		}
		if c != '0' {
			nonzero = true
		}
		if !nonzero {
			continue
		}
		small = small*10 + uint64(c-'0')
		nsmall++
		nd++
		if nsmall == 19 {
			mant = mant.mulAdd(pow10Word(nsmall), small)
			small, nsmall = 0, 0
		}
	}
	if digits == 0 {
		return ldouble{}, 0, false
	}
	if i < len(s) && lower(s[i]) == 'e' {
		if e, n := parseExp(s[i+1:]); n > 0 {
			dexp += e
			i += 1 + n
		}
	}
	end = i
	if !nonzero {
		return ldouble{neg: v.neg}, end, false
	}
	mant = mant.mulAdd(pow10Word(nsmall), small)
	return finishDecimal(mant, nd, dexp, v.neg, end)
}

// pow10Word returns 10**n for n <= 19.
func pow10Word(n int) uint64 {
	p := uint64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

// finishDecimal rounds num * 10**dexp (num has nd digits) to a long double.
func finishDecimal(num nat, nd, dexp int, neg bool, end int) (ldouble, int, bool) {
	if nd+dexp > decMax {
		return ldouble{neg: neg, kind: infinity}, end, true
	}
	if nd+dexp < decMin {
		return ldouble{neg: neg}, end, true
	}
	v, erange := roundRat(num, dexp, dexp)
	v.neg = neg
	return v, end, erange
}

// parseExp parses an optionally signed decimal exponent, clamping its
// magnitude; n is 0 when there are no digits.
func parseExp(s string) (e, n int) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	st := i
	for i < len(s) && isDigit(s[i]) {
		if e < expCap {
			e = e*10 + int(s[i]-'0')
		}
		i++
	}
	if i == st {
		return 0, 0
	}
	if neg {
		e = -e
	}
	return e, i
}

// parseHexFloat parses the hexadecimal float whose digits start at s[i].
func parseHexFloat(s string, i int, neg bool) (ldouble, int, bool) {
	var mant nat
	var small uint64
	nsmall := 0
	bexp := 0
	nonzero, sawDot := false, false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' && !sawDot {
			sawDot = true
			continue
		}
		d := hexVal(c)
		if d < 0 {
			break
		}
		if sawDot {
			bexp -= 4
		}
		if d != 0 {
			nonzero = true
		}
		if !nonzero {
			continue
		}
		small = small<<4 | uint64(d)
		nsmall++
		if nsmall == 15 {
			mant = mant.mulAdd(1<<60, small)
			small, nsmall = 0, 0
		}
	}
	if nsmall > 0 {
		mant = mant.mulAdd(1<<(4*nsmall), small)
	}
	if i < len(s) && lower(s[i]) == 'p' {
		if e, n := parseExp(s[i+1:]); n > 0 {
			bexp += e
			i += 1 + n
		}
	}
	if !nonzero {
		return ldouble{neg: neg}, i, false
	}
	bl := mant.bitLen()
	if bl+bexp > binMax {
		return ldouble{neg: neg, kind: infinity}, i, true
	}
	if bl+bexp < binMin {
		return ldouble{neg: neg}, i, true
	}
	v, erange := roundRat(mant, bexp, 0)
	v.neg = neg
	return v, i, erange
}

// roundRat rounds the positive num * 2**e2 * 5**e5 to the nearest long
// double, ties to even. erange reports overflow, underflow to zero or an
// inexact subnormal. num's storage is reused.
func roundRat(num nat, e2, e5 int) (ldouble, bool) {
	// The value is n * 2**e2 / d with d a power of five.
	n, dlen := num, 1
	if e5 >= 0 {
		n = n.mulPow5(e5)
	} else {
		dlen = pow5(-e5).bitLen()
	}
	// Scale so that the quotient q has 66 or 67 bits: 64 to keep and at
	// least two to round with.
	s := 66 - (n.bitLen() + e2 - dlen)
	var q nat
	inexact := false
	if t := e2 + s; t >= 0 {
		q = n.shl(uint(t))
	} else {
		q, inexact = n.shr(uint(-t))
	}
	if e5 < 0 {
		var rem bool
		q, rem = q.divPow5(-e5)
		inexact = inexact || rem
	}
	exp := -s // exponent of the least significant bit of q
	drop := q.bitLen() - 64
	if exp+drop < minExp {
		drop = minExp - exp
	}
	var mant uint64
	if drop > q.bitLen() {
		// Below half the smallest subnormal.
		inexact = true
	} else {
		// The dropped bits are above, at or below half of the last bit
		// kept: half is their top bit, below whether any other is set.
		var half, below bool
		if drop > 0 {
			half = q.bit(uint(drop-1)) == 1
			below = q.lowBits(uint(drop - 1))
			q, _ = q.shr(uint(drop))
		}
		mant = q.low64()
		if half && (below || inexact || mant&1 == 1) {
			if mant == math.MaxUint64 {
				mant = 1 << 63
				exp++
			} else {
				mant++
			}
		}
		if half || below {
			inexact = true
		}
	}
	exp += drop
	if exp > maxExp {
		return ldouble{kind: infinity}, true
	}
	if mant == 0 {
		return ldouble{}, true
	}
	return ldouble{mant: mant, exp: exp}, mant < 1<<63 && inexact
}

// getFloat consumes the next argument as bash's getfloatmax does.
func (p *printer) getFloat() ldouble {
	if p.ai >= len(p.args) {
		return ldouble{}
	}
	s := p.args[p.ai]
	p.ai++
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		return fromInt(p.charValue(s))
	}
	v, end, erange := strtold(s)
	if end != len(s) {
		p.invalidNumber(s)
	} else if erange {
		p.warnf(s + erangeText)
	}
	return v
}

func fromInt(i int64) ldouble {
	var v ldouble
	u := uint64(i)
	if i < 0 {
		v.neg = true
		u = -u
	}
	if u == 0 {
		return v
	}
	z := bits.LeadingZeros64(u)
	v.mant = u << z
	v.exp = -z
	return v
}

// scaled returns |v| * 10**p as an integer, rounded to nearest with ties
// to even, or truncated when floor is set.
func (v *ldouble) scaled(p int, floor bool) nat {
	// n = floor(2 * |v| * 10**p) = floor(2 * mant * 2**(exp+p) * 5**p): its
	// last bit and any remainder decide the rounding.
	n := natOf(v.mant)
	if p > 0 {
		n = n.mulPow5(p)
	}
	sticky := false
	if t := 1 + v.exp + p; t >= 0 {
		n = n.shl(uint(t))
	} else {
		n, sticky = n.shr(uint(-t))
	}
	if p < 0 {
		var rem bool
		n, rem = n.divPow5(-p)
		sticky = sticky || rem
	}
	half := n.bit(0) == 1
	n, _ = n.shr(1)
	if !floor && half && (sticky || n.bit(0) == 1) {
		n = n.mulAdd(1, 1)
	}
	return n
}

// decimal returns the digits of |v| rounded to prec+1 significant digits
// and the decimal exponent of the first one.
func (v *ldouble) decimal(prec int) (digits []byte, x int) {
	if v.mant == 0 {
		d := make([]byte, prec+1)
		for i := range d {
			d[i] = '0'
		}
		return d, 0
	}
	// Find x with 10**x <= |v| < 10**(x+1), starting from an estimate.
	lg := (math.Log2(float64(v.mant)) + float64(v.exp)) * math.Log10(2)
	x = int(math.Floor(lg))
	for {
		if v.scaled(-x, true).isZero() {
			x--
		} else if !v.scaled(-x-1, true).isZero() {
			x++
		} else {
			break
		}
	}
	n := v.scaled(prec-x, false)
	d := n.appendDecimal(nil)
	if len(d) > prec+1 {
		// Rounding carried into a new digit: 9.99 -> 10.0.
		d = d[:prec+1]
		x++
	}
	return d, x
}

func upperCase(conv byte) bool { return conv == 'E' || conv == 'F' || conv == 'G' || conv == 'A' }

// formatFloat prints v for e E f F g G a A as glibc prints a long double.
func (p *printer) formatFloat(sp *spec, v ldouble) {
	c := parseC(sp, "L")
	if c.fail {
		return
	}
	if c.unknown {
		p.putUnknown(&c)
		return
	}
	up := upperCase(sp.conv)
	var sign []byte
	switch {
	case v.neg:
		sign = []byte{'-'}
	case c.plus:
		sign = []byte{'+'}
	case c.space:
		sign = []byte{' '}
	}
	if v.kind != finite {
		s := "inf"
		if v.kind == notANumber {
			s = "nan"
		}
		if up {
			s = string([]byte{s[0] - 32, s[1] - 32, s[2] - 32})
		}
		p.field(&c, sign, []byte(s), false)
		return
	}
	prec := c.prec
	if prec > maxOutputGuard && !p.room(prec) {
		return
	}
	var body []byte
	switch sp.conv {
	case 'f', 'F':
		if prec < 0 {
			prec = 6
		}
		body = fixed(v.scaled(prec, false).appendDecimal(nil), prec, c.alt)
	case 'e', 'E':
		if prec < 0 {
			prec = 6
		}
		d, x := v.decimal(prec)
		body = expForm(d, x, c.alt, up)
	case 'g', 'G':
		if prec < 0 {
			prec = 6
		} else if prec == 0 {
			prec = 1
		}
		d, x := v.decimal(prec - 1)
		if prec > x && x >= -4 {
			body = gFixed(d, x, c.alt)
		} else {
			if !c.alt {
				d = trimZeros(d, 1)
			}
			body = expForm(d, x, c.alt, up)
		}
	case 'a', 'A':
		var pre []byte
		pre, body = hexForm(&v, prec, c.alt, up)
		sign = append(sign, pre...)
	}
	p.field(&c, sign, body, c.zero)
}

// maxOutputGuard is the precision above which formatFloat checks the
// output limit before computing digits.
const maxOutputGuard = 4096

// fixed places a decimal point prec digits from the right of the integer
// digits n.
func fixed(n []byte, prec int, alt bool) []byte {
	if len(n) <= prec {
		z := make([]byte, prec+1-len(n), prec+2)
		for i := range z {
			z[i] = '0'
		}
		n = append(z, n...)
	}
	ip := len(n) - prec
	out := make([]byte, 0, len(n)+1)
	out = append(out, n[:ip]...)
	if prec > 0 || alt {
		out = append(out, '.')
	}
	return append(out, n[ip:]...)
}

// trimZeros drops trailing '0's of d, keeping at least keep digits.
func trimZeros(d []byte, keep int) []byte {
	for len(d) > keep && d[len(d)-1] == '0' {
		d = d[:len(d)-1]
	}
	return d
}

// expForm writes d[0].d[1:] followed by the exponent x.
func expForm(d []byte, x int, alt, up bool) []byte {
	out := make([]byte, 0, len(d)+8)
	out = append(out, d[0])
	if len(d) > 1 || alt {
		out = append(out, '.')
	}
	out = append(out, d[1:]...)
	if up {
		out = append(out, 'E')
	} else {
		out = append(out, 'e')
	}
	if x < 0 {
		out = append(out, '-')
		x = -x
	} else {
		out = append(out, '+')
	}
	if x < 10 {
		out = append(out, '0')
	}
	return append(out, itoa(uint64(x))...)
}

// gFixed writes the significant digits d with decimal exponent x in %g's
// fixed style.
func gFixed(d []byte, x int, alt bool) []byte {
	out := make([]byte, 0, len(d)+8)
	var ip, fp []byte
	if x >= 0 {
		ip, fp = d[:x+1], d[x+1:]
	} else {
		ip = []byte{'0'}
		fp = make([]byte, 0, len(d)-x)
		for k := 0; k < -x-1; k++ {
			fp = append(fp, '0')
		}
		fp = append(fp, d...)
	}
	if !alt {
		fp = trimZeros(fp, 0)
	}
	out = append(out, ip...)
	if len(fp) > 0 || alt {
		out = append(out, '.')
	}
	return append(out, fp...)
}

// hexForm renders v for %a like glibc's long double code: the first hex
// digit holds the top four bits of the 64-bit significand.
func hexForm(v *ldouble, prec int, alt, up bool) (pre, body []byte) {
	digits := lowerHex
	pre = []byte("0x")
	pch := byte('p')
	if up {
		digits = upperHex
		pre = []byte("0X")
		pch = 'P'
	}
	var num [16]byte
	for k := 0; k < 16; k++ {
		num[k] = digits[(v.mant>>(60-4*k))&0xf]
	}
	leading := num[0]
	frac := num[1:]
	exponent, expNeg := 0, false
	if v.mant == 0 {
		frac = frac[:0]
		if prec < 0 {
			prec = 0
		}
	} else {
		biased := v.exp + 63 + bias
		if v.mant < 1<<63 {
			exponent, expNeg = bias-1+3, true
		} else if biased >= bias+3 {
			exponent = biased - (bias + 3)
		} else {
			exponent, expNeg = bias+3-biased, true
		}
		n := len(frac)
		for n > 0 && frac[n-1] == '0' {
			n--
		}
		frac = frac[:n]
		if prec < 0 {
			prec = n
		} else if prec < n {
			last := leading
			if prec > 0 {
				last = frac[prec-1]
			}
			next := hexVal(frac[prec])
			more := next&7 != 0 || prec+1 < n
			if next >= 8 && (more || hexVal(last)&1 == 1) {
				// Round up, carrying through 'f's.
				k := prec - 1
				for ; k >= 0; k-- {
					ch := frac[k]
					if ch == '9' {
						frac[k] = digits[10]
						break
					}
					if lower(ch) < 'f' {
						frac[k]++
						break
					}
					frac[k] = '0'
				}
				if k < 0 {
					switch {
					case leading == '9':
						leading = digits[10]
					case lower(leading) < 'f':
						leading++
					default:
						leading = '1'
						if expNeg {
							exponent -= 4
							if exponent <= 0 {
								exponent, expNeg = -exponent, false
							}
						} else {
							exponent += 4
						}
					}
				}
			}
			frac = frac[:prec]
		}
	}
	body = make([]byte, 0, 24+prec)
	body = append(body, leading)
	if prec > 0 || alt {
		body = append(body, '.')
	}
	body = append(body, frac...)
	for k := len(frac); k < prec; k++ {
		body = append(body, '0')
	}
	body = append(body, pch)
	if expNeg {
		body = append(body, '-')
	} else {
		body = append(body, '+')
	}
	return pre, append(body, itoa(uint64(exponent))...)
}
