package shell

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// stmt runs one statement, in the background if it ends with &.
func (r *Interp) stmt(st *syntax.Stmt) {
	if r.exiting || r.returning || r.brk > 0 || r.cont > 0 {
		return
	}
	if r.opts.noexec && !r.interactiveLike() {
		return // set -n: read commands, run none
	}
	if st.Background || st.Coprocess {
		r.background(st)
		return
	}
	r.stmtSync(st)
}

// tick runs before every command: the host's deadline and limit check,
// and signals sent to this shell.
func (r *Interp) tick() {
	if err := r.sh.cfg.Host.Check(r.ctx); err != nil {
		panic(&exitError{status: 124, fatal: true})
	}
	if r.ctx.Err() != nil {
		panic(&exitError{status: 124, fatal: true})
	}
	if r.pending != nil {
		for _, sig := range r.pending.take() {
			r.deliver(sig)
		}
	}
}

// stmtSync runs a statement in the foreground.
func (r *Interp) stmtSync(st *syntax.Stmt) {
	r.tick()
	if r.exiting {
		return
	}
	r.lineno = int(st.Pos().Line()) + r.lineBase
	if r.source != nil {
		r.lineno += r.source.lineBase
	}
	if r.debugTrap(st) {
		r.status = 0 // extdebug: the trap said to skip the command
		return
	}
	if st.Negated {
		r.noErrExit++
	}
	nps := len(r.procSubsts)
	checked := r.command(st.Cmd, st.Redirs)
	if isSimpleCommand(st.Cmd) {
		r.pipeStatus = nil // $PIPESTATUS is this command's $? now
	}
	r.deliverPending()
	r.cleanProcSubsts(nps)
	if st.Negated {
		r.noErrExit--
		if r.status == 0 {
			r.status = 1
		} else {
			r.status = 0
		}
		return
	}
	if checked && r.status != 0 && !r.exiting && !r.returning {
		r.errExit()
	}
}

// redirectsStdin reports whether one of redirs reads into fd 0.
func redirectsStdin(redirs []*syntax.Redirect) bool {
	for _, rd := range redirs {
		if rd.N != nil && rd.N.Value != "0" {
			continue
		}
		switch rd.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			return true
		}
	}
	return false
}

// errExit runs the ERR trap and applies set -e after a failed command.
func (r *Interp) errExit() {
	if r.noErrExit > 0 {
		return
	}
	if cmd, ok := r.traps["ERR"]; ok && cmd != "" && r.inTrap != "ERR" {
		status := r.status
		r.runTrap("ERR", cmd)
		r.status = status
	}
	if r.opts.errexit {
		r.exiting = true
		r.exited = !r.isSubshell
	}
}

