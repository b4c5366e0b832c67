package bashprintf

// escape decodes the backslash escape whose text (after the backslash)
// starts s, like bash's tescape. The decoded bytes go to buf (at least 16
// bytes), n says how many. consumed is how many bytes of s the escape used;
// 0 means the backslash stands for itself and s is to be read normally.
// forB selects the rules of %b arguments, where \c reports sawC and \0 may
// take three more octal digits.
func (p *printer) escape(s string, buf []byte, forB bool) (consumed, n int, sawC bool) {
	if s == "" {
		buf[0] = '\\'
		return 0, 1, false
	}
	c := s[0]
	i := 1
	n = 1
	switch c {
	case 'a':
		buf[0] = '\a'
	case 'b':
		buf[0] = '\b'
	case 'e', 'E':
		buf[0] = 033
	case 'f':
		buf[0] = '\f'
	case 'n':
		buf[0] = '\n'
	case 'r':
		buf[0] = '\r'
	case 't':
		buf[0] = '\t'
	case 'v':
		buf[0] = '\v'
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := int(c - '0')
		more := 2
		if v == 0 && forB {
			more = 3
		}
		for ; more > 0 && i < len(s) && '0' <= s[i] && s[i] <= '7'; more-- {
			v = v*8 + int(s[i]-'0')
			i++
		}
		buf[0] = byte(v)
	case 'x':
		v := 0
		for more := 2; more > 0 && i < len(s) && hexVal(s[i]) >= 0; more-- {
			v = v*16 + hexVal(s[i])
			i++
		}
		if i == 1 {
			p.errorf("missing hex digit for \\x")
			buf[0] = '\\'
			return 0, 1, false
		}
		buf[0] = byte(v)
	case 'u', 'U':
		more := 4
		if c == 'U' {
			more = 8
		}
		var v uint32
		for ; more > 0 && i < len(s) && hexVal(s[i]) >= 0; more-- {
			v = v*16 + uint32(hexVal(s[i]))
			i++
		}
		if i == 1 {
			p.errorf("missing unicode digit for \\" + string(c))
			buf[0] = '\\'
			return 0, 1, false
		}
		if v <= 0x7f {
			buf[0] = byte(v)
		} else {
			n = p.encodeRune(v, buf)
		}
	case '\\':
		buf[0] = '\\'
	case '\'', '"', '?':
		if forB {
			buf[0] = '\\'
			return 0, 1, false
		}
		buf[0] = c
	case 'c':
		if forB {
			return 1, 0, true
		}
		buf[0] = '\\'
		return 0, 1, false
	default:
		buf[0] = '\\'
		return 0, 1, false
	}
	return i, n, false
}

// encodeRune writes the character v (above 0x7f) in the locale's encoding
// as bash's u32cconv does: UTF-8 in a UTF-8 locale (nothing for values
// beyond 31 bits), otherwise an ISO C escape.
func (p *printer) encodeRune(v uint32, buf []byte) int {
	if !p.opts.UTF8 {
		const hex = upperHex
		digits := 4
		buf[0], buf[1] = '\\', 'u'
		if v >= 0x10000 {
			digits = 8
			buf[1] = 'U'
		}
		for k := 0; k < digits; k++ {
			buf[2+k] = hex[(v>>(4*(digits-1-k)))&0xf]
		}
		return 2 + digits
	}
	switch {
	case v < 0x800:
		buf[0] = byte(v>>6) | 0xc0
		buf[1] = byte(v&0x3f) | 0x80
		return 2
	case v < 0x10000:
		buf[0] = byte(v>>12) | 0xe0
		buf[1] = byte(v>>6&0x3f) | 0x80
		buf[2] = byte(v&0x3f) | 0x80
		return 3
	case v < 0x200000:
		buf[0] = byte(v>>18) | 0xf0
		buf[1] = byte(v>>12&0x3f) | 0x80
		buf[2] = byte(v>>6&0x3f) | 0x80
		buf[3] = byte(v&0x3f) | 0x80
		return 4
	case v < 0x4000000:
		buf[0] = byte(v>>24) | 0xf8
		buf[1] = byte(v>>18&0x3f) | 0x80
		buf[2] = byte(v>>12&0x3f) | 0x80
		buf[3] = byte(v>>6&0x3f) | 0x80
		buf[4] = byte(v&0x3f) | 0x80
		return 5
	case v < 0x80000000:
		buf[0] = byte(v>>30) | 0xfc
		buf[1] = byte(v>>24&0x3f) | 0x80
		buf[2] = byte(v>>18&0x3f) | 0x80
		buf[3] = byte(v>>12&0x3f) | 0x80
		buf[4] = byte(v>>6&0x3f) | 0x80
		buf[5] = byte(v&0x3f) | 0x80
		return 6
	}
	return 0
}

// expandB expands the escapes of a %b argument like bash's bexpand;
// sawC reports a \c, which ends all output.
func (p *printer) expandB(s string) (out string, sawC bool) {
	i := 0
	for i < len(s) && s[i] != '\\' {
		i++
	}
	if i == len(s) {
		return s, false
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	var tmp [16]byte
	for i < len(s) {
		c := s[i]
		i++
		if c != '\\' || i == len(s) {
			b = append(b, c)
			continue
		}
		k, n, c2 := p.escape(s[i:], tmp[:], true)
		if c2 {
			return string(b), true
		}
		b = append(b, tmp[:n]...)
		i += k
	}
	return string(b), false
}
