package shell

import (
	"errors"
	"fmt"
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

// parseText is the text the parser is given for src, and what was
// repaired in it (nil when src parses as it is).
func parseText(src string) (string, *repairs) {
	text, rep := earlyHdocEnds(src)
	if rep != nil {
		return repairErrors(src, repairSource(text, rep), rep), rep
	}
	if parsesOK(src) {
		return src, nil
	}
	rep = &repairs{}
	text = repairSource(src, rep)
	return repairErrors(src, text, rep), rep
}

// earlyHdocEnds mends the here-documents inside command substitutions
// that bash ends at a line starting with the delimiter and holding a )
// (see hdocInComsub), where mvdan's parser reads on to a later
// delimiter or to the end. It returns src and nil when there are none.
func earlyHdocEnds(src string) (string, *repairs) {
	if !strings.Contains(src, "<<") || !strings.Contains(src, "$(") {
		return src, nil
	}
	rep := &repairs{}
	b := []byte(src)
	for off := strings.Index(src, "<<"); off >= 0; {
		if !strings.HasPrefix(src[off:], "<<<") && (off == 0 || src[off-1] != '<') {
			ws, we, _ := hdocWord(src, off)
			delim := strings.NewReplacer("'", "", "\"", "", "\\", "").Replace(src[ws:we])
			if delim != "" && !strings.ContainsAny(delim, "$`") {
				hdocInComsub(src, b, off, delim, 1+strings.Count(src[:off], "\n"), rep)
			}
		}
		next := strings.Index(src[off+2:], "<<")
		if next < 0 {
			break
		}
		off += 2 + next
	}
	if len(rep.fixes) == 0 {
		return src, nil
	}
	return string(b), rep
}

func parsesOK(s string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	return err == nil
}

func repairSource(src string, rep *repairs) string {
	b := []byte(src)
	inDQ := false
	var hdocs []int // the << of the here-documents whose bodies come next
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			i++
		case c == '<' && !inDQ && strings.HasPrefix(src[i:], "<<") && !strings.HasPrefix(src[i:], "<<<"):
			hdocs = append(hdocs, i)
			_, we, _ := hdocWord(src, i)
			i = we - 1
		case c == '\n' && !inDQ && len(hdocs) > 0:
			// a body is text, not code: its quotes match nothing
			for _, op := range hdocs {
				i = hdocBodyEnd(src, op, i)
			}
			hdocs = hdocs[:0]
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
				if repairParam(src, b, i, end, rep) {
					rep.markBad(i)
				}
			}
			i = end
		case c == '$' && strings.HasPrefix(src[i:], "$((") && dparenComsub(src, i, b, rep):
			// $((cmd);(cmd)): a command substitution, as bash reads it
			i = matchingParen(src, i+1)
		case c == '$' && strings.HasPrefix(src[i:], "$(("):
			end := arithEnd(src, i+3)
			if end < 0 {
				if e, spans, ok := arithExpansions(src, i+3); ok && len(spans) > 0 && !parsesOK("echo "+src[i:e+1]) {
					blankArithExpansions(b, i+3, e-1, spans)
					if parsesOK("echo " + string(b[i:e+1])) {
						i = e
						continue
					}
					copy(b[i:e+1], src[i:e+1])
				}
				continue
			}
			if !parsesOK("echo " + src[i:end+1]) {
				if end-1 == i+3 {
					emptyArith(b, i, rep)
				}
				blankArith(src, b, i+3, end-1)
			}
			i = end
		case c == '(' && !inDQ && strings.HasPrefix(src[i:], "((") && cmdStart(src, i):
			if e, ok := dparenSubshell(src, i); ok && repairDparen(src, b, i, e, rep) {
				i = e
				continue
			}
			end := arithEnd(src, i+2)
			if end < 0 {
				if e, spans, ok := arithExpansions(src, i+2); ok && len(spans) > 0 && !parsesOK(src[i:e+1]) {
					blankArithExpansions(b, i+2, e-1, spans)
					if parsesOK(string(b[i : e+1])) {
						i = e
						continue
					}
					copy(b[i:e+1], src[i:e+1])
				}
				continue
			}
			if !parsesOK(src[i : end+1]) {
				if end-1 == i+2 {
					emptyArithCmd(b, i, rep)
				}
				blankArith(src, b, i+2, end-1)
			}
			i = end
		}
	}
	return string(b)
}

