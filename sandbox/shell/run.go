package shell

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// sourceFile is a text the shell runs: a script, a -c string, an eval or
// a trap. Arithmetic and subscripts are evaluated from their source text,
// as bash does, so nodes keep a pointer to theirs.
type sourceFile struct {
	name string
	text string
	bad  map[int]bool // offsets of ${..} that are bad substitutions (repair.go)
	// hdocs are here-documents bash ends early, warned about when their
	// command runs.
	hdocs []hdocWarning
	// synErrs: lines skipped after a syntax error (repair.go)
	synErrs map[int]synErr
	// aliasesDone: aliases were expanded as the text was parsed (see
	// alias.go), so its commands do not expand them when they run.
	aliasesDone bool
	// lineBase is how many lines of the script came before text (a
	// script read from a pipe runs a command at a time).
	lineBase int
}

// stmtNode is a function body with the source it came from.
type stmtNode struct {
	stmt *syntax.Stmt
	src  *sourceFile
	base int // the lines before it in an eval's text (Interp.lineBase)
}

// exitError ends the Run: an internal error or a limit. It carries the
// message printed and the status.
type exitError struct {
	status int
	msg    string
	// fatal errors end the whole Run (the deadline, a limit); others end
	// only the shell or subshell they happen in (set -u, ${x?}).
	fatal bool
	// discard errors (a failed expansion, an assignment to a readonly
	// variable) end only the current top-level command and the rest of
	// its line, as bash's non-interactive shell does.
	discard bool
	// unbound errors (set -u, ${x?}) make bash's top-level shell exit
	// with 127, a subshell with 1.
	unbound bool
}

// errDiscard abandons the current top-level command line with status 1;
// the message was printed.
var errDiscard = &exitError{status: 1, discard: true}

func (e *exitError) Error() string { return e.msg }

// Run parses and runs src, a script named name (for messages and $0 in
// errors), statement by statement as bash does: what precedes a syntax
// error runs. It returns the exit status. An internal failure never
// panics out of Run: it becomes status 2 and a message on fd 2.
func (r *Interp) Run(ctx context.Context, src, name string) (status int) {
	return r.runWith(ctx, func() { r.runSource(src, name) })
}

// runWith runs the script that body runs as Run runs one: it catches the
// end of the shell, then runs the EXIT trap and waits for process
// substitutions.
func (r *Interp) runWith(ctx context.Context, body func()) (status int) {
	r.ctx = ctx
	r.exiting, r.exited, r.returning, r.fatal = false, false, false, nil
	r.brk, r.cont = 0, 0
	defer func() {
		if p := recover(); p != nil {
			if e, ok := p.(*exitError); ok {
				if e.msg != "" {
					r.errorf("%s", e.msg)
				}
				r.status = e.status
				if e.unbound && !r.isSubshell {
					r.status = 127
				}
			} else {
				r.errorf("internal error: %v", p)
				if debugPanics {
					r.errorf("%s", debug.Stack())
				}
				r.status = 2
			}
			status = r.status
		}
	}()
	body()
	r.runExitTrap()
	r.waitProcSubsts()
	return r.status
}

// RunCommand runs src as `bash -c` would: the top-level command of a
// sandbox's Run.
func (r *Interp) RunCommand(ctx context.Context, src string) int {
	r.cmdString = true
	r.setExecutionString(src)
	return r.Run(ctx, src, "")
}

// currentSource is ${BASH_SOURCE[0]}: where the running function was
// defined ("environment" for a -c string), or the file being run.
func (r *Interp) currentSource() string {
	if n := len(r.frames); n > 0 {
		return r.frames[n-1].source
	}
	if r.source != nil {
		return r.source.name
	}
	return ""
}

// debugPanics prints a stack with internal errors (tests set it).
var debugPanics = false

// runSource runs a script text in the current shell.
func (r *Interp) runSource(src, name string) { r.runSourceAt(src, name, 0) }

