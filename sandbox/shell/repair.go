package shell

import (
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// bash parses arithmetic ($((..)), ((..)), subscripts) and the operators
// of ${..} loosely and reports their errors when it runs them; mvdan's
// parser rejects them up front, and knows no ${x~} or ${x~~}. When a
// source text does not parse, repairSource rewrites such constructs to
// text of the same length that parses. The shell keeps running the
// original text: arithmetic and subscripts are evaluated from it, so the
// rewritten node only marks the place; ${x~} reads its operator from it;
// a ${..} bash would reject at run time is recorded in bad.

// parseText is the text the parser is given for src, and the offsets of
// ${..} expansions that are bad substitutions.
func parseText(src string) (string, map[int]bool) {
	if parsesOK(src) {
		return src, nil
	}
	return repairSource(src)
}

func parsesOK(s string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	return err == nil
}

func repairSource(src string) (string, map[int]bool) {
	b := []byte(src)
	var bad map[int]bool
	inDQ := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			i++
		case c == '\'' && !inDQ:
			dollar := i > 0 && src[i-1] == '$'
			j := i + 1
			for j < len(src) && src[j] != '\'' {
				if dollar && src[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case c == '"':
			inDQ = !inDQ
		case c == '#' && !inDQ && (i == 0 || strings.IndexByte(" \t\n;&|()", src[i-1]) >= 0):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '$' && strings.HasPrefix(src[i:], "${"):
			end := braceEnd(src, i+2)
			if end < 0 {
				continue
			}
			if !parsesOK("echo " + src[i:end+1]) {
				if repairParam(src, b, i, end) {
					if bad == nil {
						bad = map[int]bool{}
					}
					bad[i] = true
				}
			}
			i = end
		case c == '$' && strings.HasPrefix(src[i:], "$(("):
			end := arithEnd(src, i+3)
			if end < 0 {
				continue
			}
			if !parsesOK("echo " + src[i:end+1]) {
				blankArith(src, b, i+3, end-1)
			}
			i = end
		case c == '(' && !inDQ && strings.HasPrefix(src[i:], "((") && cmdStart(src, i):
			end := arithEnd(src, i+2)
			if end < 0 {
				continue
			}
			if !parsesOK(src[i : end+1]) {
				blankArith(src, b, i+2, end-1)
			}
			i = end
		}
	}
	return string(b), bad
}

// cmdStart reports whether src[i] begins a command.
func cmdStart(src string, i int) bool {
	j := i
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
		j--
	}
	if j == 0 || strings.IndexByte("\n;&|", src[j-1]) >= 0 {
		return true
	}
	k := j
	for k > 0 && src[k-1] >= 'a' && src[k-1] <= 'z' {
		k--
	}
	switch src[k:j] {
	case "do", "then", "else", "elif", "if", "while", "until":
		return k == 0 || strings.IndexByte(" \t\n;&|", src[k-1]) >= 0
	}
	return false
}

// braceEnd is the index of the } closing a ${ whose content starts at i,
// or -1.
func braceEnd(src string, i int) int {
	depth := 1
	for ; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '\'':
			j := strings.IndexByte(src[i+1:], '\'')
			if j < 0 {
				return -1
			}
			i += j + 1
		case '{':
			if i > 0 && src[i-1] == '$' {
				depth++
			}
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		case '\n':
			return -1
		}
	}
	return -1
}

// arithEnd is the index of the second ) of the )) closing an arithmetic
// expression whose content starts at i, or -1.
func arithEnd(src string, i int) int {
	depth := 2
	for ; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				if src[i-1] == ')' && i-1 >= 0 {
					return i
				}
				return -1
			}
		case '\n', '`', '\'':
			return -1
		case '$':
			return -1 // expansions inside: leave it to the parser
		}
	}
	return -1
}

// blankArith replaces the arithmetic text in [s, e) with "0" and blanks.
func blankArith(src string, b []byte, s, e int) {
	if s >= e {
		return
	}
	b[s] = '0'
	for k := s + 1; k < e; k++ {
		b[k] = ' '
	}
}

// repairParam rewrites the ${..} in src[i:end+1] in b so that it parses.
// It reports whether the expansion is a bad substitution.
func repairParam(src string, b []byte, i, end int) bool {
	content := src[i+2 : end]
	n := paramNameLen(content)
	if n == 0 && content != "" && strings.IndexByte("@*#?-$!_", content[0]) >= 0 {
		n = 1
	}
	fixed := []byte(src[i : end+1])
	p := 2 + n
	// a subscript the arithmetic parser rejects: keep only word characters
	if n > 0 && p < len(fixed)-1 && fixed[p] == '[' {
		if k := strings.IndexByte(string(fixed[p:]), ']'); k > 0 {
			sub := fixed[p+1 : p+k]
			if !strings.ContainsAny(string(sub), "$`'\"\\") && !parsesOK("echo "+string(fixed[:p+k+1])+"}") {
				for j, ch := range sub {
					if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_') {
						sub[j] = '_'
					}
				}
			}
			p += k + 1
		}
	}
	// ${x~} and ${x~~}: parse as ${x,} and ${x,,}; the operator is read
	// from the source.
	if n > 0 && p < len(fixed)-1 && fixed[p] == '~' {
		fixed[p] = ','
		if p+1 < len(fixed)-1 && fixed[p+1] == '~' {
			fixed[p+1] = ','
		}
	}
	if parsesOK("echo " + string(fixed)) {
		copy(b[i:], fixed)
		return false
	}
	if len(content) == 0 || strings.ContainsAny(content, "\n") {
		return false
	}
	for k := i + 2; k < end; k++ {
		b[k] = '_'
	}
	return true
}