// hdocBodyEnd is the offset of the newline ending the delimiter line of
// the here-document whose << is at op and whose body starts after the
// newline at nl, or nl when no line ends it.
func hdocBodyEnd(src string, op, nl int) int {
	ws, we, dash := hdocWord(src, op)
	delim := strings.NewReplacer("'", "", "\"", "", "\\", "").Replace(src[ws:we])
	if delim == "" {
		return nl
	}
	for ls := nl + 1; ls < len(src); {
		le := strings.IndexByte(src[ls:], '\n')
		if le < 0 {
			le = len(src)
		} else {
			le += ls
		}
		line := src[ls:le]
		if dash {
			line = strings.TrimLeft(line, "\t")
		}
		if line == delim {
			return min(le, len(src)-1)
		}
		ls = le + 1
	}
	return nl
}

// dparenComsub handles a $(( at src[i] that bash reads as a command
// substitution: when the parenthesis after $( closes somewhere other than
// just before a second ), as in $((echo a);(echo b)), bash reads $( (.
// mvdan's parser always reads $(( as arithmetic, so the substitution's
// commands are parsed on their own, at the same offsets, and given to
// its node by apply; its text in b is blanked.
func dparenComsub(src string, i int, b []byte, rep *repairs) bool {
	inner := matchingParen(src, i+2)
	if inner < 0 || inner+1 < len(src) && src[inner+1] == ')' {
		return false
	}
	end := matchingParen(src, i+1)
	if end < 0 {
		return false
	}
	// the commands alone, every other byte but newlines blanked
	only := []byte(src)
	for k := range only {
		if (k < i+2 || k >= end) && only[k] != '\n' {
			only[k] = ' '
		}
	}
	f, err := parseBash(string(only), "")
	if err != nil {
		return false
	}
	for k := i + 2; k < end; k++ {
		if b[k] != '\n' {
			b[k] = ' '
		}
	}
	rep.fix(i, astFix{kind: fixComsub, stmts: f.Stmts})
	return true
}

