package shell

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// pipeline runs a | b | c: every stage in its own subshell, joined by
// VFS pipes; with lastpipe the last stage runs in this shell.
func (r *Interp) pipeline(c *syntax.BinaryCmd) {
	var stages []*syntax.Stmt
	var stderrToo []bool
	var flatten func(s *syntax.Stmt, all bool)
	flatten = func(s *syntax.Stmt, all bool) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !s.Negated && len(s.Redirs) == 0 && !s.Background {
			flatten(b.X, b.Op == syntax.PipeAll)
			flatten(b.Y, all)
			return
		}
		stages = append(stages, s)
		stderrToo = append(stderrToo, all)
	}
	flatten(c.X, c.Op == syntax.PipeAll)
	flatten(c.Y, false)

	n := len(stages)
	statuses := make([]int, n)
	var wg sync.WaitGroup
	var in *fdFile // read end for the next stage
	lastHere := r.opts.lastpipe
	for i, st := range stages {
		var out *fdFile
		var nextIn *fdFile
		if i < n-1 {
			pr, pw := r.fs().Pipe()
			out, nextIn = newVfsFd(pw), newVfsFd(pr)
		}
		if i == n-1 && lastHere {
			saved := r.fds
			r.fds = saved.clone()
			if in != nil {
				r.fds.set(0, in)
			}
			r.stmtSync(st)
			tbl := r.fds
			r.fds = saved
			tbl.closeAll()
			statuses[i] = r.status
			break
		}
		release, err := r.sh.cfg.Host.Fork(r.ctx)
		if err != nil {
			r.forkFailed(err)
			statuses[i] = r.status
			if in != nil {
				in.unref()
			}
			if out != nil {
				out.unref()
			}
			in = nextIn
			continue
		}
		sub := r.subshell()
		if in != nil {
			sub.fds.set(0, in)
		}
		if out != nil {
			sub.fds.set(1, out)
			if stderrToo[i] {
				sub.fds.set(2, out.ref())
			}
		}
		wg.Add(1)
		goStage(func() {
			defer wg.Done()
			defer release()
			sub.runGuarded(func() { sub.stmtSync(st) })
			sub.runExitTrap()
			if sub.brokenPipe {
				sub.status = 141
			}
			statuses[i] = sub.status
			sub.fds.closeAll()
		})
		in = nextIn
	}
	wg.Wait()
	if ctxDone(r.ctx) {
		panic(&exitError{status: 124, fatal: true})
	}
	r.pipeStatus = statuses
	status := statuses[n-1]
	if r.opts.pipefail {
		for i := n - 1; i >= 0; i-- {
			if statuses[i] != 0 {
				status = statuses[i]
				break
			}
		}
	}
	r.status = status
}

// cmdSubst runs $(...) and returns its output without trailing newlines.
func (r *Interp) cmdSubst(c *syntax.CmdSubst) string {
	// $(< file) reads the file.
	if len(c.Stmts) == 1 {
		st := c.Stmts[0]
		if st.Cmd == nil && len(st.Redirs) == 1 && st.Redirs[0].Op == syntax.RdrIn && st.Redirs[0].N == nil {
			name := r.expandRedirWord(st.Redirs[0].Word)
			if name == nil {
				return ""
			}
			b, err := r.fs().ReadFile(r.absPath(*name))
			if err != nil {
				r.errorf("%s: %s", *name, errnoText(err))
				r.status = 1
				return ""
			}
			return strings.TrimRight(string(b), "\n")
		}
	}
	release, err := r.sh.cfg.Host.Fork(r.ctx)
	if err != nil {
		r.forkFailed(err)
		return ""
	}
	defer release()
	buf := &limitBuffer{limit: r.sh.cfg.Limits.MaxStringBytes}
	sub := r.subshell()
	sub.showParentTraps(r)
	sub.xtraceLevel++
	if !r.opts.inheritErrexit && !r.opts.posix {
		sub.opts.errexit = false // bash: $(..) does not inherit set -e
	}
	sub.fds.set(1, newStreamFd(nil, buf))
	sub.runGuarded(func() { sub.stmts(c.Stmts) })
	sub.runExitTrap()
	sub.fds.closeAll()
	r.status = sub.status
	r.substStatus = sub.status
	if ctxDone(r.ctx) {
		panic(&exitError{status: 124, fatal: true})
	}
	out := buf.b.Bytes()
	if bytes.IndexByte(out, 0) >= 0 {
		r.errorf("warning: command substitution: ignored null byte in input")
		out = bytes.ReplaceAll(out, []byte{0}, nil)
	}
	return strings.TrimRight(string(out), "\n")
}