func paramNameLen(s string) int {
	n := 0
	for n < len(s) {
		ch := s[n]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch == '_' || n > 0 && ch >= '0' && ch <= '9' {
			n++
			continue
		}
		break
	}
	if n == 0 {
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
	}
	return n
}

// caseToggle reports whether pe, parsed as ${x,} or ${x,,}, is written
// ${x~} or ${x~~} in the source.
func (r *Interp) caseToggle(pe *syntax.ParamExp) bool {
	t := r.curText(pe)
	if !strings.HasPrefix(t, "${") {
		return false
	}
	t = t[2:]
	n := paramNameLen(t)
	if n == 0 && t != "" {
		n = 1
	}
	t = t[n:]
	if strings.HasPrefix(t, "[") {
		if k := strings.IndexByte(t, ']'); k > 0 {
			t = t[k+1:]
		}
	}
	return strings.HasPrefix(t, "~")
}

// caseToggle implements ${x~pat} and ${x~~pat}: it swaps the case of the
// first (all) characters matching pat.
func caseToggle(s, pat string, mode patternMode, all bool) string {
	m, err := patternCompile(pat, mode)
	if err != nil {
		return s
	}
	var sb strings.Builder
	for i, c := range s {
		if (i == 0 || all) && m.match(string(c)) {
			if unicode.IsUpper(c) {
				c = unicode.ToLower(c)
			} else if unicode.IsLower(c) {
				c = unicode.ToUpper(c)
			}
		}
		sb.WriteRune(c)
	}
	return sb.String()
}

// isLitAtIndex reports whether pe's subscript is a literal @ or *.
func isLitAtIndex(pe *syntax.ParamExp) bool {
	w, ok := pe.Index.(*syntax.Word)
	if !ok {
		return false
	}
	l := w.Lit()
	return l == "@" || l == "*"
}

// badRepaired reports a ${..} repairSource marked bad. An unknown
// ${x@op} ends bash's shell as an unset variable under set -u does.
func (r *Interp) badRepaired(pe *syntax.ParamExp) {
	t := r.curText(pe)
	r.errorf("%s: bad substitution", t)
	if len(t) > 2 {
		if n := paramNameLen(t[2:]); n > 0 && strings.HasPrefix(t[2+n:], "@") {
			panic(&exitError{status: 1, unbound: true})
		}
	}
	panic(errDiscard)
}

// dqOperand is w as the operand of ${x:-w} inside double quotes, where
// single quotes are literal characters.
func dqOperand(w *syntax.Word) *syntax.Word {
	var cp *syntax.Word
	for i, p := range w.Parts {
		if q, ok := p.(*syntax.SglQuoted); ok && !q.Dollar && !strings.Contains(q.Value, "\\") {
			if cp == nil {
				cp = &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
			}
			cp.Parts[i] = &syntax.DblQuoted{Parts: []syntax.WordPart{&syntax.Lit{Value: "'" + q.Value + "'"}}}
		}
	}
	if cp == nil {
		return w
	}
	return cp
}

// dirStackEntry is ~N, ~+N or ~-N: an entry of the directory stack as
// dirs lists it.
func (r *Interp) dirStackEntry(s string) (string, bool) {
	from := s
	if s != "" && (s[0] == '+' || s[0] == '-') {
		from = s[1:]
	}
	if from == "" {
		return "", false
	}
	n := 0
	for _, c := range from {
		if c < '0' || c > '9' || n > 1<<20 {
			return "", false
		}
		n = n*10 + int(c-'0')
	}
	list := []string{r.dir}
	for i := len(r.dirStack) - 1; i >= 0; i-- {
		list = append(list, r.dirStack[i])
	}
	if s[0] == '-' {
		n = len(list) - 1 - n
	}
	if n < 0 || n >= len(list) {
		return "", false
	}
	return list[n], true
}

// extglobOff finds an extended glob outside [[ ]] in stmts, which bash
// without extglob does not parse. It returns the offset of its "(".
func extglobOff(stmts []*syntax.Stmt) (uint, bool) {
	var pos uint
	found := false
	for _, st := range stmts {
		syntax.Walk(st, func(n syntax.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *syntax.TestClause:
				return false
			case *syntax.ExtGlob:
				pos, found = n.OpPos.Offset()+1, true
				return false
			}
			return true
		})
		if found {
			return pos, true
		}
	}
	return 0, false
}

// parseRepaired parses src, repairing it when it does not parse. It
// returns the text parsed and the bad substitutions found.
func parseRepaired(src, name string) (*syntax.File, string, map[int]bool, error) {
	f, err := parseBash(src, name)
	if err == nil {
		return f, src, nil, nil
	}
	ptext, bad := repairSource(src)
	if ptext == src {
		return nil, src, nil, err
	}
	f2, err2 := parseBash(ptext, name)
	if err2 != nil {
		return nil, ptext, bad, err2
	}
	return f2, ptext, bad, nil
}