// matchingParen is the index of the ) closing the ( at src[open], or -1;
// quoted text and escaped characters are skipped.
func matchingParen(src string, open int) int {
	depth := 0
	for j := open; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\'', '"', '`':
			k := strings.IndexByte(src[j+1:], src[j])
			if k < 0 {
				return -1
			}
			j += k + 1
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// cmdStart reports whether src[i] begins a command.
func cmdStart(src string, i int) bool {
	j := i
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
		j--
	}
	if j == 0 || strings.IndexByte("\n;&|", src[j-1]) >= 0 || j < i && strings.IndexByte("{(", src[j-1]) >= 0 {
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
func repairParam(src string, b []byte, i, end int, rep *repairs) bool {
	content := src[i+2 : end]
	// ${!-word} (and = ? +): $! with an operator, which the parser reads
	// as an indirection; it parses as ${_-word}, the name put back after.
	if len(content) > 2 && content[0] == '!' && strings.IndexByte("-=?+", content[1]) >= 0 {
		fixed := []byte(src[i : end+1])
		fixed[2] = '_'
		if parsesOK("echo " + string(fixed)) {
			copy(b[i:], fixed)
			rep.fix(i+2, astFix{kind: fixParamName, name: "!"})
			return false
		}
	}
	// ${#a[sub]} and ${!a[sub]}: the subscript follows the prefix
	pre := 0
	if len(content) > 1 && (content[0] == '#' || content[0] == '!') && paramNameLen(content[1:]) > 0 {
		pre = 1
	}
	n := paramNameLen(content[pre:])
	if n == 0 && content != "" && strings.IndexByte("@*#?-$!_", content[0]) >= 0 {
		n = 1
	}
	fixed := []byte(src[i : end+1])
	p := 2 + pre + n
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
	if pre == 0 && n > 0 && p < len(fixed)-1 && fixed[p] == '~' {
		fixed[p] = ','
		if p+1 < len(fixed)-1 && fixed[p+1] == '~' {
			fixed[p+1] = ','
		}
	}
	if parsesOK("echo " + string(fixed)) {
		copy(b[i:], fixed)
		return false
	}
	if n > 0 && repairSlice(fixed, p, i, rep) && parsesOK("echo "+string(fixed)) {
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
// single quotes are literal characters. Quotes around text that expands
// stay for sglInDQ.
func dqOperand(w *syntax.Word) *syntax.Word {
	var cp *syntax.Word
	for i, p := range w.Parts {
		if q, ok := p.(*syntax.SglQuoted); ok && !q.Dollar && !strings.ContainsAny(q.Value, "\\$`") {
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
func parseRepaired(src, name string) (*syntax.File, string, *repairs, error) {
	early, rep := earlyHdocEnds(src)
	f, err := parseBash(src, name)
	if err == nil && rep == nil {
		return f, src, nil, nil
	}
	if rep == nil {
		rep = &repairs{}
	}
	ptext := repairSource(early, rep)
	ptext = repairErrors(src, ptext, rep)
	if ptext == src {
		return nil, src, nil, err
	}
	f2, err2 := parseBash(ptext, name)
	if err2 != nil {
		return nil, ptext, rep, err2
	}
	rep.apply(f2)
	return f2, ptext, rep, nil
}

// repairs records what repairSource and repairErrors changed in a text:
// the ${..} that are bad substitutions, the nodes whose parsed form must
// be put back as bash reads them, and a here-document bash closes at the
// end of the file with a warning.
type repairs struct {
	bad   map[int]bool   // offsets of ${..} that are bad substitutions
	fixes map[int]astFix // by the offset of the node to mend
	// hdocs are here-documents bash ends early with a warning: at the
	// end of the text, or at a line of a command substitution that
	// starts with the delimiter and holds its ).
	hdocs   []hdocWarning
	hdocEOF bool // one of hdocs runs to the end of the text
	// synErrs are lines bash reads, reports a syntax error in and skips,
	// by the offset of the placeholder command that stands for them.
	synErrs map[int]synErr
}

// synErr is a syntax error bash reports when it reads the command, and
// then goes on with the next line: the lines from the command's start to
// the error's line are skipped, and $? is 1.
type synErr struct {
	line int    // the line of the bad token
	tok  string // the bad token
	text string // that line's text
	eval bool   // in an eval's text
}

type fixKind uint8

const (
	fixLet        fixKind = iota + 1 // a bare let: the command name is let
	fixDeclName                      // declare 1a=x: the assignment's name is name
	fixEmptySub                      // m[]=x: the name is name, the subscript empty
	fixParamName                     // ${!-x}: the parameter is name
	fixListMember                    // a[i]=(..): the name is name, "a[i]"
	fixEmptyElem                     // ([]=x): the element's subscript is empty
	fixLitChar                       // the literal begins with name, not its blanks
	fixComsub                        // $((cmd)..): the substitution's commands are stmts
	fixNegate                        // ! alone, time ! cmd: the statement (timed) is negated
)

type astFix struct {
	kind  fixKind
	name  string
	stmts []*syntax.Stmt
}

// hdocWarning is bash's warning for a here-document that runs to the end
// of the text (or of its command substitution): it is printed when the
// command holding it runs. off is the offset of its <<, line that of its
// <<, lastLine the line where bash stopped reading it.
type hdocWarning struct {
	off, line, lastLine int
	delim               string
}

func (rp *repairs) markBad(off int) {
	if rp.bad == nil {
		rp.bad = map[int]bool{}
	}
	rp.bad[off] = true
}

func (rp *repairs) fix(off int, f astFix) {
	if rp.fixes == nil {
		rp.fixes = map[int]astFix{}
	}
	rp.fixes[off] = f
}

// maxErrorRepairs bounds the parse-and-repair rounds of repairErrors.
const maxErrorRepairs = 64

// repairErrors mends, one parse error at a time, the constructs bash
// parses but mvdan's parser rejects: a bare let, declare 1a=x, m[]=x,
// ${}, ! ! cmd and a here-document without its delimiter. Each repair
// keeps every offset of the text (the here-document's delimiter is added
// at its end) and is recorded in rep, so that the parsed nodes can be
// mended (apply) and the shell keeps running the original text. A text
// that parses is never changed; one whose error is none of these comes
// back as it is.
func repairErrors(orig, text string, rep *repairs) string {
	for range maxErrorRepairs {
		_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
		var pe syntax.ParseError
		if err == nil || !errors.As(err, &pe) {
			return text
		}
		next, ok := repairError(orig, text, pe, rep)
		if !ok {
			return text
		}
		text = next
	}
	return text
}

// repairError mends the construct at the parse error pe of text, or
// reports false.
func repairError(orig, text string, pe syntax.ParseError, rep *repairs) (string, bool) {
	off := int(pe.Pos.Offset())
	if off < 0 || off > len(text) {
		return "", false
	}
	b := []byte(text)
	switch msg := pe.Text; {
	case msg == "`let` must be followed by an expression":
		if !strings.HasPrefix(text[off:], "let") {
			return "", false
		}
		rest := strings.TrimLeft(text[off+3:], " \t")
		if rest != "" && strings.IndexByte("\n;&|)#", rest[0]) < 0 {
			return "", false
		}
		copy(b[off:], "___")
		rep.fix(off, astFix{kind: fixLet})
	case msg == "invalid var name":
		// declare NAME=..., NAME not a valid name: the parser reads the
		// name as if valid, declare reports it when it runs.
		end := off
		for end < len(text) && text[end] != '=' && text[end] != '[' && !(text[end] == '+' && end+1 < len(text) && text[end+1] == '=') {
			if strings.IndexByte(" \t\n;&|()<>$`'\"\\{}*?", text[end]) >= 0 {
				return "", false
			}
			end++
		}
		if end == off || end == len(text) {
			return "", false
		}
		for k := off; k < end; k++ {
			b[k] = '_'
		}
		rep.fix(off, astFix{kind: fixDeclName, name: text[off:end]})
	case msg == "`[` must be followed by an expression":
		// NAME[]=x or NAME[ ]=x: bash reports the empty subscript when the
		// assignment runs; a blank one is a key of an associative array.
		if off >= len(text) || text[off] != '[' {
			return "", false
		}
		start := off
		for start > 0 && isNameByte(text[start-1]) {
			start--
		}
		close := strings.IndexByte(text[off:], ']')
		if start == off && off > 0 && strings.IndexByte("( \t\n", text[off-1]) >= 0 && close > 0 &&
			strings.Trim(text[off+1:off+close], " \t") == "" && strings.HasPrefix(text[off+close+1:], "=") {
			// ([]=x) or ([ ]=x), an element of a compound assignment: bash
			// reports an empty subscript when the assignment runs.
			if close > 1 {
				b[off+1] = '_'
				break
			}
			b[off], b[off+1] = '_', '_'
			rep.fix(off, astFix{kind: fixEmptyElem})
			break
		}
		if close < 0 || !validName(text[start:off]) || strings.Trim(text[off+1:off+close], " \t") != "" {
			return "", false
		}
		after := text[off+close+1:]
		if !strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "+=") {
			return "", false
		}
		if close > 1 {
			b[off+1] = '_' // the subscript is read from the original text
			break
		}
		b[off], b[off+1] = '_', '_'
		rep.fix(start, astFix{kind: fixEmptySub, name: text[start:off]})
	case strings.HasPrefix(msg, "not a valid arithmetic operator: ") || strings.HasSuffix(msg, "` must be followed by an expression"):
		// m[hello world]=x: bash reads an assignment's subscript to its ]
		// as a word, blanks and all. The subscript is read from the
		// original text when the assignment runs.
		open, close, ok := assignSubscriptAround(text, off)
		if !ok {
			// a[b[c]d]=e and the like: reported when it runs
			if !repairAssignSub(text, b, off, rep) {
				return "", false
			}
			break
		}
		for k := open + 1; k < close; k++ {
			if !isNameByte(b[k]) {
				b[k] = '_'
			}
		}
	case msg == "invalid parameter name":
		// ${}: a bad substitution when it runs.
		if off < 2 || !strings.HasPrefix(text[off-2:], "${}") {
			return "", false
		}
		copy(b[off-2:], "$__")
		rep.markBad(off - 2)
	case msg == "array element values must be words":
		// name=(a & b): bash reports the token, skips the lines of the
		// command and runs on.
		if !skipBadLines(text, off, pe, rep, b) {
			return "", false
		}
	case msg == "arrays cannot be nested" && strings.HasPrefix(text[off:], "=(") && off > 0 && text[off-1] == ']':
		// a[i]=(..): bash reports the list assigned to a member when the
		// assignment runs. The subscript becomes part of the name.
		open := strings.LastIndexByte(text[:off], '[')
		start := open
		for start > 0 && isNameByte(text[start-1]) {
			start--
		}
		if open < 0 || !validName(text[start:open]) || strings.ContainsAny(text[open:off], " \t\n") {
			return "", false
		}
		for k := open; k < off; k++ {
			b[k] = '_'
		}
		rep.fix(start, astFix{kind: fixListMember, name: text[start:off]})
	case msg == "`[x]` must be followed by `=`" && off < len(text) && text[off] == '[':
		// (a [ b ] c): an element is a subscript only when =
		// follows its ]; else [ is a word of its own, as in bash.
		// bash reads [ to its ] as one word, blanks and all.
		end := off + 1
		line, _, _ := strings.Cut(text[off:], "\n")
		if c := strings.IndexByte(line, ']'); c > 0 && !strings.ContainsAny(line[:c], "()<>;&|\"'`$\\") {
			end = off + c + 1
		}
		for k := off; k < end; k++ {
			b[k] = '_'
		}
		rep.fix(off, astFix{kind: fixLitChar, name: text[off:end]})
	case msg == "expansions not allowed in heredoc words":
		if !hdocLiteralWord(text, b, off) {
			return "", false
		}
	case msg == "cannot negate a command multiple times":
		// ! ! cmd: two negations cancel.
		j := off + 1
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if text[off] != '!' || j >= len(text) || text[j] != '!' {
			return "", false
		}
		b[off], b[j] = ' ', ' '
		if pipelineEnds(text, j+1) {
			b[off] = ':' // ! ! alone: a true status
		}
	case msg == "`!` cannot form a statement alone" && off < len(text) && text[off] == '!':
		// ! alone negates an empty pipeline: a false status.
		b[off] = ':'
		rep.fix(off, astFix{kind: fixNegate})
	case msg == "`!` can only be used in full statements" && off < len(text) && text[off] == '!':
		// time ! cmd: the timed pipeline is negated.
		t := timeBefore(text, off)
		if t < 0 {
			return "", false
		}
		b[off] = ' '
		rep.fix(t, astFix{kind: fixNegate})
	case strings.HasPrefix(msg, "unclosed here-document `") && !rep.hdocEOF:
		delim := strings.TrimSuffix(strings.TrimPrefix(msg, "unclosed here-document `"), "`")
		if delim == "" || strings.Contains(delim, "\n") {
			return "", false
		}
		if hdocInComsub(text, b, off, delim, int(pe.Pos.Line()), rep) || hdocTabDelim(text, b, off, delim) {
			break
		}
		if joined, ok := joinUnclosedHdoc(text, off, delim); ok {
			return joined, true
		}
		nlines := strings.Count(strings.TrimSuffix(orig, "\n"), "\n") + 1
		rep.hdocs = append(rep.hdocs, hdocWarning{off: off, line: int(pe.Pos.Line()), lastLine: nlines, delim: delim})
		rep.hdocEOF = true
		if !strings.HasSuffix(text, "\n") {
			b = append(b, '\n')
		}
		b = append(b, delim+"\n"...)
	default:
		if !repairAssignSub(text, b, off, rep) {
			return "", false
		}
	}
	return string(b), true
}

// pipelineEnds reports whether nothing but blanks comes in text from i
// to the end of a pipeline.
func pipelineEnds(text string, i int) bool {
	for ; i < len(text); i++ {
		switch text[i] {
		case ' ', '\t':
		case '\n', ';', '&', '|', ')', '}':
			return true
		default:
			return false
		}
	}
	return true
}

// timeBefore is the offset of the time keyword (time or time -p) right
// before offset off of text, or -1.
func timeBefore(text string, off int) int {
	s := strings.TrimRight(text[:off], " \t")
	s = strings.TrimSuffix(s, "-p")
	s = strings.TrimRight(s, " \t")
	if !strings.HasSuffix(s, "time") {
		return -1
	}
	t := len(s) - len("time")
	if t > 0 && isNameByte(text[t-1]) {
		return -1
	}
	return t
}

// assignSubscriptAround finds the subscript of an assignment word
// NAME[sub]=... or NAME[sub]+=... at the start of a command (an operand
// of declare is split into words first), or of an element [sub]=... of a
// compound assignment, that holds offset off of text: the
// offsets of its [ and ]. A subscript with quotes, expansions or
// parentheses is not one it mends.
func assignSubscriptAround(text string, off int) (open, close int, ok bool) {
	open = strings.LastIndexAny(text[:off], "[\n")
	if open < 0 || text[open] != '[' {
		return 0, 0, false
	}
	start := open
	for start > 0 && isNameByte(text[start-1]) {
		start--
	}
	switch {
	case start == open:
		// [sub]=v, an element of a compound assignment
		if open == 0 || strings.IndexByte("( \t\n", text[open-1]) < 0 {
			return 0, 0, false
		}
	case !validName(text[start:open]) || !cmdStart(text, start):
		return 0, 0, false
	}
	c := strings.IndexAny(text[open:], "]\n")
	if c < 0 || text[open+c] != ']' {
		return 0, 0, false
	}
	close = open + c
	if off > close || strings.ContainsAny(text[open+1:close], "[$`'\"\\()") {
		return 0, 0, false
	}
	after := text[close+1:]
	if !strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "+=") {
		return 0, 0, false
	}
	return open, close, true
}

// skipBadLines blanks in b the lines from the start of the compound
// assignment holding the bad token at off to the end of off's line, puts
// a placeholder command at their start and records the error there.
func skipBadLines(text string, off int, pe syntax.ParseError, rep *repairs, b []byte) bool {
	if off >= len(text) {
		return false
	}
	// the compound assignment's "=(": the nearest unmatched '(' before off
	depth, open := 0, -1
	for k := off - 1; k >= 0; k-- {
		switch text[k] {
		case ')':
			depth++
		case '(':
			if depth == 0 {
				open = k
			} else {
				depth--
			}
		}
		if open >= 0 {
			break
		}
	}
	if open < 1 || text[open-1] != '=' {
		return false
	}
	start := strings.LastIndexByte(text[:open], '\n') + 1
	lineStart := strings.LastIndexByte(text[:off], '\n') + 1
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += off
	}
	tok := text[off : off+1]
	for _, op := range []string{"&>>", "<<<", "<<-", ";;&", "&&", "||", ";;", ";&", "<>", ">>", "<<", ">&", "<&", ">|", "&>", "|&"} {
		if strings.HasPrefix(text[off:], op) {
			tok = op
			break
		}
	}
	for k := start; k < end; k++ {
		if b[k] != '\n' {
			b[k] = ' '
		}
	}
	b[start] = ':'
	if rep.synErrs == nil {
		rep.synErrs = map[int]synErr{}
	}
	rep.synErrs[start] = synErr{line: int(pe.Pos.Line()), tok: tok, text: text[lineStart:end]}
	return true
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// apply mends the nodes of n that rep recorded fixes for.
func (rp *repairs) apply(n syntax.Node) {
	if rp == nil || len(rp.fixes) == 0 || n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				if f, ok := rp.fixes[int(n.Args[0].Pos().Offset())]; ok && f.kind == fixLet {
					a := n.Args[0]
					n.Args[0] = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: a.Pos(), ValueEnd: a.End(), Value: "let"}}}
				}
			}
		case *syntax.Assign:
			if n.Name == nil {
				break
			}
			f, ok := rp.fixes[int(n.Name.Pos().Offset())]
			if !ok {
				break
			}
			switch f.kind {
			case fixDeclName, fixListMember:
				n.Name = &syntax.Lit{ValuePos: n.Name.ValuePos, ValueEnd: n.Name.ValueEnd, Value: f.name}
			case fixEmptySub:
				end := n.Name.ValueEnd
				n.Name = &syntax.Lit{ValuePos: n.Name.ValuePos, ValueEnd: n.Name.ValueEnd, Value: f.name}
				n.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: end, ValueEnd: end}}}
			}
		case *syntax.Lit:
			if f, ok := rp.fixes[int(n.ValuePos.Offset())]; ok && f.kind == fixLitChar && len(n.Value) >= len(f.name) {
				n.Value = f.name + n.Value[len(f.name):]
			} else if ok && f.kind == fixArithSpan && n.Value == "0" {
				// arithmetic is evaluated from the source's text
				p := n.ValuePos
				n.ValueEnd = syntax.NewPos(p.Offset()+uint(len(f.name)), p.Line(), p.Col()+uint(len(f.name)))
			}
		case *syntax.ArrayElem:
			if n.Index != nil || n.Value == nil || len(n.Value.Parts) == 0 {
				break
			}
			if f, ok := rp.fixes[int(n.Value.Pos().Offset())]; ok && f.kind == fixEmptyElem {
				lit, ok := n.Value.Parts[0].(*syntax.Lit)
				if !ok || !strings.HasPrefix(lit.Value, "__=") {
					break
				}
				sub := syntax.NewPos(lit.ValuePos.Offset()+1, lit.ValuePos.Line(), lit.ValuePos.Col()+1)
				n.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: sub, ValueEnd: sub}}}
				val := syntax.NewPos(lit.ValuePos.Offset()+3, lit.ValuePos.Line(), lit.ValuePos.Col()+3)
				n.Value.Parts[0] = &syntax.Lit{ValuePos: val, ValueEnd: lit.ValueEnd, Value: lit.Value[3:]}
			}
		case *syntax.Subshell:
			if f, ok := rp.fixes[int(n.Lparen.Offset())]; ok && f.kind == fixDparenSub {
				applyDparen(n, f)
			}
		case *syntax.ArithmExp:
			if f, ok := rp.fixes[int(n.Left.Offset())]; ok && f.kind == fixEmptyArith {
				n.Bracket, n.Right = false, shiftPos(n.Left, 3)
				n.X = emptyArithWord(n.Right)
			}
		case *syntax.Stmt:
			if f, ok := rp.fixes[int(n.Pos().Offset())]; ok && f.kind == fixNegate {
				if tc, ok := n.Cmd.(*syntax.TimeClause); ok && tc.Stmt != nil {
					tc.Stmt.Negated = true
				} else {
					n.Negated = true
				}
			}
			if c, ok := n.Cmd.(*syntax.CallExpr); ok && len(c.Args) == 1 && len(c.Assigns) == 0 {
				if f, ok := rp.fixes[int(c.Args[0].Pos().Offset())]; ok && f.kind == fixEmptyArithCmd {
					p := c.Args[0].Pos()
					n.Cmd = &syntax.ArithmCmd{Left: p, Right: shiftPos(p, 2), X: emptyArithWord(shiftPos(p, 2))}
				}
			}
		case *syntax.CmdSubst:
			if f, ok := rp.fixes[int(n.Left.Offset())]; ok && f.kind == fixComsub {
				n.Stmts = f.stmts
			}
		case *syntax.ParamExp:
			if n.Param != nil {
				if f, ok := rp.fixes[int(n.Param.Pos().Offset())]; ok && f.kind == fixParamName {
					n.Param = &syntax.Lit{ValuePos: n.Param.ValuePos, ValueEnd: n.Param.ValueEnd, Value: f.name}
				}
			}
		}
		return true
	})
}

