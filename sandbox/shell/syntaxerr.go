package shell

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// parseBash parses src like bash: what mvdan's parser accepts but bash
// rejects (a function body that is not a compound command) is a syntax
// error too.
func parseBash(src, name string) (*syntax.File, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), name)
	for range maxErrorRepairs {
		if err != nil {
			return f, earlierBashError(src, name, err)
		}
		text, ok := joinHdocDelimiter(f, src)
		if !ok {
			break
		}
		src = text
		f, err = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), name)
	}
	backquoteContinuations(f, src)
	return f, bashOnlyError(f, name)
}

// bashOnlyError is the first error in f that mvdan's parser accepts but
// bash rejects: a function body that is not a compound command, or the
// reserved word in where a command starts.
func bashOnlyError(f *syntax.File, name string) error {
	var bad error
	syntax.Walk(f, func(n syntax.Node) bool {
		if bad != nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Body == nil {
				break
			}
			if c, ok := n.Body.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				bad = syntax.ParseError{Filename: name, Pos: c.Args[0].Pos(), Text: "function body: encountered `" + c.Args[0].Lit() + "`"}
			}
		case *syntax.Stmt:
			if w := reservedInCommand(n); w != nil {
				bad = syntax.ParseError{Filename: name, Pos: w.Pos(), Text: "command: encountered `in`"}
			}
		}
		return true
	})
	return bad
}

// earlierBashError is the error bash meets first when the text before the
// one mvdan's parser stopped at (err) parses but holds a bash-only error:
// bash reads in order and reports that one.
func earlierBashError(src, name string, err error) error {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	off := int(pe.Pos.Offset())
	if off <= 0 || off > len(src) {
		return err
	}
	f, perr := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src[:off]), name)
	if perr != nil {
		return err
	}
	if bad := bashOnlyError(f, name); bad != nil {
		return bad
	}
	return err
}

// reservedInCommand returns the word in when it starts st's simple
// command: bash reads it there as the reserved word, an unexpected token
// (after an assignment or a redirection it is a command name).
func reservedInCommand(st *syntax.Stmt) *syntax.Word {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 || len(c.Args) == 0 || c.Args[0].Lit() != "in" {
		return nil
	}
	for _, rd := range st.Redirs {
		if rd.Pos().Offset() < c.Args[0].Pos().Offset() {
			return nil
		}
	}
	return c.Args[0]
}

// quotedToken returns tok when msg starts with "`tok` " and one of
// phrases, as the parser words some errors ("`&&` must be followed by a
// statement"). It is plain string work: the regexps it replaced were
// compiled at every start of the core.
func quotedToken(msg string, phrases ...string) (string, bool) {
	if !strings.HasPrefix(msg, "`") {
		return "", false
	}
	i := strings.IndexByte(msg[1:], '`') + 1
	if i <= 1 {
		return "", false
	}
	for _, p := range phrases {
		if strings.HasPrefix(msg[i+1:], " "+p) {
			return msg[1:i], true
		}
	}
	return "", false
}

