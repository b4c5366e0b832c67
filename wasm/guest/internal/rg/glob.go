package rg

import (
	"regexp"
	"strings"
)

// A rule is one line of an ignore file or one --glob: a glob compiled to
// a regular expression over slash-separated paths relative to the
// directory the rule belongs to.
type rule struct {
	re      *regexp.Regexp
	negate  bool // "!pattern": whitelist
	dirOnly bool // "pattern/": matches directories only
}

// A ruleset is the rules of one ignore file (or of all --glob options), in
// order: the last rule that matches decides.
type ruleset struct {
	rules []rule
}

// The results of matching a path against rules.
const (
	matchNone = iota
	matchIgnore
	matchWhitelist
)

// parseIgnore reads the text of a gitignore-format file.
func parseIgnore(text string) *ruleset {
	rs := &ruleset{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		rs.add(line, false)
	}
	return rs
}

// add adds one gitignore-format line; blank lines and comments add
// nothing. foldCase makes the rule case-insensitive (--iglob).
func (rs *ruleset) add(line string, foldCase bool) {
	if line == "" || line[0] == '#' {
		return
	}
	// Trailing spaces are dropped unless escaped with a backslash.
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
		line = line[:len(line)-1]
	}
	if line == "" {
		return
	}
	var r rule
	if line[0] == '!' {
		r.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && line != "/" {
		r.dirOnly = true
		line = strings.TrimSuffix(line, "/")
	}
	if line == "" {
		return
	}
	// A pattern with a slash anywhere but at its end is anchored to the
	// rule's directory; any other matches a name at any depth.
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if !anchored && !strings.HasPrefix(line, "**/") {
		line = "**/" + line
	}
	expr := globRegexp(line)
	if foldCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return
	}
	r.re = re
	rs.rules = append(rs.rules, r)
}

// match matches the relative path rel (no leading "./" or "/").
func (rs *ruleset) match(rel string, isDir bool) int {
	if rs == nil {
		return matchNone
	}
	for i := len(rs.rules) - 1; i >= 0; i-- {
		r := &rs.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		if r.re.MatchString(rel) {
			if r.negate {
				return matchWhitelist
			}
			return matchIgnore
		}
	}
	return matchNone
}

// globRegexp translates a glob in gitignore syntax to an anchored regular
// expression: "*" and "?" stay within one path component, "**" spans
// components, "[...]" is a class ("[!...]" negated), "\x" is x.
func globRegexp(glob string) string {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(glob); {
		c := glob[i]
		switch {
		case strings.HasPrefix(glob[i:], "**/") && (i == 0 || glob[i-1] == '/'):
			b.WriteString("(?:.*/)?")
			i += 3
		case strings.HasPrefix(glob[i:], "**") && i+2 == len(glob) && (i == 0 || glob[i-1] == '/'):
			b.WriteString(".*")
			i += 2
		case c == '*':
			b.WriteString("[^/]*")
			for i < len(glob) && glob[i] == '*' {
				i++
			}
		case c == '?':
			b.WriteString("[^/]")
			i++
		case c == '[':
			end := classEnd(glob, i)
			if end < 0 {
				b.WriteString(`\[`)
				i++
				continue
			}
			body := glob[i+1 : end]
			b.WriteString("[")
			if body[0] == '!' || body[0] == '^' {
				b.WriteString("^")
				body = body[1:]
			}
			for j := 0; j < len(body); j++ {
				switch ch := body[j]; ch {
				case '\\', '[', ']', '^':
					b.WriteByte('\\')
					b.WriteByte(ch)
				default:
					b.WriteByte(ch)
				}
			}
			b.WriteString("]")
			i = end + 1
		case c == '{':
			end := strings.IndexByte(glob[i:], '}')
			if end < 0 {
				b.WriteString(`\{`)
				i++
				continue
			}
			alts := strings.Split(glob[i+1:i+end], ",")
			b.WriteString("(?:")
			for k, a := range alts {
				if k > 0 {
					b.WriteString("|")
				}
				b.WriteString(strings.TrimSuffix(strings.TrimPrefix(globRegexp(a), "^"), "$"))
			}
			b.WriteString(")")
			i += end + 1
		case c == '\\' && i+1 < len(glob):
			b.WriteString(regexp.QuoteMeta(glob[i+1 : i+2]))
			i += 2
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
			i++
		}
	}
	b.WriteString("$")
	return b.String()
}

// classEnd returns the index of the "]" closing the class opened at
// glob[i], or -1. A "]" first in the class (after "!") is literal.
func classEnd(glob string, i int) int {
	j := i + 1
	if j < len(glob) && (glob[j] == '!' || glob[j] == '^') {
		j++
	}
	if j < len(glob) && glob[j] == ']' {
		j++
	}
	for ; j < len(glob); j++ {
		if glob[j] == ']' {
			return j
		}
	}
	return -1
}