func (rp *repairs) badSubsts() map[int]bool {
	if rp == nil {
		return nil
	}
	return rp.bad
}

// setRepairs records in f what was repaired in its text.
func (f *sourceFile) setRepairs(rp *repairs) {
	if rp != nil {
		f.bad, f.hdocs, f.synErrs = rp.bad, rp.hdocs, rp.synErrs
	}
}

// skipSynErr reports whether st stands for lines of file bash skips
// after a syntax error, which it then reports, setting $? to 1.
func (r *Interp) skipSynErr(file *sourceFile, st *syntax.Stmt) bool {
	e, ok := file.synErrs[int(st.Pos().Offset())]
	if !ok {
		return false
	}
	prefix := r.arg0 + ": "
	if e.eval {
		prefix = r.evalErrorPrefix()
	} else if r.cmdString && file.name == "" {
		prefix += "-c: "
	} else if file.name != "" {
		prefix = file.name + ": "
	}
	r.writeErr(fmt.Sprintf("%sline %d: syntax error near unexpected token `%s'\n%sline %d: `%s'\n", prefix, e.line, e.tok, prefix, e.line, e.text))
	r.status = 1
	return true
}

// hdocWarn prints bash's warnings for the here-documents of file that
// end early, before st, the command holding them, runs.
func (r *Interp) hdocWarn(file *sourceFile, st *syntax.Stmt) {
	r.hdocWarnBefore(file, int(st.End().Offset()))
}