// bashSyntaxError words a parse error of src as bash does; base is added
// to line numbers (eval).
func bashSyntaxError(err error, src, prefix string, base, fallbackLine int) string {
	var pe syntax.ParseError
	var le syntax.LangError
	if errors.As(err, &le) {
		// a feature of another shell, such as if() { :; } read as an
		// anonymous function: bash sees a syntax error at the same place.
		pe = syntax.ParseError{Filename: le.Filename, Pos: le.Pos, Text: le.Feature + " are a feature of another shell"}
	} else if !errors.As(err, &pe) {
		return fmt.Sprintf("%sline %d: syntax error: %s\n", prefix, fallbackLine, err.Error())
	}
	msg := pe.Text
	lines := strings.Split(src, "\n")
	nlines := len(strings.Split(strings.TrimSuffix(src, "\n"), "\n"))
	eof := fmt.Sprintf("%sline %d: syntax error: unexpected end of file\n", prefix, base+nlines+1)
	near := func(tok string, line int) string {
		text := ""
		if line >= 1 && line <= len(lines) {
			text = lines[line-1]
		}
		return fmt.Sprintf("%sline %d: syntax error near unexpected token `%s'\n%sline %d: `%s'\n", prefix, base+line, tok, prefix, base+line, text)
	}
	off := int(pe.Pos.Offset())
	if off > len(src) {
		off = len(src)
	}
	line := int(pe.Pos.Line())
	if text, semis, ok := arithForHeader(src, off); ok && semis != 2 {
		// for (( a; b )) or for (( a; b; c; d )): bash words it so
		what := "arithmetic expression required"
		if semis > 2 {
			what = "`;' unexpected"
		}
		return fmt.Sprintf("%sline %d: syntax error: %s\n%sline %d: syntax error: `%s'\n", prefix, base+line, what, prefix, base+line, text)
	}
	op, followed := quotedToken(msg, "must be followed by")
	atTok, atToken := quotedToken(msg, "can only", "is not a valid", "must")
	switch {
	case msg == "`case x` must be followed by `in`" && strings.HasPrefix(src[off:], "case"):
		// the token after case's word
		rest := strings.TrimLeft(src[off+4:], " \t")
		_, w := nextToken(rest, line)
		word, _ := nextToken(rest, line)
		tok, tline := nextToken(rest[len(word):], w)
		if tok == "" {
			return eof
		}
		return near(tok, tline)
	case strings.HasPrefix(msg, "reached EOF without closing quote `"):
		q := strings.TrimSuffix(strings.TrimPrefix(msg, "reached EOF without closing quote `"), "`")
		return fmt.Sprintf("%sline %d: unexpected EOF while looking for matching `%s'\n", prefix, base+nlines, q)
	case strings.HasPrefix(msg, "reached EOF without matching `$(` with `)`"):
		return fmt.Sprintf("%sline %d: unexpected EOF while looking for matching `)'\n", prefix, base+nlines+1)
	case strings.Contains(msg, "encountered `"):
		tok := msg[strings.Index(msg, "encountered `")+len("encountered `"):]
		return near(strings.TrimSuffix(tok, "`"), line)
	case followed:
		rest := src[off:]
		rest = strings.TrimPrefix(rest, op)
		tok, tline := nextToken(rest, line)
		if tok == "" {
			switch op {
			case "==", "!=", "=~", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef":
				if strings.Contains(src[:off], "[[") {
					return fmt.Sprintf("%sline %d: unexpected argument `newline' to conditional binary operator\n", prefix, base+line)
				}
			}
			switch op {
			case "if", "then", "else", "elif", "do", "while", "until", "!", "{", "(", "|", "|&", "&&", "||":
				return eof
			}
			return near("newline", line)
		}
		return near(tok, tline)
	case msg == "case patterns must be separated with `|`":
		tok, tline := nextToken(src[off:], line)
		if tok == "" {
			return eof
		}
		return near(tok, tline)
	case strings.HasPrefix(msg, "statements must be separated by"):
		// { :; } x, case x in esac) ...: bash names the token there
		tok, tline := nextToken(src[off:], line)
		if tok == "" {
			return eof
		}
		return near(tok, tline)
	case strings.HasPrefix(msg, "anonymous functions are a"):
		// if() { :; }: bash reads if, then ( opens a subshell and the )
		// is unexpected.
		tok, tline := nextToken(src[min(off+1, len(src)):], line)
		if tok == "" {
			return eof
		}
		return near(tok, tline)
	case atToken:
		return near(atTok, line)
	case !pe.Incomplete && (strings.Contains(msg, "must end with") || strings.HasPrefix(msg, "reached `)` without matching")) && enclosingClose(src, off) >= 0:
		// $( if x; then echo foo ): bash meets the ) before the fi
		c := enclosingClose(src, off)
		return near(")", 1+strings.Count(src[:c], "\n"))
	case pe.Incomplete || strings.Contains(msg, "must end with") || strings.Contains(msg, "reached EOF"):
		return eof
	}
	return fmt.Sprintf("%sline %d: syntax error: %s\n", prefix, base+line, msg)
}