// limitBuffer collects output up to a limit; past it writes fail.
type limitBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	limit int
	over  bool
}

func (l *limitBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.limit - l.b.Len(); len(p) > room {
		l.over = true
		l.b.Write(p[:room])
		return room, errOutputFull
	}
	return l.b.Write(p)
}

// errOutputFull is what a writer to a full command substitution sees: a
// closed pipe, so `x=$(yes)` stops like `yes | head -c N`.
var errOutputFull error = closedPipe("command substitution: output limit reached")

// closedPipe is an error that wraps io.ErrClosedPipe. It is a type rather
// than a fmt.Errorf at init, which would run fmt's formatting (and make
// V8 compile it) at every start of the js/wasm core.
type closedPipe string

func (e closedPipe) Error() string { return string(e) + ": " + io.ErrClosedPipe.Error() }
func (e closedPipe) Unwrap() error { return io.ErrClosedPipe }

// procSubst starts <(cmd) or >(cmd) and returns the /dev/fd/N path its
// FIFO has in the VFS. The FIFO is removed when the Run's command that
// used it ends.
func (r *Interp) procSubst(p *syntax.ProcSubst) string {
	var name string
	for {
		n := 63 + int(r.sh.procSub.Add(1)) - 1
		name = "/dev/fd/" + strconv.Itoa(n)
		if _, err := r.fs().Stat(vfs.RootIno, name, false); err != nil {
			break
		}
	}
	_ = r.fs().MkdirAll("/dev/fd", 0o755)
	if err := r.fs().Mkfifo(vfs.RootIno, name, 0o600); err != nil {
		r.errorf("cannot make pipe for process substitution: %s", errnoText(err))
		return ""
	}
	reading := p.Op == syntax.CmdIn // <(cmd): cmd writes, we read
	release, err := r.sh.cfg.Host.Fork(r.ctx)
	if err != nil {
		r.forkFailed(err)
		return name
	}
	sub := r.subshell()
	flags, keepFlags := vfs.OpenFlag(vfs.OWrite), vfs.OpenFlag(vfs.ORead)
	if !reading {
		flags, keepFlags = vfs.ORead, vfs.OWrite
	}
	fs := r.fs()
	ctx := r.ctx
	done := make(chan struct{})
	// The shell holds the other end open until the command that uses the
	// substitution ends, as bash holds fd 63: the FIFO keeps what cmd
	// wrote before its reader opened it, and a reader of >(cmd) sees end
	// of file once the shell lets go. Both ends open here, before cmd runs.
	keep, kerr := fs.Open(vfs.RootIno, name, keepFlags|vfs.ONonblock, 0)
	f, err := fs.Open(vfs.RootIno, name, flags, 0)
	if kerr != nil || err != nil {
		if keep != nil {
			keep.Close()
		}
		if f != nil {
			f.Close()
		}
		release()
		r.errorf("cannot make pipe for process substitution: %s", errnoText(cmp.Or(kerr, err)))
		return name
	}
	r.procSubsts = append(r.procSubsts, procSub{name: name, done: done, keep: keep})
	// $! is the substitution's pid, and wait can wait for it.
	ps := &job{pid: sub.bashpid, done: done}
	r.lastBg, r.lastProcSubst = ps.pid, ps
	r.sh.psMu.Lock()
	r.sh.psRunning = slices.DeleteFunc(r.sh.psRunning, func(c chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	})
	r.sh.psRunning = append(r.sh.psRunning, done)
	r.sh.psMu.Unlock()
	go func() {
		defer close(done)
		defer release()
		defer func() { ps.status = sub.status }()
		d := newVfsFd(f)
		if reading {
			sub.fds.set(1, d)
		} else {
			sub.fds.set(0, d)
		}
		sub.ctx = ctx
		sub.runGuarded(func() { sub.stmts(p.Stmts) })
		sub.fds.closeAll()
	}()
	return name
}