// hdocWarnBefore prints the warnings for the here-documents of file that
// end early and start before offset end (bash warns as it reads them).
func (r *Interp) hdocWarnBefore(file *sourceFile, end int) {
	kept := file.hdocs[:0]
	for _, w := range file.hdocs {
		if w.off >= end {
			kept = append(kept, w)
			continue
		}
		r.errorfLine(w.lastLine, "warning: here-document at line %d delimited by end-of-file (wanted `%s')", w.line, w.delim)
	}
	file.hdocs = kept
}

// hdocWord is the span of the word after the << (or <<-) at off, and
// whether it is <<-.
func hdocWord(text string, off int) (ws, we int, dash bool) {
	ws = off + 2
	dash = strings.HasPrefix(text[ws:], "-")
	if dash {
		ws++
	}
	for ws < len(text) && (text[ws] == ' ' || text[ws] == '\t') {
		ws++
	}
	we = ws
	for we < len(text) && strings.IndexByte(" \t\n;&|()<>", text[we]) < 0 {
		switch text[we] {
		case '\\':
			we++
		case '\'', '"', '`':
			if k := strings.IndexByte(text[we+1:], text[we]); k >= 0 {
				we += k + 1
			}
		case '$':
			if strings.HasPrefix(text[we:], "$(") {
				if k := matchingParen(text, we+1); k > 0 {
					we = k
				}
			}
		}
		we++
	}
	return ws, min(we, len(text)), dash
}

