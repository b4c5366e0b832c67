package find

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// matcher returns the test of a name against the shell pattern pat that
// fnmatch makes, made once for every file find visits. A pattern of
// stars and ASCII characters alone, the common one ("*.go", "*7*"), is
// matched by a prefix, a suffix and substring searches between them:
// fnmatch walks the name a character at a time and, at each star, tries
// every place the rest could start. The two agree: an ASCII byte of a
// name is always a character of its own to fnmatch, even in invalid
// UTF-8, and taking each middle part at its leftmost place leaves the
// most room for the parts after it.
func matcher(pat string, fold bool) func(name string) bool {
	if fold || !starsAndASCII(pat) {
		return func(name string) bool { return fnmatch(pat, name, fold) }
	}
	parts := strings.Split(pat, "*")
	if len(parts) == 1 {
		return func(name string) bool { return name == pat }
	}
	first, last := parts[0], parts[len(parts)-1]
	var mid []string
	for _, m := range parts[1 : len(parts)-1] {
		if m != "" {
			mid = append(mid, m)
		}
	}
	return func(name string) bool {
		if len(name) < len(first)+len(last) || !strings.HasPrefix(name, first) || !strings.HasSuffix(name, last) {
			return false
		}
		rest := name[len(first) : len(name)-len(last)]
		for _, m := range mid {
			i := strings.Index(rest, m)
			if i < 0 {
				return false
			}
			rest = rest[i+len(m):]
		}
		return true
	}
}

// starsAndASCII reports whether pat holds only ASCII characters, none of
// them special to fnmatch but '*'.
func starsAndASCII(pat string) bool {
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; {
		case c >= utf8.RuneSelf, c == '?', c == '[', c == '\\':
			return false
		}
	}
	return true
}

// fnmatch reports whether name matches the shell pattern pat as C's
// fnmatch does without flags: '*' and '?' match any character including
// '/' and a leading '.', brackets take ranges, '!' or '^' negation and
// [:class:] names, and a backslash quotes the next character. fold makes
// the match case-insensitive.
func fnmatch(pat, name string, fold bool) bool {
	// Iterative matching with one backtrack point for the last '*'.
	px, nx := 0, 0
	starP, starN := -1, 0
	for nx < len(name) || px < len(pat) {
		if px < len(pat) {
			switch pat[px] {
			case '*':
				for px < len(pat) && pat[px] == '*' {
					px++
				}
				if px == len(pat) {
					return true
				}
				starP, starN = px, nx
				continue
			case '?':
				if nx < len(name) {
					_, n := runeAt(name, nx)
					px++
					nx += n
					continue
				}
			case '[':
				if nx < len(name) {
					r, n := runeAt(name, nx)
					if ok, width, valid := matchBracket(pat[px:], r, fold); valid {
						if ok {
							px += width
							nx += n
							continue
						}
						goto backtrack
					}
				}
				// An unclosed '[' is an ordinary character.
				if nx < len(name) && name[nx] == '[' {
					px++
					nx++
					continue
				}
			default:
				pc, pn := runeAt(pat, px)
				if pc == '\\' && px+1 < len(pat) {
					pc, pn = runeAt(pat, px+1)
					pn++
				}
				if nx < len(name) {
					nc, nn := runeAt(name, nx)
					if nc == pc || (fold && foldEq(nc, pc)) {
						px += pn
						nx += nn
						continue
					}
				}
			}
		}
	backtrack:
		if starP >= 0 && starN < len(name) {
			_, n := runeAt(name, starN)
			starN += n
			px, nx = starP, starN
			continue
		}
		return false
	}
	return true
}

// runeAt decodes the character at s[i], ASCII without a call: names are
// matched a character at a time, once for every file find visits.
func runeAt(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func foldEq(a, b rune) bool {
	return unicode.ToLower(a) == unicode.ToLower(b)
}

// matchBracket matches r against the bracket expression at the start of
// pat. It returns whether r matches, the expression's width, and whether
// it is a well-formed bracket expression at all.
func matchBracket(pat string, r rune, fold bool) (match bool, width int, valid bool) {
	i := 1
	negate := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		negate = true
		i++
	}
	first := true
	for {
		if i >= len(pat) {
			return false, 0, false
		}
		if pat[i] == ']' && !first {
			i++
			break
		}
		first = false
		if pat[i] == '[' && i+1 < len(pat) && pat[i+1] == ':' {
			end := indexFrom(pat, ":]", i+2)
			if end >= 0 {
				if classMatch(pat[i+2:end], r) || (fold && (classMatch(pat[i+2:end], unicode.ToLower(r)) || classMatch(pat[i+2:end], unicode.ToUpper(r)))) {
					match = true
				}
				i = end + 2
				continue
			}
		}
		lo, n := utf8.DecodeRuneInString(pat[i:])
		if lo == '\\' && i+1 < len(pat) {
			i++
			lo, n = utf8.DecodeRuneInString(pat[i:])
		}
		i += n
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			i++
			hi, n = utf8.DecodeRuneInString(pat[i:])
			if hi == '\\' && i+1 < len(pat) {
				i++
				hi, n = utf8.DecodeRuneInString(pat[i:])
			}
			i += n
		}
		if lo <= r && r <= hi {
			match = true
		} else if fold {
			lr, ur := unicode.ToLower(r), unicode.ToUpper(r)
			if (lo <= lr && lr <= hi) || (lo <= ur && ur <= hi) {
				match = true
			}
		}
	}
	return match != negate, i, true
}

func indexFrom(s, sub string, from int) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func classMatch(class string, r rune) bool {
	switch class {
	case "alpha":
		return unicode.IsLetter(r)
	case "digit":
		return '0' <= r && r <= '9'
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "upper":
		return unicode.IsUpper(r)
	case "lower":
		return unicode.IsLower(r)
	case "space":
		return unicode.IsSpace(r)
	case "blank":
		return r == ' ' || r == '\t'
	case "punct":
		return r < 128 && unicode.IsPunct(r) || r < 128 && unicode.IsSymbol(r)
	case "print":
		return unicode.IsPrint(r)
	case "graph":
		return unicode.IsPrint(r) && r != ' '
	case "cntrl":
		return unicode.IsControl(r)
	case "xdigit":
		return ('0' <= r && r <= '9') || ('a' <= r && r <= 'f') || ('A' <= r && r <= 'F')
	}
	return false
}
