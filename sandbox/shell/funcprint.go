package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// cmdPrinter renders commands the way bash's print_cmd.c does for
// declare -f, type and exported functions: bash's own layout, not the
// source's. Words keep their source text, except that $'...' becomes
// '...', $"..." becomes "...", and $(...) is reprinted.
type cmdPrinter struct {
	sb         strings.Builder
	src        string
	indent     int
	amount     int
	skip       int
	insideFunc int
	comsub     int
	conn       int
	deferred   []*syntax.Redirect
	wasHeredoc bool
}

// funcBodyText renders the function name with its body as
// named_function_string does: multiline for declare -f and type, or on
// one line (for the environment) when !multiline. An empty name gives
// "() { ... }".
func funcBodyText(name string, body *syntax.Stmt, src string, multiline bool) string {
	p := &cmdPrinter{src: src, amount: 4}
	if name != "" {
		if syntax.IsKeyword(name) {
			p.put("function ")
		}
		p.put(name + " ")
	}
	p.put("() ")
	if multiline {
		p.put("\n")
		p.indent += p.amount
	} else {
		p.indent, p.amount = 1, 0
	}
	p.insideFunc++
	if multiline {
		p.put("{ \n")
	} else {
		p.put("{ ")
	}
	var redirs []*syntax.Redirect
	if b, ok := body.Cmd.(*syntax.Block); ok {
		redirs = body.Redirs
		p.list(b.Stmts)
	} else {
		p.stmt(body)
	}
	p.flushDeferred("")
	p.indent, p.amount = 0, 4
	p.insideFunc--
	if len(redirs) > 0 {
		p.newline("} ")
		p.redirList(redirs)
	} else {
		p.newline("}")
	}
	out := p.sb.String()
	if !multiline && len(out) > 2 && out[2] == '\n' {
		out = out[:2] + out[3:]
	}
	return out
}

func (p *cmdPrinter) put(s string) { p.sb.WriteString(s) }

func (p *cmdPrinter) last() byte {
	s := p.sb.String()
	if s == "" {
		return 0
	}
	return s[len(s)-1]
}

func (p *cmdPrinter) newline(s string) {
	p.put("\n")
	p.put(strings.Repeat(" ", p.indent))
	p.put(s)
}

func (p *cmdPrinter) semicolon() {
	if c := p.last(); c == '&' || c == '\n' {
		return
	}
	p.put(";")
}

func (p *cmdPrinter) text(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(p.src) || start > end {
		return ""
	}
	return p.src[start:end]
}

// list prints statements joined as bash's connections.
func (p *cmdPrinter) list(stmts []*syntax.Stmt) {
	if len(stmts) == 0 {
		return
	}
	if len(stmts) > 1 || stmts[0].Background {
		p.conn++
		defer func() { p.conn-- }()
	}
	for i, st := range stmts {
		p.stmt(st)
		if i > 0 {
			p.flushDeferred("")
		}
		if st.Background {
			p.flushDeferred(" &")
			if i+1 < len(stmts) {
				p.put(" ")
				p.skip++
			}
			continue
		}
		if i+1 == len(stmts) {
			break
		}
		c := byte(';')
		if p.comsub > 0 && !st.Semicolon.IsValid() {
			c = '\n'
		}
		if len(p.deferred) == 0 {
			if !p.wasHeredoc {
				p.put(string(c))
			} else {
				p.wasHeredoc = false
			}
		} else if p.insideFunc > 0 {
			p.flushDeferred("")
		} else {
			p.flushDeferred(";")
		}
		if p.insideFunc > 0 {
			p.put("\n")
		} else {
			if c == ';' {
				p.put(" ")
			}
			p.skip++
		}
	}
}

func (p *cmdPrinter) flushDeferred(cs string) {
	if cs != "" && (cs[0] != ';' || len(cs) > 1) {
		p.put(cs)
	}
	if len(p.deferred) > 0 {
		p.heredocBodies(p.deferred)
		if cs != "" && (cs[0] != ';' || len(cs) > 1) {
			p.put(" ")
		}
		p.wasHeredoc = true
	}
	p.deferred = nil
}