// bodyLines calls fn with the start and end of each line of the body of
// the here-document whose << is at off, until fn returns true.
func bodyLines(text string, off int, fn func(ls, le int) bool) {
	nl := strings.IndexByte(text[off:], '\n')
	if nl < 0 {
		return
	}
	for ls := off + nl + 1; ls < len(text); {
		le := strings.IndexByte(text[ls:], '\n')
		if le < 0 {
			le = len(text)
		} else {
			le += ls
		}
		if fn(ls, le) {
			return
		}
		ls = le + 1
	}
}

// joinUnclosedHdoc mends a here-document, whose << is at off, that a
// line joined by backslash-newlines ends (see joinDelimiterLine).
func joinUnclosedHdoc(text string, off int, delim string) (string, bool) {
	ws, we, dash := hdocWord(text, off)
	if strings.ContainsAny(text[ws:we], "'\"\\") || !strings.Contains(text[off:], "\\\n") {
		return "", false
	}
	nl := strings.IndexByte(text[off:], '\n')
	if nl < 0 {
		return "", false
	}
	return joinDelimiterLine(text, off+nl+1, len(text), delim, dash)
}

// hdocTabDelim mends <<-'<tab>END': bash ends the document at a line
// that is the delimiter, tabs and all, before it strips the line's tabs;
// mvdan's parser strips them first, so never finds it. The word loses
// its leading tabs, when no line before would then end the document.
func hdocTabDelim(text string, b []byte, off int, delim string) bool {
	if !strings.HasPrefix(text[off:], "<<-") || !strings.HasPrefix(delim, "\t") {
		return false
	}
	ws, we, _ := hdocWord(text, off)
	short := strings.TrimLeft(delim, "\t")
	word := "'" + short + "'"
	if short == "" || strings.Contains(short, "'") || len(word) > we-ws {
		return false
	}
	ok := false
	bodyLines(text, off, func(ls, le int) bool {
		line := text[ls:le]
		ok = line == delim
		return ok || strings.TrimLeft(line, "\t") == short
	})
	if ok {
		copy(b[ws:we], word+strings.Repeat(" ", we-ws-len(word)))
	}
	return ok
}