// runSourceAt is runSource for a text that starts after lineBase lines of
// its script.
func (r *Interp) runSourceAt(src, name string, lineBase int) {
	file := &sourceFile{name: name, text: src, lineBase: lineBase}
	saved := r.source
	r.source = file
	defer func() { r.source = saved }()
	// The whole text parses in the common case. When it does not, bash
	// still runs what precedes the syntax error: parse statement by
	// statement then.
	f, ptext, rep, err := parseRepaired(src, name)
	file.setRepairs(rep)
	if err == nil {
		file.aliasesDone = true
		skipLine, verboseLine := uint(0), uint(0)
		restart, restartText := false, ""
		last := f.Stmts[max(len(f.Stmts)-1, 0):]
		r.runUnits(file, f.Stmts, func(st *syntax.Stmt) bool {
			if r.exiting || r.returning || r.fatal != nil {
				return true
			}
			r.oneShot = len(last) == 1 && st == last[0] && r.isOneShot(st)
			if st.Pos().Line() == skipLine {
				return false
			}
			if r.opts.verbose && st.Pos().Line() > verboseLine {
				verboseLine = r.verboseEcho(src, st)
			}
			fromStdin := r.stdinScript != nil && r.stdinScript.text == src && r.depth == 0
			if fromStdin {
				r.stdinScript.consumed(st)
			}
			if r.topStmt(st) {
				skipLine = st.End().Line()
			}
			if fromStdin {
				if d := r.fds.get(0); d != nil && d.vf != nil && d.vf != r.stdinScript.f {
					// exec 0< file: the shell reads its commands on
					// from the new standard input
					r.stdinScript.switchTo(d.vf)
				}
				if rest, ok := r.stdinScript.moved(r.sh.cfg.Limits.MaxStringBytes); ok {
					restart, restartText = true, rest
					return true
				}
			}
			return false
		})
		r.oneShot = false
		if restart && !r.exiting && !r.returning && r.fatal == nil {
			r.runSource(restartText, name)
		}
		return
	}
	// What shares the error's line does not run: bash parses a line
	// whole before running it.
	_, perr := parseBash(ptext, name)
	errLine := uint(1 << 31)
	var pe syntax.ParseError
	if errors.As(perr, &pe) && pe.Pos.Line() > 0 {
		errLine = pe.Pos.Line()
	}
	err = parseEach(ptext, func(st *syntax.Stmt) bool {
		if r.fatal != nil || st.End().Line() >= errLine {
			return false
		}
		r.hdocWarn(file, st)
		if r.skipSynErr(file, st) {
			return true
		}
		rep.apply(st)
		r.topStmt(st)
		return !r.exiting && !r.returning
	})
	if err == nil {
		err = perr
	}
	if err != nil && !r.exiting && r.fatal == nil {
		r.hdocWarnBefore(file, syntaxErrorOffset(err))
		r.syntaxError(err, src)
	}
}

// syntaxErrorOffset is the offset of a parse error, or the end of any
// text when err has none or is an unexpected end of the text.
func syntaxErrorOffset(err error) int {
	var pe syntax.ParseError
	if errors.As(err, &pe) && !pe.Incomplete {
		return int(pe.Pos.Offset())
	}
	return 1 << 31 // bash reads to the end of the text first
}

// topStmt runs a top-level statement and reports whether an expansion
// error discarded it (the rest of its line is skipped then).
func (r *Interp) topStmt(st *syntax.Stmt) (discarded bool) {
	depth, fdepth, scopes, frames := r.depth, r.funcDepth, len(r.vars.scopes), len(r.frames)
	fds, src, params, loops := r.fds, r.source, r.params, r.loopDepth
	defer func() {
		if p := recover(); p != nil {
			e, ok := p.(*exitError)
			if !ok || !e.discard {
				panic(p)
			}
			// Unwind what the abandoned command had entered.
			r.depth, r.funcDepth, r.frames = depth, fdepth, r.frames[:frames]
			r.vars.scopes = r.vars.scopes[:scopes]
			if r.fds != fds {
				r.fds.closeAll()
			}
			r.fds, r.source, r.params, r.loopDepth = fds, src, params, loops
			r.noErrExit, r.brk, r.cont = 0, 0, 0
			r.status = e.status
			discarded = true
		}
	}()
	r.stmt(st)
	return false
}

// syntaxError reports a parse error as bash does and sets status 2.
func (r *Interp) syntaxError(err error, src string) {
	prefix := r.arg0 + ": "
	if r.cmdString && (r.source == nil || r.source.name == "") {
		prefix += "-c: "
	} else if r.source != nil && r.source.name != "" {
		prefix = r.source.name + ": "
	}
	r.syntaxErrorPrefix(err, src, prefix)
	if !r.interactiveLike() {
		r.exiting = true
	}
}

// evalErrorPrefix is how bash names a syntax error inside eval.
func (r *Interp) evalErrorPrefix() string {
	name := r.arg0
	if src := r.currentSource(); src != "" {
		name = src
	}
	return name + ": eval: "
}

// syntaxErrorPrefix prints a parse error of src the way bash words it,
// after prefix, and sets status 2.
func (r *Interp) syntaxErrorPrefix(err error, src, prefix string) {
	base := 0
	if r.source != nil && r.source.text == src {
		base = r.source.lineBase
	}
	r.syntaxErrorAt(err, src, prefix, base)
}

