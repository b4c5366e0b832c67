package expr

import (
	"errors"
	"regexp"
	"strings"
)

// translateBRE rewrites a POSIX basic regular expression (with GNU's \+,
// \? and \| extensions) as an equivalent Go regexp anchored at the start
// of the subject, and counts its groups. Back-references, which Go
// regexps cannot express, are refused.
func translateBRE(p string) (string, int, error) {
	var b strings.Builder
	b.WriteString(`\A(?s:`)
	groups, depth := 0, 0
	atStart := true // where '*' is literal and '^' an anchor
	for i := 0; i < len(p); i++ {
		c := p[i]
		start := atStart
		atStart = false
		switch c {
		case '\\':
			if i+1 >= len(p) {
				return "", 0, errors.New("Trailing backslash")
			}
			i++
			switch d := p[i]; d {
			case '(':
				groups++
				depth++
				b.WriteByte('(')
				atStart = true
			case ')':
				if depth == 0 {
					return "", 0, errors.New("Unmatched ) or \\)")
				}
				depth--
				b.WriteByte(')')
			case '|':
				b.WriteByte('|')
				atStart = true
			case '{':
				j := strings.Index(p[i:], `\}`)
				if j < 0 {
					return "", 0, errors.New("Unmatched \\{")
				}
				body := p[i+1 : i+j]
				if !validInterval(body) {
					return "", 0, errors.New("Invalid content of \\{\\}")
				}
				if start {
					return "", 0, errors.New("Invalid preceding regular expression")
				}
				b.WriteString("{" + body + "}")
				i += j + 1
			case '+', '?':
				if start {
					b.WriteString(regexp.QuoteMeta(string(d)))
				} else {
					b.WriteByte(d)
				}
			case 'w':
				b.WriteString(`[0-9A-Za-z_]`)
			case 'W':
				b.WriteString(`[^0-9A-Za-z_]`)
			case 's':
				b.WriteString(`\s`)
			case 'S':
				b.WriteString(`\S`)
			case 'b':
				b.WriteString(`\b`)
			case 'B':
				b.WriteString(`\B`)
			case '`':
				b.WriteString(`\A`)
			case '\'':
				b.WriteString(`\z`)
			case '<', '>':
				b.WriteString(`\b`)
			case '1', '2', '3', '4', '5', '6', '7', '8', '9':
				return "", 0, errors.New("back-references are not supported")
			case 'n':
				b.WriteString(`\n`)
			default:
				b.WriteString(regexp.QuoteMeta(string(d)))
			}
		case '*':
			if start {
				b.WriteString(`\*`)
			} else {
				b.WriteByte('*')
			}
		case '^':
			if start {
				b.WriteByte('^')
				atStart = true
			} else {
				b.WriteString(`\^`)
			}
		case '$':
			if i == len(p)-1 || strings.HasPrefix(p[i+1:], `\)`) || strings.HasPrefix(p[i+1:], `\|`) {
				b.WriteString(`\z`)
			} else {
				b.WriteString(`\$`)
			}
		case '.':
			b.WriteByte('.')
		case '[':
			n, cls, err := bracket(p[i:])
			if err != nil {
				return "", 0, err
			}
			b.WriteString(cls)
			i += n - 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if depth > 0 {
		return "", 0, errors.New("Unmatched ( or \\(")
	}
	b.WriteByte(')')
	return b.String(), groups, nil
}

func validInterval(s string) bool {
	lo, hi, comma := s, "", false
	if i := strings.IndexByte(s, ','); i >= 0 {
		lo, hi, comma = s[:i], s[i+1:], true
	}
	digits := func(t string) bool { return strings.Trim(t, "0123456789") == "" }
	if lo == "" || !digits(lo) || !digits(hi) || (!comma && hi != "") {
		return false
	}
	return true
}

// bracket translates the bracket expression at the start of s and returns
// its length in s.
func bracket(s string) (int, string, error) {
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(s) && s[i] == '^' {
		b.WriteByte('^')
		i++
	}
	first := true
	for ; i < len(s); i++ {
		c := s[i]
		if c == ']' && !first {
			b.WriteByte(']')
			return i + 1, b.String(), nil
		}
		first = false
		if c == '[' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '=' || s[i+1] == '.') {
			end := strings.Index(s[i+2:], string(s[i+1])+"]")
			if end < 0 {
				break
			}
			body := s[i+2 : i+2+end]
			switch s[i+1] {
			case ':':
				b.WriteString("[:" + body + ":]")
			default:
				b.WriteString(regexp.QuoteMeta(body))
			}
			i += end + 3
			continue
		}
		switch c {
		case '\\', '[', ']':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return 0, "", errors.New("Unmatched [, [^, [:, [., or [=")
}
