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
	if parsesOK(src) {
		return src, nil
	}
	text, rep := repairSource(src)
	return repairErrors(src, text, rep), rep
}

func parsesOK(s string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	return err == nil
}

func repairSource(src string) (string, *repairs) {
	b := []byte(src)
	rep := &repairs{}
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
				if repairParam(src, b, i, end, rep) {
					rep.markBad(i)
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
	return string(b), rep
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
	f, err := parseBash(src, name)
	if err == nil {
		return f, src, nil, nil
	}
	ptext, rep := repairSource(src)
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
	hdoc  *hdocWarning
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
)

type astFix struct {
	kind fixKind
	name string
}

// hdocWarning is bash's warning for a here-document that runs to the end
// of the text: it is printed when the command holding it runs.
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
			return "", false
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
	case strings.HasPrefix(msg, "unclosed here-document `") && rep.hdoc == nil:
		delim := strings.TrimSuffix(strings.TrimPrefix(msg, "unclosed here-document `"), "`")
		if delim == "" || strings.Contains(delim, "\n") {
			return "", false
		}
		nlines := strings.Count(strings.TrimSuffix(orig, "\n"), "\n") + 1
		rep.hdoc = &hdocWarning{off: off, line: int(pe.Pos.Line()), lastLine: nlines, delim: delim}
		if !strings.HasSuffix(text, "\n") {
			b = append(b, '\n')
		}
		b = append(b, delim+"\n"...)
	default:
		return "", false
	}
	return string(b), true
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
		f.bad, f.hdoc, f.synErrs = rp.bad, rp.hdoc, rp.synErrs
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

// hdocWarn prints bash's warning for a here-document of file that runs
// to the end of the text, before st, the command holding it, runs.
func (r *Interp) hdocWarn(file *sourceFile, st *syntax.Stmt) {
	w := file.hdoc
	if w == nil || int(st.End().Offset()) <= w.off {
		return
	}
	file.hdoc = nil
	r.errorfLine(w.lastLine, "warning: here-document at line %d delimited by end-of-file (wanted `%s')", w.line, w.delim)
}