// command runs cmd with its redirections and reports whether its status
// counts for set -e and the ERR trap (compound commands leave that to
// the commands inside them).
func (r *Interp) command(cmd syntax.Command, redirs []*syntax.Redirect) bool {
	if c, ok := cmd.(*syntax.CallExpr); ok {
		r.callExpr(c, redirs)
		return true
	}
	if cmd == nil {
		// Redirections alone: `> file` creates or truncates it.
		r.withRedirs(redirs, func() { r.status = 0 })
		return true
	}
	checked := true
	if redirectsStdin(redirs) {
		r.stdinRedir++
		defer func() { r.stdinRedir-- }()
	}
	r.withRedirs(redirs, func() {
		switch c := cmd.(type) {
		case *syntax.Block:
			checked = false
			r.stmts(c.Stmts)
		case *syntax.Subshell:
			r.subshellRun(func(sub *Interp) { sub.stmts(c.Stmts) })
		case *syntax.BinaryCmd:
			switch c.Op {
			case syntax.AndStmt, syntax.OrStmt:
				checked = false
				r.noErrExit++
				r.stmt(c.X)
				r.noErrExit--
				if r.exiting || r.returning || r.brk > 0 || r.cont > 0 {
					return
				}
				if (r.status == 0) == (c.Op == syntax.AndStmt) {
					r.stmt(c.Y)
				}
			default:
				r.pipeline(c)
			}
		case *syntax.IfClause:
			checked = false
			r.ifClause(c)
		case *syntax.WhileClause:
			checked = false
			r.whileClause(c)
		case *syntax.ForClause:
			checked = false
			r.forClause(c)
		case *syntax.CaseClause:
			checked = false
			r.caseClause(c)
		case *syntax.FuncDecl:
			checked = false
			r.funcDecl(c)
		case *syntax.ArithmCmd:
			text := r.arithSourceMode(c.X, c.Left.Offset()+2, c.Right.Offset(), true)
			r.xtraceArith(text)
			v, ok := r.arithStringPrefix(text, "((: ")
			switch {
			case !ok:
				r.status = 1
			case v != 0:
				r.status = 0
			default:
				r.status = 1
			}
		case *syntax.TestClause:
			r.xtraceTest(c)
			if r.testExpr(c.X) {
				r.status = 0
			} else if r.status != 2 {
				r.status = 1
			}
		case *syntax.DeclClause:
			r.declClause(c)
		case *syntax.LetClause:
			r.letClause(c)
		case *syntax.TimeClause:
			r.timeClause(c)
		case *syntax.CoprocClause:
			r.coproc(c)
		case *syntax.TestDecl:
			r.status = 0
		default:
			r.errorf("unsupported command %T", cmd)
			r.status = 2
		}
	})
	return checked
}

// stmts runs a list of statements.
func (r *Interp) stmts(list []*syntax.Stmt) {
	for _, st := range list {
		if r.exiting || r.returning || r.brk > 0 || r.cont > 0 {
			return
		}
		r.stmt(st)
	}
}

// conditionStmts runs statements as a condition, where set -e is off.
func (r *Interp) conditionStmts(list []*syntax.Stmt) {
	r.noErrExit++
	r.stmts(list)
	r.noErrExit--
}

func (r *Interp) ifClause(c *syntax.IfClause) {
	r.conditionStmts(c.Cond)
	if r.exiting || r.returning || r.brk > 0 || r.cont > 0 {
		return
	}
	if r.status == 0 {
		r.stmts(c.Then)
		return
	}
	switch {
	case c.Else == nil:
		r.status = 0
	case len(c.Else.Cond) == 0:
		r.stmts(c.Else.Then)
	default:
		r.ifClause(c.Else)
	}
}

// loopControl handles break and continue after a loop body ran and
// reports whether the loop must stop.
func (r *Interp) loopControl() bool {
	if r.brk > 0 {
		r.brk--
		return true
	}
	if r.cont > 0 {
		r.cont--
		if r.cont > 0 {
			return true
		}
	}
	return r.exiting || r.returning
}

func (r *Interp) whileClause(c *syntax.WhileClause) {
	r.loopDepth++
	defer func() { r.loopDepth-- }()
	status := 0
	for {
		r.tick()
		r.conditionStmts(c.Cond)
		if r.exiting || r.returning {
			return
		}
		if r.brk > 0 || r.cont > 0 {
			if r.loopControl() {
				break
			}
			continue
		}
		if (r.status == 0) == c.Until {
			break
		}
		r.stmts(c.Do)
		status = r.status
		if r.loopControl() {
			break
		}
	}
	r.status = status
}

