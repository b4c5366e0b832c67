package shell

import (
	"io"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// debugTrap runs the DEBUG trap before a simple command, (( )) or
// [[ ]], with $BASH_COMMAND set to its text. It reports whether the
// command is to be skipped (shopt -s extdebug and a trap that failed).
func (r *Interp) debugTrap(st *syntax.Stmt) bool {
	switch st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.ArithmCmd, *syntax.TestClause, *syntax.DeclClause, *syntax.LetClause:
	default:
		return false
	}
	if !r.debugTrapSet() {
		return false
	}
	// The command and its redirections, without a trailing ; or &.
	end := st.Cmd.End()
	for _, rd := range st.Redirs {
		if rd.End().Offset() > end.Offset() {
			end = rd.End()
		}
	}
	text := ""
	if r.source != nil {
		s, e := int(st.Pos().Offset()), int(end.Offset())
		if s < e && e <= len(r.source.text) {
			text = r.source.text[s:e]
		}
	}
	return r.debugTrapText(text)
}

// debugTrapSet reports whether a DEBUG trap would run now.
func (r *Interp) debugTrapSet() bool {
	cmd, ok := r.traps["DEBUG"]
	return ok && cmd != "" && !r.inDebugTrap
}

// debugTrapText runs the DEBUG trap before a command whose text,
// $BASH_COMMAND, is text ("" leaves it). Inside another trap
// $BASH_COMMAND stays the command trapped. It reports whether extdebug
// says to skip the command.
func (r *Interp) debugTrapText(text string) bool {
	if !r.debugTrapSet() {
		return false
	}
	if text != "" && r.inTrap == "" {
		r.curCmd = text
	}
	return r.runDebugTrap(r.traps["DEBUG"])
}

// runDebugTrap runs the DEBUG trap's command, keeping $? and $LINENO.
// With extdebug, a trap that returns non-zero skips the command, and 2
// in a function or sourced file makes it return.
func (r *Interp) runDebugTrap(cmd string) bool {
	status, line := r.status, r.lineno
	r.inDebugTrap = true
	r.runTrap("DEBUG", cmd)
	r.inDebugTrap = false
	trapStatus := r.status
	r.status, r.lineno = status, line
	if !r.opts.extdebug || trapStatus == 0 || r.exiting {
		return false
	}
	if trapStatus == 2 && (r.funcDepth > 0 || r.sourceDepth > 0) {
		r.status = 2
		r.returning = true
	}
	return true
}

// hideFuncTraps is what bash does on entering a function: the ERR trap
// is not inherited without set -E, DEBUG and RETURN not without set -T.
// It returns the traps it took away, for restoreFuncTraps.
func (r *Interp) hideFuncTraps(f *Func) map[string]string {
	var saved map[string]string
	hide := func(k string) {
		if v, ok := r.traps[k]; ok {
			if saved == nil {
				saved = map[string]string{}
			}
			saved[k] = v
			delete(r.traps, k)
		}
	}
	if !r.opts.errtrace {
		hide("ERR")
	}
	// a function with the trace attribute (declare -ft) inherits them
	if !r.opts.functrace && !f.traced {
		hide("DEBUG")
	}
	if r.inDebugTrap || (!r.opts.functrace && !f.traced) {
		hide("RETURN")
	}
	return saved
}

// restoreFuncTraps puts back the traps hideFuncTraps took, unless the
// function set its own.
func (r *Interp) restoreFuncTraps(saved map[string]string) {
	for k, v := range saved {
		if _, ok := r.traps[k]; !ok {
			r.traps[k] = v
		}
	}
}

// deliverPending handles signals this shell sent itself (kill -USR1 $$)
// as soon as the command that sent them ends, keeping $?.
func (r *Interp) deliverPending() {
	if r.pending == nil {
		return
	}
	sigs := r.pending.take()
	if len(sigs) == 0 {
		return
	}
	status := r.status
	for _, sig := range sigs {
		r.deliver(sig)
	}
	if !r.exiting {
		r.status = status
	}
}

// showParentTraps lets trap -p in a subshell or command substitution
// list the parent's traps, as bash does until they are changed there.
func (r *Interp) showParentTraps(parent *Interp) {
	r.shownTraps = map[string]string{}
	for k, v := range parent.listedTraps() {
		r.shownTraps[k] = v
	}
}

// listedTraps is what trap and trap -p list.
func (r *Interp) listedTraps() map[string]string {
	if len(r.shownTraps) == 0 {
		return r.traps
	}
	m := map[string]string{}
	for k, v := range r.shownTraps {
		m[k] = v
	}
	for k, v := range r.traps {
		m[k] = v
	}
	return m
}

// isELF reports whether the file p starts like an ELF executable, which
// the sandbox cannot run and bash will not run as a script.
func (r *Interp) isELF(p string) bool {
	f, err := r.fs().Open(vfs.RootIno, p, vfs.ORead, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 4)
	n, _ := io.ReadFull(f, buf)
	return n == 4 && string(buf) == "\x7fELF"
}

