package grep

import (
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
)

// requiredLiteral finds a string every match of the single pattern must
// contain, so lines without it can be skipped without running the regular
// expression. exact reports that containing it is the whole test.
func requiredLiteral(patterns []string, opts posixre.Options) (lit string, exact bool) {
	if len(patterns) != 1 || opts.IgnoreCase || patterns[0] == "" {
		return "", false
	}
	p := patterns[0]
	if opts.Fixed {
		return p, !opts.Word && !opts.Line
	}
	ere := opts.Extended
	var best, run []byte
	clean := true // the pattern is one literal run
	flush := func() {
		if len(run) > len(best) || len(run) == len(best) && len(run) > 0 && commonness(run) < commonness(best) {
			best = append(best[:0], run...)
		}
		run = run[:0]
	}
	// dropLast removes the last character of run: a quantifier follows it.
	dropLast := func() {
		if len(run) > 0 {
			_, n := utf8.DecodeLastRune(run)
			run = run[:len(run)-n]
		}
		flush()
		clean = false
	}
	depth := 0
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			d := p[i+1]
			i += 2
			switch {
			case !ere && (d == '(' || d == ')'):
				if d == '(' {
					depth++
				} else {
					depth--
				}
				flush()
				clean = false
			case !ere && d == '|':
				return "", false
			case !ere && (d == '?' || d == '+' || d == '{'):
				dropLast()
				if d == '{' {
					for i < len(p) && p[i] != '}' {
						i++
					}
					i++
				}
			case d == '.' || d == '*' || d == '[' || d == ']' || d == '^' || d == '$' || d == '\\' || d == '/' ||
				ere && (d == '+' || d == '?' || d == '{' || d == '}' || d == '(' || d == ')' || d == '|'):
				if depth == 0 {
					run = append(run, d)
				}
				clean = clean && depth == 0
			default: // \w \b \< \1 and friends
				flush()
				clean = false
			}
			continue
		case c == '\\':
			return "", false
		case c == '*' && i > 0, ere && (c == '+' || c == '?'):
			dropLast()
		case ere && c == '{':
			dropLast()
			for i < len(p) && p[i] != '}' {
				i++
			}
		case ere && c == '|':
			return "", false
		case ere && (c == '(' || c == ')'):
			if c == '(' {
				depth++
			} else {
				depth--
			}
			flush()
			clean = false
		case c == '[':
			flush()
			clean = false
			j := i + 1
			if j < len(p) && p[j] == '^' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				if p[j] == '[' && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '.' || p[j+1] == '=') {
					if k := indexFrom(p, j+2, p[j+1], ']'); k >= 0 {
						j = k + 2
						continue
					}
				}
				j++
			}
			i = j
		case c == '.', c == '^' && i == 0, c == '$' && i == len(p)-1:
			flush()
			clean = false
		case c == '^' || c == '$':
			if ere {
				flush()
				clean = false
			} else if depth == 0 {
				run = append(run, c)
			}
		default:
			if depth == 0 {
				run = append(run, c)
			} else {
				clean = false
			}
		}
		i++
	}
	flush()
	if depth != 0 || len(best) == 0 {
		return "", false
	}
	return string(best), clean && len(best) == len(p) && !opts.Word && !opts.Line
}

// indexFrom finds "ab" in s at or after i.
func indexFrom(s string, i int, a, b byte) int {
	for ; i+1 < len(s); i++ {
		if s[i] == a && s[i+1] == b {
			return i
		}
	}
	return -1
}

// commonness ranks how often a literal's most common byte turns up in
// text, so that of two required literals of one length the rarer one is
// searched for: a blank or a lowercase letter stops on most lines, an
// uppercase letter or punctuation on few.
func commonness(s []byte) int {
	r := 0
	for _, c := range s {
		k := 1
		switch {
		case c == ' ' || c == '\t' || c == ',':
			k = 4
		case c >= 'a' && c <= 'z':
			k = 3
		case c >= '0' && c <= '9':
			k = 2
		}
		r = max(r, k)
	}
	return r
}

// plainStrings returns the patterns as strings to look for when there are
// two to four and each is a plain ASCII string: no operator, nothing that
// widens a match (-i, -w, -x), never empty and never holding eol. Else
// nil.
func plainStrings(patterns []string, opts posixre.Options, eol byte) [][]byte {
	if len(patterns) < 2 || len(patterns) > 4 || opts.IgnoreCase || opts.Word || opts.Line {
		return nil
	}
	special := `\.[*^$`
	if opts.Extended {
		special += "+?(){}|"
	}
	var lits [][]byte
	for _, p := range patterns {
		if p == "" {
			return nil
		}
		for i := 0; i < len(p); i++ {
			c := p[i]
			if c >= utf8.RuneSelf || c == eol || !opts.Fixed && strings.IndexByte(special, c) >= 0 {
				return nil
			}
		}
		lits = append(lits, []byte(p))
	}
	return lits
}