func (r *Interp) forClause(c *syntax.ForClause) {
	r.loopDepth++
	defer func() { r.loopDepth-- }()
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		if c.Select {
			head := "select " + r.curText(l)
			if r.opts.xtrace {
				r.xtrace(head)
			}
			if r.debugTrapText(head) {
				r.status = 0 // extdebug: skipped
				return
			}
		}
		var items []string
		if l.InPos.IsValid() {
			items = r.expandWords(l.Items)
		} else {
			items = append([]string(nil), r.params...)
		}
		name := l.Name.Value
		if c.Select {
			r.selectLoop(name, items, c.Do)
			return
		}
		r.status = 0
		line := r.lineno
		for _, it := range items {
			r.tick()
			r.lineno = line
			r.xtraceFor(l)
			if r.debugTrapText("for " + r.curText(l)) {
				continue // extdebug: skip this round
			}
			if v, _ := r.vars.lookup(name); v != nil && v.Attr&AttrNameref != 0 && v.Attr&AttrReadonly == 0 {
				// A nameref loop variable refers to each word in turn.
				if !validTarget(it) {
					r.errorf("`%s': not a valid identifier", it)
					r.status = 1
					return
				}
				v.Str, v.Set = it, true
			} else if !r.assignChecked(name, it) {
				r.status = 1
				return
			}
			r.stmts(c.Do)
			if r.loopControl() {
				break
			}
		}
	case *syntax.CStyleLoop:
		init, cond, post := r.arithForExprs(l)
		line := r.lineno
		if _, ok := r.arithForExpr(init, line); !ok {
			r.status = 1
			return
		}
		r.status = 0
		last := 0
		for {
			r.tick()
			v, ok := r.arithForExpr(cond, line)
			if !ok {
				r.status = 1
				return
			}
			if v == 0 {
				break
			}
			r.stmts(c.Do)
			last = r.status
			if r.loopControl() {
				break
			}
			if _, ok := r.arithForExpr(post, line); !ok {
				r.status = 1
				return
			}
		}
		r.status = last
	}
}

// arithForPart is one of the three expressions of for (( ; ; )): its
// node (nil when left out, which bash reads as 1) and its text's span,
// from its first token to the ; or )) after it.
type arithForPart struct {
	x          syntax.ArithmExpr
	start, end uint
}

// arithForExprs splits for ((init; cond; post)) as bash's
// make_arith_for_command does.
func (r *Interp) arithForExprs(l *syntax.CStyleLoop) (init, cond, post arithForPart) {
	src := ""
	if r.source != nil {
		src = r.source.text
	}
	inner := l.Lparen.Offset() + 2
	stop := l.Rparen.Offset()
	// semi finds the ; after offset from.
	semi := func(from uint) uint {
		for i := from; i < stop && int(i) < len(src); i++ {
			if src[i] == ';' {
				return i
			}
		}
		return stop
	}
	part := func(x syntax.ArithmExpr, from, to uint) arithForPart {
		if x == nil {
			return arithForPart{}
		}
		return arithForPart{x, x.Pos().Offset(), to}
	}
	s1from := inner
	if l.Init != nil {
		s1from = l.Init.End().Offset()
	}
	s1 := semi(s1from)
	s2from := s1 + 1
	if l.Cond != nil {
		s2from = l.Cond.End().Offset()
	}
	s2 := semi(s2from)
	if int(stop) > len(src) {
		// no text: the parser's spans alone
		part = func(x syntax.ArithmExpr, _, _ uint) arithForPart {
			if x == nil {
				return arithForPart{}
			}
			return arithForPart{x, x.Pos().Offset(), x.End().Offset()}
		}
	}
	return part(l.Init, inner, s1), part(l.Cond, s1+1, s2), part(l.Post, s2+1, stop)
}

// arithForExpr evaluates one expression of an arithmetic for loop as
// bash's eval_arith_for_expr: expanded, traced, after the DEBUG trap, at
// the loop's line.
func (r *Interp) arithForExpr(p arithForPart, line int) (int64, bool) {
	text := "1"
	if p.x != nil {
		text = r.arithSourceMode(p.x, p.start, p.end, true)
	}
	r.lineno = line
	r.xtraceArith(text)
	if r.debugTrapText("((" + text + "))") {
		return 0, true // extdebug: skipped
	}
	r.lineno = line
	return r.arithString(text)
}

