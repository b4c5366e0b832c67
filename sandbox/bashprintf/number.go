package bashprintf

import (
	"math"
	"unicode/utf8"
)

const erangeText = ": Numerical result out of range"

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool {
	return c == ' ' || '\t' <= c && c <= '\r'
}

func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// strtoint parses s like glibc's strtoimax (signed) or strtoumax with base
// 0. It returns the value (two's complement for signed), the length of the
// parsed prefix (0 when there are no digits) and whether the value was out
// of range and clamped.
func strtoint(s string, signed bool) (v uint64, end int, erange bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := uint64(10)
	if i < len(s) && s[i] == '0' {
		if i+2 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') && hexVal(s[i+2]) >= 0 {
			base = 16
			i += 2
		} else {
			base = 8
		}
	}
	digStart := i
	var mag uint64
	over := false
	for i < len(s) {
		d := hexVal(s[i])
		if d < 0 || uint64(d) >= base {
			break
		}
		if !over {
			hi, lo := mulAdd(mag, base, uint64(d))
			if hi != 0 {
				over = true
			} else {
				mag = lo
			}
		}
		i++
	}
	if i == digStart {
		return 0, 0, false
	}
	if signed {
		limit := uint64(math.MaxInt64)
		if neg {
			limit++
		}
		if over || mag > limit {
			if neg {
				return 1 << 63, i, true
			}
			return math.MaxInt64, i, true
		}
	} else if over {
		return math.MaxUint64, i, true
	}
	if neg {
		mag = -mag
	}
	return mag, i, false
}

// mulAdd returns the 128-bit a*b+c as hi, lo.
func mulAdd(a, b, c uint64) (hi, lo uint64) {
	const mask = 1<<32 - 1
	// b is at most 16, so a*b fits in 68 bits.
	lh := (a >> 32) * b
	ll := (a & mask) * b
	lo = ll + (lh << 32)
	carry := uint64(0)
	if lo < ll {
		carry = 1
	}
	hi = lh>>32 + carry
	lo2 := lo + c
	if lo2 < lo {
		hi++
	}
	return hi, lo2
}

// invalidNumber records bash's diagnostic for an argument that is not
// entirely a number.
func (p *printer) invalidNumber(s string) {
	msg := "invalid number"
	if len(s) > 1 && s[0] == '0' {
		if isDigit(s[1]) {
			msg = "invalid octal number"
		} else if s[1] == 'x' {
			msg = "invalid hex number"
		}
	}
	p.errorf(s + ": " + msg)
	p.convErr = true
}

// charValue is the value of a "'c" argument: the character after the quote.
func (p *printer) charValue(s string) int64 {
	if len(s) < 2 {
		return 0
	}
	if p.opts.UTF8 {
		if r, size := utf8.DecodeRuneInString(s[1:]); r != utf8.RuneError || size > 1 {
			return int64(r)
		}
	}
	return int64(s[1])
}

// getIntmax consumes the next argument as bash's getintmax does.
func (p *printer) getIntmax() int64 {
	if p.ai >= len(p.args) {
		return 0
	}
	s := p.args[p.ai]
	p.ai++
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		return p.charValue(s)
	}
	v, end, erange := strtoint(s, true)
	if end != len(s) {
		p.invalidNumber(s)
	} else if erange {
		p.warnf(s + erangeText)
	}
	return int64(v)
}

// getUintmax consumes the next argument as bash's getuintmax does.
func (p *printer) getUintmax() uint64 {
	if p.ai >= len(p.args) {
		return 0
	}
	s := p.args[p.ai]
	p.ai++
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		return uint64(p.charValue(s))
	}
	v, end, erange := strtoint(s, false)
	if end != len(s) {
		p.invalidNumber(s)
	} else if erange {
		p.warnf(s + erangeText)
	}
	return v
}

// getInt consumes a '*' width or precision as bash's getint does,
// including its quirk of naming the following argument in the warning and
// of truncating to 32 bits when no argument follows.
func (p *printer) getInt() int {
	v := p.getIntmax()
	if p.ai >= len(p.args) {
		return int(int32(v))
	}
	if v > maxInt32 {
		p.warnf(p.args[p.ai] + erangeText)
		return maxInt32
	}
	if v < -maxInt32-1 {
		p.warnf(p.args[p.ai] + erangeText)
		return -maxInt32 - 1
	}
	return int(v)
}