func (p *cmdPrinter) startCmd() {
	if p.skip > 0 {
		p.skip--
	} else {
		p.put(strings.Repeat(" ", p.indent))
	}
}

func (p *cmdPrinter) stmt(st *syntax.Stmt) {
	p.startCmd()
	if st.Negated {
		p.put("! ")
	}
	p.command(st.Cmd, st.Redirs)
}

// command prints one command and the redirections of its statement.
func (p *cmdPrinter) command(cmd syntax.Command, redirs []*syntax.Redirect) {
	switch c := cmd.(type) {
	case nil:
		p.redirList(redirs)
		return
	case *syntax.CallExpr:
		var words []string
		for _, as := range c.Assigns {
			words = append(words, p.assign(as))
		}
		for _, w := range c.Args {
			words = append(words, p.word(w))
		}
		p.put(strings.Join(words, " "))
		if len(redirs) > 0 {
			if len(words) > 0 {
				p.put(" ")
			}
			p.redirList(redirs)
		}
		return
	case *syntax.DeclClause:
		words := []string{c.Variant.Value}
		for _, as := range c.Args {
			words = append(words, p.assign(as))
		}
		p.put(strings.Join(words, " "))
	case *syntax.LetClause:
		words := []string{"let"}
		for _, e := range c.Exprs {
			words = append(words, p.text(e))
		}
		p.put(strings.Join(words, " "))
	case *syntax.BinaryCmd:
		p.conn++
		p.skip++
		x := c.X
		if c.Op == syntax.PipeAll {
			x = &syntax.Stmt{Cmd: c.X.Cmd, Negated: c.X.Negated, Redirs: append(append([]*syntax.Redirect(nil), c.X.Redirs...), &syntax.Redirect{Op: syntax.DplOut, N: &syntax.Lit{Value: "2"}, Word: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "1"}}}})}
		}
		p.stmt(x)
		switch c.Op {
		case syntax.AndStmt:
			p.flushDeferred(" && ")
		case syntax.OrStmt:
			p.flushDeferred(" || ")
		default:
			p.flushDeferred(" |")
			p.put(" ")
		}
		p.skip++
		p.stmt(c.Y)
		p.flushDeferred("")
		p.conn--
	case *syntax.Block:
		p.put("{ ")
		if p.insideFunc == 0 {
			p.skip++
		} else {
			p.put("\n")
			p.indent += p.amount
		}
		p.list(c.Stmts)
		p.flushDeferred("")
		if p.insideFunc > 0 {
			p.put("\n")
			p.indent -= p.amount
			p.put(strings.Repeat(" ", p.indent))
		} else {
			p.semicolon()
			p.put(" ")
		}
		p.put("}")
	case *syntax.Subshell:
		p.put("( ")
		p.skip++
		p.list(c.Stmts)
		p.flushDeferred("")
		p.put(" )")
	case *syntax.IfClause:
		p.ifClause(c)
	case *syntax.WhileClause:
		if c.Until {
			p.put("until ")
		} else {
			p.put("while ")
		}
		p.skip++
		p.list(c.Cond)
		p.flushDeferred("")
		p.semicolon()
		p.put(" do\n")
		p.indent += p.amount
		p.list(c.Do)
		p.flushDeferred("")
		p.indent -= p.amount
		p.semicolon()
		p.newline("done")
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			kw := "for "
			if c.Select {
				kw = "select "
			}
			p.put(kw + l.Name.Value + " in ")
			if l.InPos.IsValid() {
				words := make([]string, len(l.Items))
				for i, w := range l.Items {
					words[i] = p.word(w)
				}
				p.put(strings.Join(words, " "))
			} else {
				p.put(`"$@"`)
			}
			p.put(";")
		case *syntax.CStyleLoop:
			p.put("for ((" + strings.Join(p.arithForParts(l), "; ") + "))")
		}
		p.newline("do\n")
		p.indent += p.amount
		p.list(c.Do)
		p.flushDeferred("")
		p.semicolon()
		p.indent -= p.amount
		p.newline("done")
	case *syntax.CaseClause:
		p.put("case " + p.word(c.Word) + " in ")
		p.indent += p.amount
		for _, it := range c.Items {
			p.newline("")
			pats := make([]string, len(it.Patterns))
			for i, w := range it.Patterns {
				pats[i] = p.word(w)
			}
			p.put(strings.Join(pats, " | ") + ")\n")
			p.indent += p.amount
			p.list(it.Stmts)
			p.indent -= p.amount
			p.flushDeferred("")
			switch it.Op {
			case syntax.Fallthrough:
				p.newline(";&")
			case syntax.Resume:
				p.newline(";;&")
			default:
				p.newline(";;")
			}
		}
		p.indent -= p.amount
		p.newline("esac")
	case *syntax.ArithmCmd:
		start, end := int(c.Left.Offset())+2, int(c.Right.Offset())
		if start <= end && end <= len(p.src) {
			p.put("((" + p.src[start:end] + "))")
		}
	case *syntax.TestClause:
		p.put("[[ " + p.testExpr(c.X) + " ]]")
	case *syntax.FuncDecl:
		p.put("function " + c.Name.Value + " () \n")
		p.put(strings.Repeat(" ", p.indent))
		p.put("{ \n")
		p.insideFunc++
		p.indent += p.amount
		var fr []*syntax.Redirect
		if b, ok := c.Body.Cmd.(*syntax.Block); ok {
			fr = c.Body.Redirs
			p.list(b.Stmts)
		} else {
			p.stmt(c.Body)
		}
		p.flushDeferred("")
		p.indent -= p.amount
		p.insideFunc--
		if len(fr) > 0 {
			p.newline("} ")
			p.redirList(fr)
		} else {
			p.newline("}")
		}
	case *syntax.TimeClause:
		p.put("time ")
		if c.PosixFormat {
			p.put("-p ")
		}
		if c.Stmt != nil {
			p.skip++
			p.stmt(c.Stmt)
		}
	case *syntax.CoprocClause:
		name := "COPROC"
		if c.Name != nil {
			name = p.word(c.Name)
		}
		p.put("coproc " + name + " ")
		p.skip++
		p.stmt(c.Stmt)
	default:
		p.put(p.text(cmd))
	}
	if len(redirs) > 0 {
		p.put(" ")
		p.redirList(redirs)
	}
}