// waitProcSubsts gives the process substitutions still running a little
// time to finish when a Run ends, so that what >(cmd) writes is not lost
// to the Run's output (bash does not wait, but its children keep writing
// to the terminal).
func (r *Interp) waitProcSubsts() {
	if r.isSubshell {
		return
	}
	r.sh.psMu.Lock()
	running := r.sh.psRunning
	r.sh.psRunning = nil
	r.sh.psMu.Unlock()
	if len(running) == 0 {
		return
	}
	timer := time.NewTimer(2 * time.Second)
	defer timer.Stop()
	for _, done := range running {
		select {
		case <-done:
		case <-r.ctx.Done():
			return
		case <-timer.C:
			return
		}
	}
}

// procSub is a running process substitution.
type procSub struct {
	name string
	done chan struct{}
	keep *vfs.File // the shell's end
}

// cleanProcSubsts closes the shell's ends and unlinks the FIFOs of the
// process substitutions started since the first from of them.
func (r *Interp) cleanProcSubsts(from int) {
	if from >= len(r.procSubsts) {
		return
	}
	for _, p := range r.procSubsts[from:] {
		p.keep.Close()
		_ = r.fs().Unlink(vfs.RootIno, p.name)
	}
	r.procSubsts = r.procSubsts[:from]
}

// job is a background job.
type job struct {
	id     int
	pid    int
	cmd    string
	done   chan struct{}
	status int
	cancel context.CancelCauseFunc
	sig    int // the signal that ended it, if any
	// inherited jobs are a parent shell's, which a subshell lists (jobs,
	// jobs -p) but cannot wait for.
	inherited bool
	// pending is the job's shell's signals: kill hands a trapped signal
	// to its trap instead of ending the job.
	pending *pendingSignals
	// nohup marks a job `disown -h` kept: the shell would not pass it a
	// SIGHUP.
	nohup bool
}

// jobTable is a shell's background jobs.
type jobTable struct {
	mu   sync.Mutex
	list []*job
	next int
	// gone holds disowned jobs that still run: kill reaches them by pid.
	gone []*job
}

// inherit returns a subshell's table: the parent's jobs, inherited.
func (t *jobTable) inherit() *jobTable {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := &jobTable{next: t.next}
	for _, j := range t.list {
		cp := *j
		cp.inherited = true
		c.list = append(c.list, &cp)
	}
	return c
}

func (t *jobTable) add(j *job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	j.id = t.next
	t.list = append(t.list, j)
}

func (t *jobTable) remove(j *job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, x := range t.list {
		if x == j {
			t.list = append(t.list[:i], t.list[i+1:]...)
			break
		}
	}
	if len(t.list) == 0 {
		t.next = 0
	}
}

// disown moves j out of the table; it runs on.
func (t *jobTable) disown(j *job) {
	t.remove(j)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gone = slices.DeleteFunc(t.gone, func(g *job) bool {
		select {
		case <-g.done:
			return true
		default:
			return false
		}
	})
	t.gone = append(t.gone, j)
}

// disowned returns the disowned job with process id pid, if it runs.
func (t *jobTable) disowned(pid int) *job {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, j := range t.gone {
		if j.pid == pid {
			select {
			case <-j.done:
				return nil
			default:
				return j
			}
		}
	}
	return nil
}

func (t *jobTable) all() []*job {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]*job(nil), t.list...)
}

// signalError is the cause of a job's context when kill ends it.
type signalError struct{ sig int }

func (s signalError) Error() string { return "killed by signal " + strconv.Itoa(s.sig) }

