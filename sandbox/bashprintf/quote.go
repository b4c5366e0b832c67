package bashprintf

import (
	"unicode"
	"unicode/utf8"
)

// quote quotes s for %q like bash: ” for the empty string, $'...' when s
// holds characters that are not printable, backslashes otherwise.
func (p *printer) quote(s string) string {
	if s == "" {
		return "''"
	}
	if p.shouldQuote(s) {
		return p.ansicQuote(s)
	}
	return backslashQuote(s)
}

func isPrintASCII(c byte) bool { return 0x20 <= c && c < 0x7f }

// isPrintRune is glibc's iswprint in a UTF-8 locale: assigned characters
// other than controls and the line and paragraph separators.
func isPrintRune(r rune) bool {
	if r < 0x80 {
		return isPrintASCII(byte(r))
	}
	if r < 0xa0 || r == 0x2028 || r == 0x2029 {
		return false
	}
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S,
		unicode.Zs, unicode.Cf, unicode.Co)
}

func (p *printer) shouldQuote(s string) bool {
	if !p.opts.UTF8 {
		for i := 0; i < len(s); i++ {
			if !isPrintASCII(s[i]) {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if !isPrintASCII(c) {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || !isPrintRune(r) {
			return true
		}
		i += size
	}
	return false
}

// ansicQuote is bash's ansic_quote: $'...' with C escapes and octal for
// bytes that are not printable characters.
func (p *printer) ansicQuote(s string) string {
	b := make([]byte, 0, len(s)+len(s)/2+4)
	b = append(b, '$', '\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		var e byte
		switch c {
		case 033:
			e = 'E'
		case '\a':
			e = 'a'
		case '\v':
			e = 'v'
		case '\b':
			e = 'b'
		case '\f':
			e = 'f'
		case '\n':
			e = 'n'
		case '\r':
			e = 'r'
		case '\t':
			e = 't'
		case '\\', '\'':
			e = c
		}
		if e != 0 {
			b = append(b, '\\', e)
			continue
		}
		if c < utf8.RuneSelf || !p.opts.UTF8 {
			if isPrintASCII(c) {
				b = append(b, c)
			} else {
				b = append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || !isPrintRune(r) {
			b = append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
			continue
		}
		b = append(b, s[i:i+size]...)
		i += size - 1
	}
	b = append(b, '\'')
	return string(b)
}

// needsBackslash marks the bytes bash's sh_backslash_quote escapes
// everywhere.
var needsBackslash = func() (t [256]bool) {
	for _, c := range []byte("\t\n !\"$&'()*,;<>?[\\]^`{|}") {
		t[c] = true
	}
	return t
}()

// backslashQuote is bash's sh_backslash_quote as printf %q calls it.
func backslashQuote(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if needsBackslash[s[i]] {
			n++
		}
	}
	b := make([]byte, 0, len(s)+n+2)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case needsBackslash[c],
			c == '#' && i == 0,
			c == '~' && (i == 0 || s[i-1] == ':' || s[i-1] == '='):
			b = append(b, '\\')
		}
		b = append(b, c)
	}
	return string(b)
}