// hdocLiteralWord mends a here-document word with an expansion in it,
// such as <<EO`true`F: bash takes its text as the delimiter, unexpanded.
// The expansion's characters become _ in the word and in the first
// line of the body that is that text; off is in the word.
func hdocLiteralWord(text string, b []byte, off int) bool {
	lineStart := strings.LastIndexByte(text[:off], '\n') + 1
	op := strings.LastIndex(text[lineStart:off], "<<")
	if op < 0 {
		return false
	}
	op += lineStart
	ws, we, dash := hdocWord(text, op)
	if off < ws || off >= we {
		return false
	}
	word := text[ws:we]
	delim := word
	if strings.ContainsAny(word, "'\"\\") {
		delim = strings.NewReplacer("'", "", "\"", "", "\\", "").Replace(word)
	}
	mend := func(s string) string {
		return strings.Map(func(c rune) rune {
			if strings.ContainsRune("$`(){}", c) {
				return '_'
			}
			return c
		}, s)
	}
	found := false
	bodyLines(text, op, func(ls, le int) bool {
		t := ls
		for dash && t < le && text[t] == '\t' {
			t++
		}
		if text[t:le] == delim {
			copy(b[t:le], mend(delim))
			found = true
		}
		return found
	})
	copy(b[ws:we], mend(word))
	return true
}