// selectLoop runs `select NAME in ITEMS`: the menu goes to stderr, the
// reply is read from stdin.
func (r *Interp) selectLoop(name string, items []string, body []*syntax.Stmt) {
	r.status = 0
	if len(items) == 0 {
		return
	}
	// The menu shows at the start and again after an empty reply.
	menu := true
	for {
		r.tick()
		if menu {
			var sb strings.Builder
			width := len(strconv.Itoa(len(items)))
			for i, it := range items {
				fmt.Fprintf(&sb, "%*d) %s\n", width, i+1, it)
			}
			r.writeErr(sb.String())
		}
		ps3, ok := r.getScalar("PS3")
		if !ok {
			ps3 = "#? "
		}
		r.writeErr(ps3)
		line, ok := r.readLine(0)
		if !ok {
			r.writeOut("select", "\n") // bash ends the prompt on stdout
			r.status = 1
			return
		}
		r.assignQuiet("REPLY", line)
		line = strings.TrimSpace(line)
		menu = line == ""
		if menu {
			continue
		}
		val := ""
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(items) {
			val = items[n-1]
		}
		r.assignChecked(name, val)
		r.stmts(body)
		if r.loopControl() {
			return
		}
	}
}

func (r *Interp) caseClause(c *syntax.CaseClause) {
	head := "case " + r.curText(c.Word) + " in"
	if r.opts.xtrace {
		r.xtrace(head)
	}
	if r.debugTrapText(head + " ") {
		r.status = 0 // extdebug: skipped
		return
	}
	// the word gets tilde expansion, as a pattern does
	var x xbuf
	r.expandParts(&x, c.Word.Parts, false, true)
	x.joinBreaks(r)
	word := string(x.b)
	r.status = 0
	for i := 0; i < len(c.Items); i++ {
		item := c.Items[i]
		matched := false
		for _, p := range item.Patterns {
			pat := r.expandPattern(p)
			if r.matchPattern(pat, word, r.opts.nocasematch) {
				matched = true
				break
			}
		}
		if !matched {
			continue
		}
		r.stmts(item.Stmts)
		// ;& falls through into the next body; ;;& tests the next patterns.
		for item.Op == syntax.Fallthrough && i+1 < len(c.Items) {
			i++
			item = c.Items[i]
			r.stmts(item.Stmts)
		}
		if item.Op != syntax.Resume {
			return
		}
	}
}

func (r *Interp) funcDecl(c *syntax.FuncDecl) {
	name := c.Name.Value
	if isPosixSpecialBuiltin(name) && r.opts.posix {
		r.errorf("`%s': is a special builtin", name)
		r.status = 1
		return
	}
	if f, ok := r.funcs[name]; ok && f.readonly {
		r.errorf("%s: readonly function", name)
		r.status = 1
		return
	}
	src := ""
	if r.source != nil {
		start, end := int(c.Pos().Offset()), int(c.End().Offset())
		if start >= 0 && end <= len(r.source.text) && start < end {
			src = r.source.text[start:end]
		}
	}
	r.funcs[name] = &Func{Name: name, Source: src, body: &stmtNode{stmt: c.Body, src: r.source, base: r.lineBase}}
	r.status = 0
}