// xtraceArith traces (( expr )) as bash does: "((" and "))" around
// the expanded text between them, one more space each side. An
// arithmetic for loop traces each of its three expressions so.
func (r *Interp) xtraceArith(text string) {
	if r.opts.xtrace {
		r.xtrace("(( " + text + " ))")
	}
}

// xtraceFor traces each round of a for loop: "for NAME in WORDS".
func (r *Interp) xtraceFor(l *syntax.WordIter) {
	if !r.opts.xtrace {
		return
	}
	r.xtrace("for " + r.curText(l))
}

// isSimpleCommand reports whether cmd is a simple command (or a
// command like (( )) or [[ ]] that bash treats as one).
func isSimpleCommand(cmd syntax.Command) bool {
	switch cmd.(type) {
	case *syntax.CallExpr, *syntax.ArithmCmd, *syntax.TestClause, *syntax.DeclClause, *syntax.LetClause:
		return true
	}
	return false
}

// commandNotFoundHandle runs the function command_not_found_handle, as
// bash does in a subshell, for a command not found on $PATH, and reports
// whether it did.
func (r *Interp) commandNotFoundHandle(args []string) bool {
	f, ok := r.funcs["command_not_found_handle"]
	name := args[0]
	if !ok || strings.Contains(name, "/") {
		return false
	}
	if p, ok := r.hashes[name]; ok && r.checkExec(p) == nil {
		return false
	}
	if _, err := r.lookPath(name); err == nil {
		return false
	}
	r.subshellRun(func(sub *Interp) {
		delete(sub.funcs, "command_not_found_handle") // no recursion
		sub.callFunc(f, append([]string{"command_not_found_handle"}, args...))
	})
	return true
}

// setExecutionString sets $BASH_EXECUTION_STRING, the -c string.
func (r *Interp) setExecutionString(src string) {
	r.vars.global().vars["BASH_EXECUTION_STRING"] = &Var{Set: true, Str: src}
}

// bashArgv is $BASH_ARGV or $BASH_ARGC: the arguments of the running
// functions, innermost first and each call's reversed, and their counts.
// bash keeps them with shopt -s extdebug.
func (r *Interp) bashArgv(name string) *Var {
	if !r.opts.extdebug {
		return nil
	}
	a := &IndexedArray{}
	n := int64(0)
	for i := len(r.frames) - 1; i >= 0; i-- {
		args := r.frames[i].args
		if name == "BASH_ARGC" {
			a.Set(n, strconv.Itoa(len(args)))
			n++
			continue
		}
		for j := len(args) - 1; j >= 0; j-- {
			a.Set(n, args[j])
			n++
		}
	}
	return &Var{Attr: AttrIndexed, Set: true, Index: a}
}

// verboseEcho is set -v: it prints the lines of src that st spans, as
// bash prints its input as it reads it, and returns the last of them.
func (r *Interp) verboseEcho(src string, st *syntax.Stmt) uint {
	lines := strings.SplitAfter(src, "\n")
	first, last := int(st.Pos().Line()), int(st.End().Line())
	var sb strings.Builder
	for i := first; i <= last && i <= len(lines); i++ {
		sb.WriteString(lines[i-1])
	}
	out := sb.String()
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	r.writeErr(out)
	return uint(last)
}

// keywordAssigns is set -k: words after the command name that look like
// assignments are assignments for the command too.
func keywordAssigns(c *syntax.CallExpr) *syntax.CallExpr {
	var moved []*syntax.Assign
	args := c.Args[:0:0]
	for i, w := range c.Args {
		if i > 0 && len(w.Parts) > 0 {
			if lit, ok := w.Parts[0].(*syntax.Lit); ok {
				if eq := strings.IndexByte(lit.Value, '='); eq > 0 && validName(lit.Value[:eq]) {
					rest := &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: lit.Value[eq+1:]}
					val := &syntax.Word{Parts: append([]syntax.WordPart{rest}, w.Parts[1:]...)}
					moved = append(moved, &syntax.Assign{Name: &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValuePos, Value: lit.Value[:eq]}, Value: val})
					continue
				}
			}
		}
		args = append(args, w)
	}
	if len(moved) == 0 {
		return c
	}
	cp := *c
	cp.Assigns = append(append([]*syntax.Assign(nil), c.Assigns...), moved...)
	cp.Args = args
	return &cp
}

// isOneShot reports whether st, the last command of a bash -c string,
// is one bash runs by exec without a fork: a simple command, with no
// trap set. The program then sees the shell's own $SHLVL less one.
func (r *Interp) isOneShot(st *syntax.Stmt) bool {
	if !r.cmdString || r.isSubshell || r.depth > 0 || r.sourceDepth > 0 || len(r.traps) > 0 {
		return false
	}
	if st.Negated || st.Background || st.Coprocess {
		return false
	}
	_, ok := st.Cmd.(*syntax.CallExpr)
	return ok
}

// oneShotEnv lowers SHLVL in env by one, as bash does before it execs.
func oneShotEnv(env []string) []string {
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "SHLVL="); ok {
			if n, err := strconv.Atoi(v); err == nil {
				out := append([]string(nil), env...)
				out[i] = "SHLVL=" + strconv.Itoa(n-1)
				return out
			}
		}
	}
	return env
}
