package shell

// Temporary stand-ins until pattern.go, glob.go and test.go land.

import (
	"path"
	"regexp"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/pattern"
)

type patternMode uint8

const (
	patternExtglob patternMode = 1 << iota
	patternNoCase
	patternPathname
	patternDotglob
)

type patternMatcher struct {
	re, pre, suf, any *regexp.Regexp
	min               *regexp.Regexp
}

func patternCompile(pat string, mode patternMode) (*patternMatcher, error) {
	m := pattern.Mode(0)
	if mode&patternExtglob != 0 {
		m |= pattern.ExtendedOperators
	}
	if mode&patternNoCase != 0 {
		m |= pattern.NoGlobCase
	}
	s, err := pattern.Regexp(pat, m|pattern.EntireString)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, err
	}
	a, _ := pattern.Regexp(pat, m)
	anyRe, _ := regexp.Compile(a)
	return &patternMatcher{re: re, any: anyRe}, nil
}

func (m *patternMatcher) match(s string) bool { return m.re.MatchString(s) }

func (m *patternMatcher) matchPrefix(s string, longest bool) int {
	if longest {
		for i := len(s); i >= 0; i-- {
			if m.re.MatchString(s[:i]) {
				return i
			}
		}
		return -1
	}
	for i := 0; i <= len(s); i++ {
		if m.re.MatchString(s[:i]) {
			return i
		}
	}
	return -1
}

func (m *patternMatcher) matchSuffix(s string, longest bool) int {
	if longest {
		for i := 0; i <= len(s); i++ {
			if m.re.MatchString(s[i:]) {
				return i
			}
		}
		return -1
	}
	for i := len(s); i >= 0; i-- {
		if m.re.MatchString(s[i:]) {
			return i
		}
	}
	return -1
}

func (m *patternMatcher) find(s string, from int) (int, int) {
	for i := from; i <= len(s); i++ {
		for j := len(s); j >= i; j-- {
			if m.re.MatchString(s[i:j]) {
				return i, j
			}
		}
	}
	return -1, -1
}

func patternHasMeta(pat string, extglob bool) bool { return strings.ContainsAny(pat, "*?[") }

func patternUnescape(pat string) string {
	var sb strings.Builder
	for i := 0; i < len(pat); i++ {
		if pat[i] == '\\' && i+1 < len(pat) {
			i++
		}
		sb.WriteByte(pat[i])
	}
	return sb.String()
}

type globOptions struct {
	Dotglob, Nullglob, Failglob, Nocaseglob, Extglob, Globstar bool
	Ignore                                                     []string
}

type globEntry struct {
	Name             string
	IsDir, IsSymlink bool
}

type globFS interface {
	globReadDir(dir string) ([]globEntry, error)
	globLstat(path string) (isDir, isSymlink, exists bool)
}

func globExpand(pat string, opts globOptions, fsys globFS) ([]string, error) {
	abs := strings.HasPrefix(pat, "/")
	parts := strings.Split(strings.Trim(pat, "/"), "/")
	cur := []string{""}
	if abs {
		cur = []string{"/"}
	}
	for _, part := range parts {
		var next []string
		for _, dir := range cur {
			if !strings.ContainsAny(part, "*?[") {
				p := path.Join(dir, patternUnescape(part))
				if dir == "" {
					p = patternUnescape(part)
				}
				if _, _, ok := fsys.globLstat(p); ok {
					next = append(next, p)
				}
				continue
			}
			m, err := patternCompile(part, 0)
			if err != nil {
				return nil, err
			}
			ents, err := fsys.globReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range ents {
				if strings.HasPrefix(e.Name, ".") && !strings.HasPrefix(part, ".") && !opts.Dotglob {
					continue
				}
				if m.match(e.Name) {
					if dir == "" {
						next = append(next, e.Name)
					} else {
						next = append(next, path.Join(dir, e.Name))
					}
				}
			}
		}
		cur = next
	}
	sort.Strings(cur)
	return cur, nil
}