func (p *cmdPrinter) ifClause(c *syntax.IfClause) {
	p.put("if ")
	p.skip++
	p.list(c.Cond)
	p.semicolon()
	p.put(" then\n")
	p.indent += p.amount
	p.list(c.Then)
	p.flushDeferred("")
	p.indent -= p.amount
	if e := c.Else; e != nil {
		p.semicolon()
		p.newline("else\n")
		p.indent += p.amount
		if len(e.Cond) > 0 {
			p.startCmd()
			p.ifClause(e)
		} else {
			p.list(e.Then)
		}
		p.flushDeferred("")
		p.indent -= p.amount
	}
	p.semicolon()
	p.newline("fi")
}

func (p *cmdPrinter) testExpr(x syntax.TestExpr) string {
	switch e := x.(type) {
	case *syntax.BinaryTest:
		return p.testExpr(e.X) + " " + e.Op.String() + " " + p.testExpr(e.Y)
	case *syntax.UnaryTest:
		return e.Op.String() + " " + p.testExpr(e.X)
	case *syntax.ParenTest:
		return "( " + p.testExpr(e.X) + " )"
	case *syntax.Word:
		return p.word(e)
	}
	return ""
}

func (p *cmdPrinter) assign(as *syntax.Assign) string {
	if as.Array == nil {
		if as.Value != nil && as.Value.Pos().IsValid() {
			// the value with bash's parse-time rewrites ($'..' quoted)
			start, vstart := int(as.Pos().Offset()), int(as.Value.Pos().Offset())
			if start >= 0 && start <= vstart && vstart <= len(p.src) {
				return p.src[start:vstart] + p.word(as.Value)
			}
		}
		return p.text(as)
	}
	s := as.Name.Value
	if as.Index != nil {
		s += "[" + p.text(as.Index) + "]"
	}
	if as.Append {
		s += "+="
	} else {
		s += "="
	}
	var elems []string
	for _, el := range as.Array.Elems {
		e := ""
		if el.Index != nil {
			e = "[" + p.text(el.Index) + "]="
		}
		if el.Value != nil {
			e += p.word(el.Value)
		}
		elems = append(elems, e)
	}
	return s + "(" + strings.Join(elems, " ") + ")"
}