// nextToken is the first shell token of s (starting on line), or "" at
// the end of the text.
func nextToken(s string, line int) (string, int) {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n') {
		if s[0] == '\n' {
			line++
		}
		s = s[1:]
	}
	if s == "" {
		return "", line
	}
	for _, op := range []string{";;&", ";;", ";&", "&&", "||", "<<", ">>", "&>", "<&", ">&", "|&", ";", "&", "|", "(", ")", "<", ">"} {
		if strings.HasPrefix(s, op) {
			return op, line
		}
	}
	end := strings.IndexAny(s, " \t\n;&|()<>")
	if end < 0 {
		end = len(s)
	}
	return s[:end], line
}

// runBeforeSyntaxError runs the statements of src that end before the
// line of its syntax error err, with line numbers offset by base.
func (r *Interp) runBeforeSyntaxError(src, name string, err error, base int) {
	errLine := uint(1 << 31)
	var pe syntax.ParseError
	if errors.As(err, &pe) && pe.Pos.Line() > 0 {
		errLine = pe.Pos.Line()
	}
	parseEach(src, func(st *syntax.Stmt) bool {
		if r.fatal != nil || st.End().Line() >= errLine {
			return false
		}
		r.stmtsAt([]*syntax.Stmt{st}, base)
		return !r.exiting && !r.returning && r.brk == 0 && r.cont == 0
	})
}

// unclosedArith is the offset of the first $(( in src whose parentheses
// nothing after it closes, or -1.
func unclosedArith(src string) int {
	for i := 0; i < len(src); i++ {
		if strings.HasPrefix(src[i:], "$((") && parenDepth(src[i:]) > 0 {
			return i
		}
	}
	return -1
}

// unclosedRegex is the offset of the first [[ in src whose =~ opens, in
// the same line, a parenthesis nothing after it closes, or -1.
func unclosedRegex(src string) int {
	for i := 0; i < len(src); i++ {
		if !strings.HasPrefix(src[i:], "[[") {
			continue
		}
		line, _, _ := strings.Cut(src[i:], "\n")
		j := strings.Index(line, "=~")
		if j < 0 {
			continue
		}
		rest := strings.TrimLeft(src[i+j+2:], " \t")
		if strings.HasPrefix(rest, "(") && parenDepth(rest) > 0 {
			return i
		}
	}
	return -1
}

// parenDepth is the count of ( in s less the count of ), outside
// quotes and after backslashes.
func parenDepth(s string) int {
	depth := 0
	for j := 0; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '\'', '"':
			k := strings.IndexByte(s[j+1:], s[j])
			if k < 0 {
				return depth
			}
			j += k + 1
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	return depth
}

// backquoteContinuations removes each backslash-newline from single-quoted
// text inside `..`: bash drops them as it reads the backquoted command,
// quotes or not (echo `echo 'a\<newline>b'` prints ab).
func backquoteContinuations(n syntax.Node, src string) {
	if !strings.Contains(src, "`") || !strings.Contains(src, "\\\n") {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		cs, ok := n.(*syntax.CmdSubst)
		if !ok || !cs.Backquotes {
			return true
		}
		syntax.Walk(cs, func(n syntax.Node) bool {
			q, ok := n.(*syntax.SglQuoted)
			if !ok || q.Dollar {
				return true
			}
			// the quoted text as written, unescaped as `..` is read
			s, e := int(q.Pos().Offset())+1, int(q.End().Offset())-1
			if s < 0 || e > len(src) || s > e || !strings.Contains(src[s:e], "\\\n") {
				return true
			}
			var sb strings.Builder
			raw := src[s:e]
			for i := 0; i < len(raw); i++ {
				if raw[i] == '\\' && i+1 < len(raw) {
					switch raw[i+1] {
					case '\\', '$', '`':
						i++
					case '\n':
						i++
						continue
					}
				}
				sb.WriteByte(raw[i])
			}
			q.Value = sb.String()
			return true
		})
		return false
	})
}

