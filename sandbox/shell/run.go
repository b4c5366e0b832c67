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
}

// stmtNode is a function body with the source it came from.
type stmtNode struct {
	stmt *syntax.Stmt
	src  *sourceFile
}

// exitError ends the Run: an internal error or a limit. It carries the
// message printed and the status.
type exitError struct {
	status int
	msg    string
}

func (e *exitError) Error() string { return e.msg }

// Run parses and runs src, a script named name (for messages and $0 in
// errors), statement by statement as bash does: what precedes a syntax
// error runs. It returns the exit status. An internal failure never
// panics out of Run: it becomes status 2 and a message on fd 2.
func (r *Interp) Run(ctx context.Context, src, name string) (status int) {
	r.ctx = ctx
	defer func() {
		if p := recover(); p != nil {
			if e, ok := p.(*exitError); ok {
				r.errorf("%s", e.msg)
				r.status = e.status
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
	r.runSource(src, name)
	r.runExitTrap()
	return r.status
}

// debugPanics prints a stack with internal errors (tests set it).
var debugPanics = false

// runSource runs a script text in the current shell.
func (r *Interp) runSource(src, name string) {
	file := &sourceFile{name: name, text: src}
	saved := r.source
	r.source = file
	defer func() { r.source = saved }()
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	err := p.Stmts(strings.NewReader(src), func(st *syntax.Stmt) bool {
		if r.fatal != nil {
			return false
		}
		r.stmt(st)
		return !r.exiting && !r.returning
	})
	if err != nil && !r.exiting && r.fatal == nil {
		r.syntaxError(err)
	}
}

// syntaxError reports a parse error as bash does and sets status 2.
func (r *Interp) syntaxError(err error) {
	msg := err.Error()
	var pe syntax.ParseError
	line := r.lineno
	if errors.As(err, &pe) {
		msg = pe.Text
		line = int(pe.Pos.Line())
	}
	r.errorfLine(line, "syntax error: %s", msg)
	r.status = 2
	if !r.interactiveLike() {
		r.exiting = true
	}
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
	r.runTrap("EXIT", cmd)
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
	prefix := r.arg0 + ": "
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
	panic(&exitError{status: status, msg: fmt.Sprintf(format, args...)})
}