// funcNest is $FUNCNEST as a number: the deepest nesting of function
// calls allowed, or 0 for no limit (unset, not a number, or not positive).
func (r *Interp) funcNest() int {
	v, ok := r.getScalar("FUNCNEST")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// callFunc runs function f with args as its positional parameters.
func (r *Interp) callFunc(f *Func, args []string) {
	if r.funcDepth >= r.sh.cfg.Limits.MaxDepth {
		r.fail(1, "%s: maximum function nesting level exceeded (%d)", f.Name, r.sh.cfg.Limits.MaxDepth)
	}
	if n := r.funcNest(); n > 0 && r.funcDepth >= n {
		// bash abandons the whole command, as for an expansion error
		r.errorf("%s: maximum function nesting level exceeded (%d)", f.Name, n)
		panic(errDiscard)
	}
	savedParams, savedSrc := r.params, r.source
	savedLoop, savedBase := r.loopDepth, r.lineBase
	r.params = args[1:]
	r.vars.scopes = append(r.vars.scopes, &scope{vars: map[string]*Var{}, fn: f.Name})
	srcName := "environment" // defined in a -c string
	if f.body.src != nil && f.body.src.name != "" {
		srcName = f.body.src.name
	}
	r.frames = append(r.frames, frame{fn: f.Name, source: srcName, line: r.lineno, args: args[1:]})
	r.funcDepth++
	r.loopDepth = 0
	r.source = f.body.src
	r.lineBase = f.body.base // its lines count where it was defined
	line := r.lineno
	hidden := r.hideFuncTraps(f)
	optInd, optSub := r.getoptsInd, r.getoptsSub
	defer func() {
		r.restoreFuncTraps(hidden)
		if _, ok := r.vars.top().vars["OPTIND"]; ok {
			// A function with a local OPTIND gives the caller back its
			// getopts position, as bash does.
			r.getoptsInd, r.getoptsSub = optInd, optSub
		}
		r.funcDepth--
		r.frames = r.frames[:len(r.frames)-1]
		if saved := r.vars.top().opts; saved != nil {
			r.opts.restoreSet(saved) // local -
		}
		r.vars.scopes = r.vars.scopes[:len(r.vars.scopes)-1]
		r.params, r.source = savedParams, savedSrc
		r.loopDepth, r.lineBase = savedLoop, savedBase
		r.lineno = line
	}()
	// bash traps the start of the function and its return at the line
	// where its body starts
	bodyLine := int(f.body.stmt.Pos().Line()) + r.lineBase
	if r.source != nil {
		bodyLine += r.source.lineBase
	}
	skip := false
	if r.debugTrapSet() {
		r.lineno = bodyLine
		skip = r.debugTrapText("")
	}
	if !skip {
		r.stmt(f.body.stmt)
	}
	if r.returning {
		r.returning = false
	}
	// The RETURN trap: the caller's with set -T, or one the function set.
	if cmd, ok := r.traps["RETURN"]; ok && cmd != "" && r.inTrap != "RETURN" {
		status := r.status
		r.lineno = bodyLine
		r.runTrap("RETURN", cmd)
		r.status = status
	}
}

// subshellRun runs f in a subshell and waits for it: its changes to
// variables, directory and options are lost, its exit ends only it.
func (r *Interp) subshellRun(f func(sub *Interp)) {
	release, err := r.sh.cfg.Host.Fork(r.ctx)
	if err != nil {
		r.forkFailed(err)
		return
	}
	defer release()
	sub := r.subshell()
	sub.showParentTraps(r)
	defer sub.fds.closeAll()
	sub.runGuarded(func() { f(sub) })
	sub.runExitTrap()
	r.status = sub.status
	if sub.fatal != nil {
		r.fatal = sub.fatal
	}
}

// forkFailed reports that the process limit stopped a fork, as bash
// reports a failed fork: the command fails, the script goes on.
func (r *Interp) forkFailed(err error) {
	r.errorf("fork: Resource temporarily unavailable")
	r.status = 254
}

// runGuarded runs f, turning a panic into the shell's status: an
// exitError (a limit, the deadline) ends this shell with its status and
// message; anything else is an internal error, status 2.
func (r *Interp) runGuarded(f func()) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		if e, ok := p.(*exitError); ok {
			if e.msg != "" {
				r.errorf("%s", e.msg)
			}
			r.status = e.status
			if e.fatal {
				r.fatal = e
			}
		} else {
			r.errorf("internal error: %v", p)
			r.status = 2
		}
		r.exiting = true
	}()
	f()
}