// hdocInComsub mends a here-document, whose << is at off, that bash ends
// inside a command substitution: at the first line of its body that
// starts with the delimiter and holds a ), the rest of the line being
// read as commands again (cat <<EOF ... EOF) closes the substitution).
// The substitution's commands are parsed on their own, in a text that
// ends after that delimiter, at the same offsets, and given to its node
// by apply; its text in b is blanked. The warning bash prints is
// recorded in rep.
func hdocInComsub(text string, b []byte, off int, delim string, line int, rep *repairs) bool {
	if !strings.HasPrefix(text[off:], "<<") {
		return false
	}
	dash := strings.HasPrefix(text[off+2:], "-")
	// the body's lines, from the line after the <<
	nl := strings.IndexByte(text[off:], '\n')
	if nl < 0 {
		return false
	}
	for ls := off + nl + 1; ls < len(text); {
		le := strings.IndexByte(text[ls:], '\n')
		if le < 0 {
			le = len(text)
		} else {
			le += ls
		}
		t := ls
		if dash {
			for t < le && text[t] == '\t' {
				t++
			}
		}
		rest, ok := strings.CutPrefix(text[t:le], delim)
		if ok && rest == "" {
			return false // the document ends here
		}
		if ok && strings.Contains(rest, ")") {
			end := t + len(delim)
			close := end + strings.IndexByte(rest, ')')
			open := comsubAround(text, off)
			if open < 0 || strings.Trim(text[end:close], " \t") != "" {
				return false
			}
			only := []byte(text[:end])
			for k := 0; k < open+2; k++ {
				if only[k] != '\n' {
					only[k] = ' '
				}
			}
			f, err := parseBash(string(only), "")
			if err != nil {
				return false
			}
			for k := open + 2; k < close; k++ {
				if b[k] != '\n' {
					b[k] = ' '
				}
			}
			rep.fix(open, astFix{kind: fixComsub, stmts: f.Stmts})
			rep.hdocs = append(rep.hdocs, hdocWarning{off: off, line: line, lastLine: line + strings.Count(text[off:ls], "\n"), delim: delim})
			return true
		}
		ls = le + 1
	}
	return false
}

// comsubAround is the offset of the innermost $( of text that no )
// closes before offset off, or -1.
func comsubAround(text string, off int) int {
	for k := strings.LastIndex(text[:off], "$("); k >= 0; k = strings.LastIndex(text[:k], "$(") {
		if end := matchingParen(text, k+1); end < 0 || end > off {
			return k
		}
	}
	return -1
}
