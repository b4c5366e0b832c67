package bashprintf

// cspec is a conversion specification as glibc's printf parses it.
type cspec struct {
	alt, group, plus, space, minus, zero bool

	width int
	prec  int // -1 when absent
	// unknown is set when glibc would not recognise the specification
	// because bash let a '-' follow the '.'; rest is then the text that
	// glibc prints literally after its rendering of the bad specification.
	unknown bool
	rest    string
	// fail is set when glibc rejects the specification (a width or
	// precision beyond INT_MAX) and prints nothing.
	fail bool
}

const maxInt32 = 1<<31 - 1

// parseC parses sp the way glibc parses the format bash hands it. lenMod is
// the length modifier bash inserts before the conversion character.
func parseC(sp *spec, lenMod string) cspec {
	c := cspec{prec: -1}
	t := sp.text
	i := 0
	for ; i < len(t); i++ {
		switch t[i] {
		case '#':
			c.alt = true
		case '\'':
			c.group = true
		case '-':
			c.minus = true
		case '+':
			c.plus = true
		case ' ':
			c.space = true
		case '0':
			c.zero = true
		default:
			goto width
		}
	}
width:
	if i < len(t) && t[i] == '*' {
		i++
		c.width = sp.width
		if c.width < 0 {
			c.minus = true
			c.width = -c.width
		}
	} else if i < len(t) && isDigit(t[i]) {
		v, ok := atoiClamp(t[i:])
		if !ok {
			c.fail = true
			return c
		}
		c.width = v
		for i < len(t) && isDigit(t[i]) {
			i++
		}
	}
	if i < len(t) && t[i] == '.' {
		i++
		switch {
		case i < len(t) && t[i] == '*':
			c.prec = sp.prec
			if c.prec < 0 {
				c.prec = -1
			}
		case i < len(t) && isDigit(t[i]):
			v, ok := atoiClamp(t[i:])
			if !ok {
				c.fail = true
				return c
			}
			c.prec = v
		default:
			c.prec = 0
			if i < len(t) && t[i] == '-' {
				c.unknown = true
				c.rest = t[i+1:] + lenMod + string(sp.conv)
			}
		}
	}
	if c.minus {
		c.zero = false
	}
	return c
}

// putUnknown writes what glibc prints for a specification whose conversion
// character it does not know (here always '-').
func (p *printer) putUnknown(c *cspec) {
	p.putByte('%')
	if c.alt {
		p.putByte('#')
	}
	if c.group {
		p.putByte('\'')
	}
	if c.plus {
		p.putByte('+')
	} else if c.space {
		p.putByte(' ')
	}
	if c.minus {
		p.putByte('-')
	}
	if c.zero {
		p.putByte('0')
	}
	if c.width != 0 {
		p.putString(itoa(uint64(c.width)))
	}
	if c.prec != -1 {
		p.putByte('.')
		p.putString(itoa(uint64(c.prec)))
	}
	p.putByte('-')
	p.putString(c.rest)
}

func itoa(u uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	return string(b[i:])
}

// field writes body padded to width: pre (sign, prefix) comes before any
// zero padding, body after it.
func (p *printer) field(c *cspec, pre, body []byte, zeroPad bool) {
	n := len(pre) + len(body)
	padn := 0
	if c.width > n {
		padn = c.width - n
	}
	if !p.room(n + padn) {
		return
	}
	switch {
	case c.minus:
		p.out = append(p.out, pre...)
		p.out = append(p.out, body...)
		p.pad(' ', padn)
	case zeroPad:
		p.out = append(p.out, pre...)
		p.pad('0', padn)
		p.out = append(p.out, body...)
	default:
		p.pad(' ', padn)
		p.out = append(p.out, pre...)
		p.out = append(p.out, body...)
	}
	p.tw += n + padn
}

// cfmt formats s with %s or %c semantics as glibc's printf does.
func (p *printer) cfmt(sp *spec, s []byte) {
	c := parseC(sp, "")
	if c.fail {
		return
	}
	if c.unknown {
		p.putUnknown(&c)
		return
	}
	if sp.conv == 's' && c.prec >= 0 && c.prec < len(s) {
		s = s[:c.prec]
	}
	p.field(&c, nil, s, false)
}