// timeClause runs `time CMD`, printing times as bash does to stderr:
// in $TIMEFORMAT (see formatTime), bash's default when it is unset,
// nothing when it is empty, and POSIX's fixed format for time -p. The
// sandbox does not count CPU time per command: user and sys are 0.
func (r *Interp) timeClause(c *syntax.TimeClause) {
	start := time.Now()
	st, posix := timedStmt(c)
	if st != nil {
		r.stmt(st)
	}
	d := time.Since(start)
	format, ok := r.getScalar("TIMEFORMAT")
	switch {
	case posix:
		format = "real %2R\nuser %2U\nsys %2S"
	case !ok:
		format = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
	case format == "":
		return
	}
	out, err := formatTime(format, d, 0, 0)
	if err != nil {
		r.errorf("TIMEFORMAT: %v", err)
		return
	}
	r.writeErr(out + "\n")
}

// timedStmt is the statement time runs, and whether -p was given: time
// time cmd times cmd once, as bash does, and bash reads a -- after time
// as it reads -p.
func timedStmt(c *syntax.TimeClause) (*syntax.Stmt, bool) {
	st, posix := c.Stmt, c.PosixFormat
	for st != nil && !st.Negated && !st.Background && len(st.Redirs) == 0 {
		inner, ok := st.Cmd.(*syntax.TimeClause)
		if !ok {
			break
		}
		st, posix = inner.Stmt, posix || inner.PosixFormat
	}
	if st == nil {
		return nil, posix
	}
	if ce, ok := st.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 1 && ce.Args[0].Lit() == "--" {
		cp := *st
		call := *ce
		call.Args = ce.Args[1:]
		cp.Cmd = &call
		st, posix = &cp, true
	}
	return st, posix
}

// formatTime expands a TIMEFORMAT: %% is a percent sign, %[p][l]R (or E),
// U and S the real, user and system time with p decimals (0 to 3,
// default 3; more is 3) in seconds or, with l, as MmS.FFFs, and %P the CPU
// percentage, (user+sys)/real. A % at the very end stays as it is.
func formatTime(format string, real, user, sys time.Duration) (string, error) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
			continue
		case 'P':
			pct := 0.0
			if real > 0 {
				pct = float64(user+sys) / float64(real) * 100
			}
			fmt.Fprintf(&b, "%.2f", pct)
			continue
		}
		prec, long := 3, false
		if c := format[i]; c >= '0' && c <= '9' {
			prec = min(int(c-'0'), 3)
			i++
		}
		if i < len(format) && format[i] == 'l' {
			long = true
			i++
		}
		var d time.Duration
		switch {
		case i == len(format):
			return "", fmt.Errorf("`\x00': invalid format character")
		case format[i] == 'R' || format[i] == 'E':
			d = real
		case format[i] == 'U':
			d = user
		case format[i] == 'S':
			d = sys
		default:
			return "", fmt.Errorf("`%c': invalid format character", format[i])
		}
		ms := d.Milliseconds()
		secs := ms / 1000
		if long {
			fmt.Fprintf(&b, "%dm", secs/60)
			secs %= 60
		}
		fmt.Fprintf(&b, "%d", secs)
		if prec > 0 {
			frac := fmt.Sprintf("%03d", ms%1000)
			b.WriteString("." + frac[:prec])
		}
		if long {
			b.WriteByte('s')
		}
	}
	return b.String(), nil
}

// background starts st as a job.
func (r *Interp) background(st *syntax.Stmt) {
	cp := *st
	cp.Background, cp.Coprocess = false, false
	r.startJob(&cp, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(r.curText(st)), "&")), false)
}

// curText is the source text of a node, for jobs and $BASH_COMMAND.
func (r *Interp) curText(n syntax.Node) string {
	if r.source == nil {
		return ""
	}
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(r.source.text) || start >= end {
		return ""
	}
	return r.source.text[start:end]
}

// ctxDone reports whether the Run is over.
func ctxDone(ctx context.Context) bool { return ctx != nil && ctx.Err() != nil }