// word is the source text of w with bash's parse-time rewrites.
func (p *cmdPrinter) word(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if !w.Pos().IsValid() {
		return w.Lit() // made up by the printer
	}
	type repl struct {
		start, end int
		text       string
	}
	var repls []repl
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.SglQuoted:
			if x.Dollar {
				repls = append(repls, repl{int(x.Pos().Offset()), int(x.End().Offset()), "'" + strings.ReplaceAll(ansiC(x.Value), "'", `'\''`) + "'"})
			}
			return false
		case *syntax.DblQuoted:
			if x.Dollar {
				repls = append(repls, repl{int(x.Pos().Offset()), int(x.Pos().Offset()) + 1, ""})
			}
		case *syntax.CmdSubst:
			if !x.Backquotes {
				sub := &cmdPrinter{src: p.src, amount: 4, comsub: 1}
				sub.list(x.Stmts)
				sub.flushDeferred("")
				repls = append(repls, repl{int(x.Pos().Offset()), int(x.End().Offset()), "$(" + sub.sb.String() + ")"})
			}
			return false
		}
		return true
	})
	start, end := int(w.Pos().Offset()), int(w.End().Offset())
	if start < 0 || end > len(p.src) || start > end {
		return ""
	}
	var sb strings.Builder
	at := start
	for _, r := range repls {
		if r.start < at || r.end > end {
			continue
		}
		sb.WriteString(p.src[at:r.start])
		sb.WriteString(r.text)
		at = r.end
	}
	sb.WriteString(p.src[at:end])
	return sb.String()
}

func (p *cmdPrinter) redirList(redirs []*syntax.Redirect) {
	var hdocs []*syntax.Redirect
	p.wasHeredoc = false
	for i, rd := range redirs {
		if rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc {
			p.heredocHeader(rd)
			hdocs = append(hdocs, rd)
		} else {
			p.redirect(rd)
		}
		if i+1 < len(redirs) {
			p.put(" ")
		}
	}
	if len(hdocs) > 0 {
		if p.conn > 0 {
			p.deferred = append(p.deferred, hdocs...)
		} else {
			p.heredocBodies(hdocs)
		}
	}
}

func (p *cmdPrinter) heredocHeader(rd *syntax.Redirect) {
	if rd.N != nil {
		if n := rd.N.Value; n != "0" {
			p.put(n)
		}
	}
	op := "<<"
	if rd.Op == syntax.DashHdoc {
		op = "<<-"
	}
	eof, quoted := heredocDelim(p.text(rd.Word))
	if quoted {
		eof = "'" + strings.ReplaceAll(eof, "'", `'\''`) + "'"
	}
	p.put(op + eof)
}