// startJob runs st in the background. A job's stdin is /dev/null unless
// redirected; a coprocess (keepStdin) keeps the pipe it was given.
func (r *Interp) startJob(st *syntax.Stmt, text string, keepStdin bool) *job {
	release, err := r.sh.cfg.Host.Fork(r.ctx)
	if err != nil {
		r.forkFailed(err)
		return nil
	}
	ctx, cancel := context.WithCancelCause(r.ctx)
	sub := r.subshell()
	sub.ctx = ctx
	j := &job{pid: sub.bashpid, cmd: text, done: make(chan struct{}), cancel: cancel, pending: sub.pending}
	// A background job's stdin is /dev/null unless redirected, here or
	// by a compound command around it.
	if !r.opts.monitor && !keepStdin && r.stdinRedir == 0 {
		if f, err := r.fs().Open(vfs.RootIno, "/dev/null", vfs.ORead, 0); err == nil {
			sub.fds.set(0, newVfsFd(f))
		}
	}
	r.jobs.add(j)
	r.lastBg = j.pid
	pending := r.pending
	// `( list ) &` is one process in bash: its traps and $BASHPID are the
	// job's, so kill %1 reaches a trap the list sets.
	var list []*syntax.Stmt
	if c, ok := st.Cmd.(*syntax.Subshell); ok && len(st.Redirs) == 0 && !st.Negated {
		list = c.Stmts
		sub.showParentTraps(r)
	}
	go func() {
		defer close(j.done)
		// The shell gets SIGCHLD when the job ends (for a CHLD trap).
		defer pending.add(sigCHLD)
		defer release()
		sub.runGuarded(func() {
			if list != nil {
				sub.stmts(list)
				return
			}
			sub.stmtSync(st)
		})
		sub.runExitTrap()
		j.status = sub.status
		if cause := context.Cause(ctx); cause != nil {
			if se, ok := cause.(signalError); ok {
				j.sig = se.sig
				j.status = 128 + se.sig
			}
		}
		sub.fds.closeAll()
	}()
	r.status = 0
	return j
}

// coprocess is a running coproc as its shell sees it: the two fds the
// shell holds and the descriptions they had, to notice when a script
// closes or moves one (bash then sets the element to -1).
type coprocess struct {
	name string
	job  *job
	fd   [2]int
	d    [2]*fdFile
}

// checkCoprocFds marks the coprocess fds an exec closed or moved as -1.
func (r *Interp) checkCoprocFds() {
	for _, cp := range r.coprocs {
		for i := range 2 {
			if cp.fd[i] >= 0 && r.fds.get(cp.fd[i]) != cp.d[i] {
				cp.fd[i] = -1
				r.setCoprocElem(cp, i)
			}
		}
	}
}

func (r *Interp) setCoprocElem(cp *coprocess, i int) {
	if v := r.vars.global().vars[cp.name]; v != nil && v.Index != nil {
		v.Index.Set(int64(i), strconv.Itoa(cp.fd[i]))
	}
}

// reapCoproc is what bash does when it reaps a coprocess (wait, or a new
// coproc): close the fds the shell still holds for it and unset NAME and
// NAME_PID.
func (r *Interp) reapCoproc(j *job) {
	for k, cp := range r.coprocs {
		if cp.job != j {
			continue
		}
		r.closeCoprocFds(cp)
		// A wait with redirections reaps inside a copy of the fd table:
		// the tables outside close the fds when they are restored.
		r.reaped = append(r.reaped, cp)
		if len(r.reaped) > 8 {
			r.reaped = r.reaped[1:]
		}
		if v := r.vars.global().vars[cp.name]; v != nil && v.Index != nil {
			delete(r.vars.global().vars, cp.name)
		}
		delete(r.vars.global().vars, cp.name+"_PID")
		r.coprocs = append(r.coprocs[:k], r.coprocs[k+1:]...)
		return
	}
}

// closeCoprocFds closes the fds of a reaped coprocess that the current
// table still holds.
func (r *Interp) closeCoprocFds(cp *coprocess) {
	for i := range 2 {
		if cp.fd[i] >= 0 && r.fds.get(cp.fd[i]) == cp.d[i] {
			r.fds.close(cp.fd[i])
		}
	}
}