// syntaxErrorAt is syntaxErrorPrefix with base added to line numbers.
func (r *Interp) syntaxErrorAt(err error, src, prefix string, base int) {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		line := base + int(pe.Pos.Line())
		lines := strings.Split(src, "\n")
		text := ""
		if l := int(pe.Pos.Line()); l >= 1 && l <= len(lines) {
			text = lines[l-1]
		}
		switch msg := pe.Text; {
		case strings.Contains(msg, "without matching `$((`") && strings.Count(src, "(") > strings.Count(src, ")"):
			r.writeErr(fmt.Sprintf("%sline %d: unexpected EOF while looking for matching `)'\n", prefix, line))
			r.status = 2
			return
		case strings.Contains(msg, "without matching `$((`"):
			r.writeErr(fmt.Sprintf("%sline %d: syntax error near unexpected token `)'\n%sline %d: `%s'\n", prefix, line, prefix, line, text))
			r.status = 2
			return
		case unclosedArith(src) >= 0:
			// $(( $(( )) : bash reads to the end looking for the ).
			l := base + 1 + strings.Count(src[:unclosedArith(src)], "\n")
			r.writeErr(fmt.Sprintf("%sline %d: unexpected EOF while looking for matching `)'\n", prefix, l))
			r.status = 2
			return
		case unclosedRegex(src) >= 0:
			// [[ s =~ ( ]]: bash's regex word runs on to the end of the
			// text looking for the ), then the operator misses its word.
			l := base + 1 + strings.Count(src[:unclosedRegex(src)], "\n")
			nlines := strings.Count(strings.TrimSuffix(src, "\n"), "\n") + 1
			r.writeErr(fmt.Sprintf("%sline %d: unexpected EOF while looking for matching `)'\n%sline %d: unexpected argument to conditional binary operator\n", prefix, l, prefix, base+nlines+1))
			r.status = 2
			return
		case strings.HasPrefix(msg, "not a valid test operator"):
			// bash's parser keeps the last status for an error in [[ ]].
			r.writeErr(fmt.Sprintf("%sline %d: syntax error in conditional expression\n", prefix, line))
			return
		}
	}
	r.writeErr(bashSyntaxError(err, src, prefix, base, r.lineno))
	r.status = 2
}

// interactiveLike is false: wasmsand's shell is always a non-interactive
// bash, where a syntax error ends the script.
func (r *Interp) interactiveLike() bool { return false }

// runExitTrap runs the EXIT trap once when the shell's script ends.
func (r *Interp) runExitTrap() {
	cmd, ok := r.traps["EXIT"]
	if !ok || cmd == "" {
		return
	}
	delete(r.traps, "EXIT")
	status := r.status
	r.exiting, r.returning = false, false
	// The trap may hit the deadline or a limit: that must end it, not
	// escape from the goroutine of a job or pipeline stage.
	r.runGuarded(func() { r.runTrap("EXIT", cmd) })
	if !r.exiting {
		r.status = status
	}
	r.exiting = true
}

// errorf prints "NAME: line N: MSG" to fd 2, as bash does for errors in a
// script or -c string.
func (r *Interp) errorf(format string, args ...any) {
	r.errorfLine(r.lineno, format, args...)
}

func (r *Interp) errorfLine(line int, format string, args ...any) {
	// bash names ${BASH_SOURCE[0]} (the script, the sourced file, the
	// file that defined the running function) or else $0.
	name := r.arg0
	if src := r.currentSource(); src != "" {
		name = src
	}
	prefix := name + ": "
	if line > 0 {
		prefix += fmt.Sprintf("line %d: ", line)
	}
	r.writeErr(prefix + fmt.Sprintf(format, args...) + "\n")
}

// writeErr writes to the shell's fd 2.
func (r *Interp) writeErr(s string) {
	if d := r.fds.get(2); d != nil {
		d.write(r.ctxOrBackground(), []byte(s))
	}
}

func (r *Interp) ctxOrBackground() context.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

// fail ends the Run with an internal limit error.
func (r *Interp) fail(status int, format string, args ...any) {
	panic(&exitError{status: status, msg: fmt.Sprintf(format, args...), fatal: true})
}

// parseEach parses src statement by statement, calling fn for each until
// it returns false; it returns the parse error that stopped it, if any.
func parseEach(src string, fn func(st *syntax.Stmt) bool) error {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	for st, err := range p.StmtsSeq(strings.NewReader(src)) {
		if err != nil {
			return err
		}
		backquoteContinuations(st, src)
		if !fn(st) {
			return nil
		}
	}
	return nil
}