func heredocDelim(s string) (string, bool) {
	if !strings.ContainsAny(s, `'"\`) {
		return s, false
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
		case '\\':
			if i+1 < len(s) {
				i++
				sb.WriteByte(s[i])
			}
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), true
}

func (p *cmdPrinter) heredocBodies(hdocs []*syntax.Redirect) {
	p.put("\n")
	for _, rd := range hdocs {
		body := ""
		if rd.Hdoc != nil {
			body = p.text(rd.Hdoc)
		}
		if rd.Op == syntax.DashHdoc {
			lines := strings.SplitAfter(body, "\n")
			for i, l := range lines {
				lines[i] = strings.TrimLeft(l, "\t")
			}
			body = strings.Join(lines, "")
		}
		eof, _ := heredocDelim(p.text(rd.Word))
		body = strings.TrimSuffix(body, eof) // the parser's word ends with it
		p.put(body + eof + "\n")
	}
	p.wasHeredoc = true
}

func (p *cmdPrinter) redirect(rd *syntax.Redirect) {
	n := ""
	if rd.N != nil {
		n = rd.N.Value
	}
	w := p.word(rd.Word)
	fd := func(def string) string {
		if n == "" {
			return def
		}
		return n
	}
	shown := func(def string) string {
		if n == def {
			return ""
		}
		return n
	}
	isNum := func(s string) bool {
		if s == "" {
			return false
		}
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	switch rd.Op {
	case syntax.RdrIn:
		p.put(shown("0") + "< " + w)
	case syntax.RdrOut:
		p.put(shown("1") + "> " + w)
	case syntax.RdrClob:
		p.put(shown("1") + ">| " + w)
	case syntax.AppOut:
		p.put(shown("1") + ">> " + w)
	case syntax.RdrInOut:
		p.put(fd("0") + "<> " + w)
	case syntax.WordHdoc:
		p.put(shown("0") + "<<< " + w)
	case syntax.RdrAll:
		p.put("&> " + w)
	case syntax.AppAll:
		p.put("&>> " + w)
	case syntax.DplIn, syntax.DplOut:
		op, def := "<&", "0"
		if rd.Op == syntax.DplOut {
			op, def = ">&", "1"
		}
		switch {
		case w == "-":
			p.put(fd(def) + ">&-")
		case isNum(w), strings.HasSuffix(w, "-") && isNum(w[:len(w)-1]):
			p.put(fd(def) + op + w)
		case n == "" || n == def:
			p.put(op + w)
		default:
			p.put(n + op + w)
		}
	default:
		p.put(n + rd.Op.String() + w)
	}
}

// exportedFuncs are the environment entries of functions marked with
// export -f, as bash passes them to its children.
func (r *Interp) exportedFuncs() []string {
	var out []string
	for name, f := range r.funcs {
		if !f.exported || f.body == nil {
			continue
		}
		src := ""
		if f.body.src != nil {
			src = f.body.src.text
		}
		out = append(out, "BASH_FUNC_"+name+"%%="+funcBodyText("", f.body.stmt, src, false))
	}
	return out
}

// importFunc defines the function an environment entry
// BASH_FUNC_name%%=() { ... } carries, and reports whether it was one.
func (r *Interp) importFunc(k, v string) bool {
	name, ok := strings.CutPrefix(k, "BASH_FUNC_")
	if !ok || !strings.HasSuffix(name, "%%") || !strings.HasPrefix(v, "() {") {
		return false
	}
	name = strings.TrimSuffix(name, "%%")
	src := name + " " + v
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	fd, ok := f.Stmts[0].Cmd.(*syntax.FuncDecl)
	if !ok || fd.Name.Value != name {
		return false
	}
	r.funcs[name] = &Func{Name: name, Source: src, body: &stmtNode{stmt: fd.Body, src: &sourceFile{text: src}}, exported: true}
	return true
}

// arithForParts is the three expressions of for ((init; cond; step)) as
// bash prints them: the source text of each without its leading blanks
// (trailing ones stay), 1 for an empty one.
func (p *cmdPrinter) arithForParts(l *syntax.CStyleLoop) []string {
	start, end := int(l.Lparen.Offset())+2, int(l.Rparen.Offset())
	parts := []string{"1", "1", "1"}
	if start < 0 || end > len(p.src) || start > end {
		return parts
	}
	from := start
	for i, e := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
		to := end
		if i < 2 {
			// the ; after this expression
			at := from
			if e != nil {
				at = max(at, int(e.End().Offset()))
			}
			k := strings.IndexByte(p.src[min(at, end):end], ';')
			if k < 0 {
				return parts
			}
			to = min(at, end) + k
		}
		if s := strings.TrimLeft(p.src[from:to], " \t\n"); strings.TrimSpace(s) != "" {
			parts[i] = s
		}
		from = to + 1
	}
	return parts
}