// coproc runs `coproc [NAME] cmd`: NAME[0] reads its output, NAME[1]
// writes its input, NAME_PID is its pid.
func (r *Interp) coproc(c *syntax.CoprocClause) {
	name := "COPROC"
	if c.Name != nil {
		name = r.expandString(c.Name)
	}
	// Coprocesses that have ended are reaped first, freeing their fds.
	for _, cp := range append([]*coprocess(nil), r.coprocs...) {
		select {
		case <-cp.job.done:
			r.jobs.remove(cp.job)
			r.reapCoproc(cp.job)
		default:
		}
	}
	outR, outW := r.fs().Pipe()
	inR, inW := r.fs().Pipe()
	// bash moves the ends high: the read end to 63, the write end to 60.
	rfd := r.fds.highestFree(63)
	r.fds.set(rfd, newVfsFd(outR))
	wfd := r.fds.highestFree(60)
	r.fds.set(wfd, newVfsFd(inW))
	saved := r.fds
	r.fds = saved.clone()
	r.fds.set(0, newVfsFd(inR))
	r.fds.set(1, newVfsFd(outW))
	r.fds.close(rfd)
	r.fds.close(wfd)
	j := r.startJob(c.Stmt, r.curText(c), true)
	tbl := r.fds
	r.fds = saved
	tbl.closeAll()
	a := &IndexedArray{}
	a.Set(0, strconv.Itoa(rfd))
	a.Set(1, strconv.Itoa(wfd))
	r.vars.global().vars[name] = &Var{Attr: AttrIndexed, Set: true, Index: a}
	if j != nil {
		r.assignQuiet(name+"_PID", strconv.Itoa(j.pid))
		r.coprocs = append(r.coprocs, &coprocess{name: name, job: j, fd: [2]int{rfd, wfd}, d: [2]*fdFile{r.fds.get(rfd), r.fds.get(wfd)}})
	}
	r.status = 0
}

// waitJob waits for j and returns its status. A signal this shell traps
// ends the wait early with 128+signal (interrupted), as in bash; the trap
// runs next.
func (r *Interp) waitJob(j *job) (status int, interrupted bool) {
	for {
		select {
		case <-j.done:
			r.jobs.remove(j)
			r.reapCoproc(j)
			return j.status, false
		case <-r.pending.wake:
			if sig, ok := r.pending.interrupting(); ok {
				return 128 + sig, true
			}
		case <-r.ctx.Done():
			panic(&exitError{status: 124, fatal: true})
		}
	}
}

// signalJob sends sig to job j: a signal the job's shell traps goes to
// the trap (or nowhere, if ignored); any other ends the job. Signal 0
// only checks that the job exists.
func (r *Interp) signalJob(j *job, sig int) {
	if sig == 0 {
		return
	}
	if j.pending != nil && sig != sigKILL && sig != sigSTOP {
		if cmd, ok := j.pending.trap(sig); ok {
			if cmd != "" {
				j.pending.add(sig)
			}
			return
		}
	}
	j.cancel(signalError{sig})
}

// findJob resolves a job spec (%1, %%, %+, %-, %name, or a pid).
func (r *Interp) findJob(spec string) *job {
	jobs := r.jobs.all()
	if strings.HasPrefix(spec, "%") {
		s := spec[1:]
		if s == "" || s == "%" || s == "+" {
			if len(jobs) == 0 {
				return nil
			}
			return jobs[len(jobs)-1]
		}
		if s == "-" {
			if len(jobs) < 2 {
				if len(jobs) == 1 {
					return jobs[0]
				}
				return nil
			}
			return jobs[len(jobs)-2]
		}
		if n, err := strconv.Atoi(s); err == nil {
			for _, j := range jobs {
				if j.id == n {
					return j
				}
			}
			return nil
		}
		for _, j := range jobs {
			if strings.HasPrefix(j.cmd, strings.TrimPrefix(s, "?")) || strings.HasPrefix(s, "?") && strings.Contains(j.cmd, s[1:]) {
				return j
			}
		}
		return nil
	}
	if pid, err := strconv.Atoi(spec); err == nil {
		for _, j := range jobs {
			if j.pid == pid {
				return j
			}
		}
		if j := r.lastProcSubst; j != nil && j.pid == pid {
			return j
		}
	}
	return nil
}