// arithForHeader finds the (( .. )) of a for command around offset off of
// src, on one line: its text and how many ; it holds.
func arithForHeader(src string, off int) (string, int, bool) {
	if off > len(src) {
		return "", 0, false
	}
	ls := strings.LastIndexByte(src[:off], '\n') + 1
	le := strings.IndexByte(src[off:], '\n')
	if le < 0 {
		le = len(src)
	} else {
		le += off
	}
	line := src[ls:le]
	f := strings.Index(line, "for")
	if f < 0 {
		return "", 0, false
	}
	rest := strings.TrimLeft(line[f+3:], " \t")
	if !strings.HasPrefix(rest, "((") {
		return "", 0, false
	}
	start := ls + len(line) - len(rest)
	end := strings.Index(src[start:le], "))")
	if end < 0 || off < start || off > start+end+2 {
		return "", 0, false
	}
	text := src[start : start+end+2]
	return text, strings.Count(text, ";"), true
}

// joinHdocDelimiter finds, in an unquoted here-document of f, a line
// that is its delimiter once backslash-newlines are removed, as bash
// reads the body (EO\<newline>F ends <<EOF), and mvdan's parser does not:
// it returns src with that line written as the delimiter alone (see
// joinDelimiterLine).
func joinHdocDelimiter(f *syntax.File, src string) (string, bool) {
	if !strings.Contains(src, "\\\n") || !strings.Contains(src, "<<") {
		return "", false
	}
	text, found := "", false
	syntax.Walk(f, func(n syntax.Node) bool {
		rd, ok := n.(*syntax.Redirect)
		if found || !ok || rd.Hdoc == nil || rd.Op != syntax.Hdoc && rd.Op != syntax.DashHdoc {
			return !found
		}
		delim, ok := unquotedDelimiter(rd.Word)
		if !ok {
			return true
		}
		s, e := int(rd.Hdoc.Pos().Offset()), int(rd.Hdoc.End().Offset())
		if s < 0 || e > len(src) || s >= e {
			return true
		}
		text, found = joinDelimiterLine(src, s, e, delim, rd.Op == syntax.DashHdoc)
		return !found
	})
	return text, found
}

// joinDelimiterLine finds, in the lines of src from s to e, the first
// that is delim once backslash-newlines are removed (and leading tabs,
// for <<-), and returns src with that line written as the delimiter
// alone, followed by blank lines so that every offset and line stays
// where it was.
func joinDelimiterLine(src string, s, e int, delim string, dash bool) (string, bool) {
	for ls := s; ls < e; {
		// the logical line from ls: physical lines joined by \<newline>
		var line strings.Builder
		le := ls
		for le < len(src) && src[le] != '\n' {
			if src[le] == '\\' && le+1 < len(src) && src[le+1] == '\n' {
				le += 2
				continue
			}
			line.WriteByte(src[le])
			le++
		}
		l, t := line.String(), ls
		if dash {
			for t < le && src[t] == '\t' {
				t++
			}
			l = strings.TrimLeft(l, "\t")
		}
		if l == delim {
			joins := strings.Count(src[t:le], "\n")
			if joins == 0 {
				return "", false // the document ends here as it is
			}
			b := []byte(src)
			copy(b[t:], delim+strings.Repeat("\n ", joins))
			copy(b[t+len(delim)+2*joins:le], strings.Repeat(" ", le-t-len(delim)-2*joins))
			return string(b), true
		}
		ls = le + 1
	}
	return "", false
}

// unquotedDelimiter is the delimiter of a here-document whose word has
// no quotes.
func unquotedDelimiter(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(l.Value, "\\'\"") || l.Value == "" {
		return "", false
	}
	return l.Value, true
}

// enclosingClose is the offset of the ) that closes the innermost ( of
// src before offset off, or -1.
func enclosingClose(src string, off int) int {
	for k := off - 1; k >= 0; k-- {
		if src[k] != '(' {
			continue
		}
		if e := matchingParen(src, k); e > off {
			return e
		}
	}
	return -1
}