// printStr is bash's printstr, used for %b, %q and %(fmt)T: it honours the
// '-' flag, the width and the precision (in bytes) and ignores the rest.
func (p *printer) printStr(sp *spec, s string) {
	t := sp.text
	ljust := false
	i := 0
	for i < len(t) && isFlag(t[i]) {
		if t[i] == '-' {
			ljust = true
		}
		i++
	}
	fw := 0
	if i < len(t) && t[i] == '*' {
		i++
		fw = sp.width
		if fw < 0 {
			ljust = true
			fw = -fw
		}
	} else if i < len(t) && isDigit(t[i]) {
		v, ok := atoiClamp(t[i:])
		if !ok {
			v = maxInt32
		}
		fw = v
		for i < len(t) && isDigit(t[i]) {
			i++
		}
	}
	pr := -1
	if i < len(t) && t[i] == '.' {
		i++
		switch {
		case i < len(t) && t[i] == '*':
			pr = sp.prec
		case i < len(t) && isDigit(t[i]):
			v, ok := atoiClamp(t[i:])
			if !ok {
				v = -1
			}
			pr = v
		default:
			pr = 0
		}
	}
	nc := len(s)
	if pr >= 0 && pr <= len(s) {
		nc = pr
	}
	padn := fw - nc
	if padn < 0 {
		padn = 0
	}
	if !p.room(nc + padn) {
		return
	}
	if !ljust {
		p.pad(' ', padn)
	}
	p.out = append(p.out, s[:nc]...)
	if ljust {
		p.pad(' ', padn)
	}
	p.tw += nc + padn
}

// formatSigned prints v for %d and %i.
func (p *printer) formatSigned(sp *spec, v int64) {
	c := parseC(sp, "l")
	if c.fail {
		return
	}
	if c.unknown {
		p.putUnknown(&c)
		return
	}
	var sign byte
	u := uint64(v)
	if v < 0 {
		u = -u
		sign = '-'
	} else if c.plus {
		sign = '+'
	} else if c.space {
		sign = ' '
	}
	p.formatInt(&c, sign, u, 10, false)
}

// formatUnsigned prints v for %o, %u, %x and %X.
func (p *printer) formatUnsigned(sp *spec, v uint64) {
	c := parseC(sp, "l")
	if c.fail {
		return
	}
	if c.unknown {
		p.putUnknown(&c)
		return
	}
	switch sp.conv {
	case 'o':
		p.formatInt(&c, 0, v, 8, false)
	case 'u':
		p.formatInt(&c, 0, v, 10, false)
	case 'x':
		p.formatInt(&c, 0, v, 16, false)
	default:
		p.formatInt(&c, 0, v, 16, true)
	}
}

const lowerHex = "0123456789abcdef"
const upperHex = "0123456789ABCDEF"

func (p *printer) formatInt(c *cspec, sign byte, u uint64, base uint64, upper bool) {
	var dbuf [24]byte
	i := len(dbuf)
	digits := lowerHex
	if upper {
		digits = upperHex
	}
	if !(u == 0 && c.prec == 0) {
		for {
			i--
			dbuf[i] = digits[u%base]
			u /= base
			if u == 0 {
				break
			}
		}
	}
	d := dbuf[i:]
	var pre [3]byte
	np := 0
	if sign != 0 {
		pre[np] = sign
		np++
	}
	if c.alt && base == 16 && len(d) > 0 && !(len(d) == 1 && d[0] == '0') {
		pre[np] = '0'
		pre[np+1] = 'x'
		if upper {
			pre[np+1] = 'X'
		}
		np += 2
	}
	zeros := 0
	if c.prec > len(d) {
		zeros = c.prec - len(d)
	}
	if c.alt && base == 8 && zeros == 0 && (len(d) == 0 || d[0] != '0') {
		zeros = 1
	}
	if !p.room(zeros + len(d)) {
		return
	}
	body := p.buf[:0]
	for ; zeros > 0; zeros-- {
		body = append(body, '0')
	}
	body = append(body, d...)
	p.buf = body
	p.field(c, pre[:np], body, c.zero && c.prec < 0)
}