// runTrap runs a trap's command for sig.
func (r *Interp) runTrap(sig, cmd string) {
	saved := r.inTrap
	savedStatus := r.status
	r.inTrap = sig
	r.status = savedStatus
	r.nestedEval(func() { r.evalString(cmd, r.sourceName()) })
	r.inTrap = saved
}

// sourceName is the name of the script running, for messages.
func (r *Interp) sourceName() string {
	if r.source != nil {
		return r.source.name
	}
	return r.arg0
}

// evalString runs src in the current shell, as eval does.
func (r *Interp) evalString(src, name string) {
	r.evalStringAt(src, name, 0)
}

// evalStringAt is evalString for eval: bash counts the lines of src from
// the line where its parser stands, extra lines below the eval's start.
func (r *Interp) evalStringAt(src, name string, extra int) {
	if r.depth >= r.sh.cfg.Limits.MaxDepth {
		r.fail(1, "eval: maximum nesting level exceeded (%d)", r.sh.cfg.Limits.MaxDepth)
	}
	r.depth++
	defer func() { r.depth-- }()
	file := &sourceFile{name: name, text: src}
	saved := r.source
	r.source = file
	defer func() { r.source = saved }()
	line := r.lineno
	base := line - 1 + extra
	savedBase := r.lineBase
	defer func() { r.lineBase = savedBase }()
	f, _, rep, err := parseRepaired(src, name)
	file.setRepairs(rep)
	for i := range file.hdocs {
		// lines count from the eval's, as its errors do
		file.hdocs[i].line += base
		file.hdocs[i].lastLine += base
	}
	for off, e := range file.synErrs {
		e.line += base
		e.eval = true
		file.synErrs[off] = e
	}
	if err != nil {
		// What precedes the error's line runs first, as in bash.
		r.runBeforeSyntaxError(src, name, err, base)
		if !r.exiting && r.fatal == nil {
			r.syntaxErrorAt(err, src, r.evalErrorPrefix(), base)
		}
		r.lineno = line
		return
	}
	if off, ok := extglobOff(f.Stmts); ok && !r.opts.extglob && int(off) <= len(src) {
		// bash without extglob: a syntax error at the "(".
		n := strings.Count(src[:off], "\n")
		text := src[strings.LastIndexByte(src[:off], '\n')+1:]
		text, _, _ = strings.Cut(text, "\n")
		prefix := r.evalErrorPrefix()
		r.writeErr(fmt.Sprintf("%sline %d: syntax error near unexpected token `('\n%sline %d: `%s'\n", prefix, line+n, prefix, line+n, text))
		r.status = 2
		return
	}
	// Line numbers inside eval count from the eval's line.
	file.aliasesDone = true
	r.runUnits(file, f.Stmts, func(st *syntax.Stmt) bool {
		if r.exiting || r.returning || r.brk > 0 || r.cont > 0 {
			return true
		}
		r.lineBase = base
		r.stmt(st)
		return false
	})
	r.lineno = line
}

// stmtsAt runs statements whose line numbers are offset by base.
func (r *Interp) stmtsAt(list []*syntax.Stmt, base int) {
	for _, st := range list {
		if r.exiting || r.returning || r.brk > 0 || r.cont > 0 {
			return
		}
		r.lineBase = base
		r.stmt(st)
	}
	r.lineBase = 0
}

// deliver handles a signal sent to this shell: its trap, or the default
// action (the shell ends with 128+sig).
func (r *Interp) deliver(sig int) {
	name := signalName(sig)
	if cmd, ok := r.traps[name]; ok {
		if cmd != "" {
			r.runTrap(name, cmd)
		}
		return
	}
	if sig == 0 || sig == sigCHLD || sig == sigWINCH || sig == sigURG || sig == sigCONT {
		return
	}
	r.status = 128 + sig
	r.exiting = true
}
