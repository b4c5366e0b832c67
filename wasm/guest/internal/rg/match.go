package rg

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

// matcher finds the matches of the patterns in one line (without its
// line terminator). It is Go's regexp, whose RE2 syntax and semantics are
// those of ripgrep's default engine.
type matcher struct {
	re    *regexp.Regexp // the whole search; with -w the match is group 1
	plain *regexp.Regexp // the patterns alone, for --replace
	word  bool
	none  bool // no patterns at all: nothing matches
}

// newMatcher compiles the patterns as the options say.
func newMatcher(o *options, patterns []string) (*matcher, error) {
	if len(patterns) == 0 {
		return &matcher{none: true}, nil
	}
	var alts []string
	for _, p := range patterns {
		if strings.Contains(p, "\n") && !o.fixed {
			return nil, fmt.Errorf("the literal %q is not allowed in a regex", "\n")
		}
		if o.fixed {
			p = regexp.QuoteMeta(p)
		} else if _, err := syntax.Parse(p, syntax.Perl); err != nil {
			return nil, fmt.Errorf("regex parse error:\n    %s\nerror: %s", p, parseErrText(err))
		}
		alts = append(alts, p)
	}
	expr := alts[0]
	if len(alts) > 1 {
		expr = "(?:" + strings.Join(alts, ")|(?:") + ")"
	}
	fold := o.caseMode == caseInsensitive || o.caseMode == caseSmart && !anyUpper(patterns, o.fixed)
	prefix := ""
	if fold {
		prefix = "(?i)"
	}
	plain, err := regexp.Compile(prefix + expr)
	if err != nil {
		return nil, fmt.Errorf("regex parse error:\n    %s\nerror: %s", expr, parseErrText(err))
	}
	m := &matcher{plain: plain, re: plain}
	switch {
	case o.lineRegexp:
		m.re = regexp.MustCompile(prefix + "^(?:" + expr + ")$")
	case o.word:
		m.re = regexp.MustCompile(prefix + `(?:^|\W)(` + expr + `)(?:\W|$)`)
		m.word = true
	}
	return m, nil
}

func parseErrText(err error) string {
	var se *syntax.Error
	if e, ok := err.(*syntax.Error); ok {
		se = e
		return string(se.Code)
	}
	return err.Error()
}

// anyUpper reports whether a pattern has an upper-case literal character,
// which turns --smart-case into a case-sensitive search. Escapes such as
// \S and \W are not literals.
func anyUpper(patterns []string, fixed bool) bool {
	for _, p := range patterns {
		for i := 0; i < len(p); i++ {
			if p[i] == '\\' && !fixed {
				i++
				continue
			}
			r := rune(p[i])
			if r >= 0x80 {
				r = []rune(p[i:])[0]
			}
			if unicode.IsUpper(r) {
				return true
			}
		}
	}
	return false
}

// find returns the spans of the non-overlapping matches in line, at most
// max of them (all if max < 0).
func (m *matcher) find(line []byte, max int) [][2]int {
	if m.none {
		return nil
	}
	if !m.word {
		idx := m.re.FindAllIndex(line, max)
		spans := make([][2]int, len(idx))
		for i, x := range idx {
			spans[i] = [2]int{x[0], x[1]}
		}
		return spans
	}
	var spans [][2]int
	for pos := 0; pos <= len(line) && (max < 0 || len(spans) < max); {
		x := m.re.FindSubmatchIndex(line[pos:])
		if x == nil {
			break
		}
		s, e := pos+x[2], pos+x[3]
		spans = append(spans, [2]int{s, e})
		if e > pos {
			pos = e
		} else {
			pos++
		}
		if s == e && e == len(line) {
			break
		}
	}
	return spans
}

// match reports whether line has a match.
func (m *matcher) match(line []byte) bool {
	if m.none {
		return false
	}
	return m.re.Match(line)
}

// replace returns line's text from start to end with every match in spans
// replaced by the expansion of tmpl ($1, ${name}, $$).
func (m *matcher) expand(tmpl string, src []byte) []byte {
	x := m.plain.FindSubmatchIndex(src)
	if x == nil {
		return []byte(tmpl)
	}
	return m.plain.Expand(nil, []byte(tmpl), src, x)
}
