package tool

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// QuoteIfNeeded quotes a file name for a message the way GNU's quotef does:
// names a shell would take literally are left bare, others are quoted.
func QuoteIfNeeded(s string) string {
	if s != "" && !needsQuote(s) {
		return s
	}
	return Quote(s)
}

// Quote quotes a file name for a message the way GNU's quoteaf does in the
// C locale: 'name', "it's", or 'a'$'\n”b' for unprintable bytes.
func Quote(s string) string {
	printable := true
	special := false
	for i, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			if _, n := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || n == 1 {
				printable = false
			}
		}
		switch r {
		case '$', '`', '"', '\\', '!':
			special = true
		}
	}
	if printable && !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	if printable && !special {
		return `"` + s + `"`
	}
	var b strings.Builder
	open := false // inside a '...' run
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || !unicode.IsPrint(r) {
			if open {
				b.WriteByte('\'')
				open = false
			}
			b.WriteString("$'")
			for _, c := range []byte(s[i : i+n]) {
				b.WriteString(cEscape(c))
			}
			b.WriteByte('\'')
			i += n
			continue
		}
		if r == '\'' {
			if open {
				b.WriteByte('\'')
				open = false
			}
			b.WriteString(`\'`)
			i += n
			continue
		}
		if !open {
			b.WriteByte('\'')
			open = true
		}
		b.WriteString(s[i : i+n])
		i += n
	}
	if open {
		b.WriteByte('\'')
	}
	return b.String()
}

func cEscape(c byte) string {
	switch c {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	return string([]byte{'\\', '0' + c>>6, '0' + (c>>3)&7, '0' + c&7})
}

func needsQuote(s string) bool {
	if s == "{" || s == "}" {
		return true
	}
	for i, r := range s {
		switch r {
		case '#', '~':
			if i == 0 {
				return true
			}
		case ' ', '!', '"', '$', '&', '\'', '(', ')', '*', ';', '<', '=', '>',
			'?', '[', '\\', '^', '`', '|', '\t', '\n':
			return true
		default:
			if r == utf8.RuneError || !unicode.IsPrint(r) {
				return true
			}
		}
	}
	return false
}
