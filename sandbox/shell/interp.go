package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// Host is everything the interpreter needs from the sandbox beyond the
// VFS. It is the only way out of the shell.
type Host interface {
	// Exec runs the executable VFS file at path (absolute, found and
	// checked by the shell) with args, the environment env (KEY=VALUE)
	// and working directory dir, and returns its exit status.
	Exec(ctx context.Context, p *Process) int
	// Fork accounts one more process — a subshell, a pipeline stage, a
	// background job — against the sandbox's limits. release is called
	// when it ends. An error means the process cannot start (the shell
	// reports it as bash reports a failed fork).
	Fork(ctx context.Context) (release func(), err error)
	// Check is called before every command the shell runs. A non-nil
	// error ends the Run (deadline, a limit crossed); it may also yield
	// to the host's event loop.
	Check(ctx context.Context) error
}

// Process is a program the shell starts.
type Process struct {
	Path  string   // the executable VFS file, absolute
	Args  []string // Args[0] is the name it was called by
	Env   []string // KEY=VALUE, sorted
	Dir   string   // the working directory
	Stdio Stdio
	// Umask is the shell's file mode creation mask, which the program
	// inherits.
	Umask uint32
	// SlotHeld is true when the program runs in the process slot of the
	// subshell that starts it (a pipeline stage or job running one
	// command, which a real shell would exec): Host.Exec must not count
	// it again.
	SlotHeld bool
	// Pid is the program's process id: the subshell's when SlotHeld (as
	// bash execs it), otherwise 0 for a fresh one. PPid is its parent's.
	Pid, PPid int
	// Ignored are the signals the program starts with ignored, as the
	// shell ignores them (trap '' SIG), by name without SIG: a child
	// shell cannot trap them (SetIgnoredSignals).
	Ignored []string
}

// Stdio is the standard streams of a program the shell starts. A stream
// that is a VFS file or pipe is a *vfs.File, so the program sees a file.
type Stdio struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Extra are the shell's open fds above 2 that are VFS files or
	// pipes, for the program's /dev/fd/N.
	Extra map[int]*vfs.File
}

// Config configures a new Interp.
type Config struct {
	Host Host
	FS   *vfs.FS
	// Env is the initial environment, KEY=VALUE, all exported.
	Env []string
	// Dir is the absolute working directory.
	Dir string
	// Now is the sandbox clock; nil means time.Now.
	Now func() time.Time
	// Seed seeds $RANDOM.
	Seed uint64
	// Pid is $$ of this shell; 0 gives a fresh one. PPid is $PPID.
	Pid, PPid int
	// Pids hands out process ids for subshells and jobs; nil means a
	// counter private to the shell.
	Pids func() int
	// Limits bound the shell's own memory and stack; zero fields take
	// their defaults.
	Limits Limits
	// ProcessLimits are the sandbox's limits on programs, which ulimit
	// reports.
	ProcessLimits ProcessLimits
	// NotFoundHint, if set, follows "command not found" in parentheses
	// (the sandbox says so when it has no tool modules at all).
	NotFoundHint string
}

// Limits bound the shell's own work in the host.
type Limits struct {
	// MaxStringBytes bounds one value an expansion produces (a variable,
	// a command substitution's output, a printf result).
	MaxStringBytes int
	// MaxWords bounds the words one expansion produces (brace expansion,
	// globbing, "${a[@]}").
	MaxWords int
	// MaxDepth bounds nested function calls, sources, evals and
	// subshells.
	MaxDepth int
}

// Defaults for Limits.
const (
	DefaultMaxStringBytes = 64 << 20
	DefaultMaxWords       = 1 << 20
	DefaultMaxDepth       = 1000
)

// Func is a shell function.
type Func struct {
	Name     string
	Source   string // the text of the definition, for declare -f and snapshots
	body     *stmtNode
	readonly bool
	exported bool // export -f: children see it in BASH_FUNC_name%%
	traced   bool // declare -ft: it inherits the DEBUG and RETURN traps
}

// shared is what a shell and all its subshells have in common.
type shared struct {
	cfg     Config
	nextPid atomic.Int64
	pidFn   func() int
	procSub atomic.Int64
	// psRunning are the process substitutions started by the shell and
	// its subshells, for the Run's end to wait for.
	psMu      sync.Mutex
	psRunning []chan struct{}
	// top is the main shell's signals, for kill $$ in a subshell.
	top *pendingSignals
}

// Interp is one bash shell: its variables, functions, options and file
// descriptors. An Interp runs one thing at a time; subshells, pipeline
// stages and jobs run on copies.
type Interp struct {
	sh *shared

	paramInDQ bool // expanding the operand of a ${..} inside double quotes
	// paramInHdoc: expanding a ${..} of a here-document's body, where the
	// operand's $'..' stays as written
	paramInHdoc bool
	// lastRandom is the last value of $RANDOM, which bash never repeats
	// at once
	lastRandom int
	// stdinRedir counts the compound commands being run whose own
	// redirections give them a standard input: the background commands
	// inside them keep it instead of reading /dev/null.
	stdinRedir int

	vars     *varStore
	funcs    map[string]*Func
	aliases  map[string]string
	opts     options
	traps    map[string]string
	dir      string
	dirStack []string
	// dirStackUsed is set once $DIRSTACK has been read: bash's listings
	// show it empty until then.
	dirStackUsed bool
	fds          *fdTable
	params       []string
	arg0         string
	pid          int // $$
	ppid         int
	bashpid      int
	jobs         *jobTable
	rand         uint32 // $RANDOM state
	started      time.Time
	hashes       map[string]string
	hashMeta     map[string]hashMeta // hits and age of each entry of hashes
	hashSeq      uint64

	// Execution state of the current Run.
	ctx            context.Context
	status         int
	lastArg        string
	lastBg         int
	depth          int // function calls, sources, evals
	funcDepth      int
	subDepth       int // subshell nesting, for $BASH_SUBSHELL
	loopDepth      int
	brk, cont      int
	returning      bool
	exiting        bool
	exited         bool
	noErrExit      int // >0 inside conditions, where errexit is off
	inTrap         string
	inDebugTrap    bool // the DEBUG trap runs (it does not run inside itself)
	commandBuiltin int  // `command` runs a builtin: its errors do not end a POSIX shell
	// hardIgnored are the signals ignored when the shell started
	// (SetIgnoredSignals).
	hardIgnored            map[string]bool
	restrictedShellFixed   bool              // shopt restricted_shell was tried (fixRestrictedShell)
	shownTraps             map[string]string // a (..) or $(..)'s parent's traps, which trap -p still lists
	xtraceLevel            int               // $(..) nesting: set -x repeats PS4's first character
	oneShot                bool              // the last command of bash -c, which bash execs without a fork
	lineno                 int
	curCmd                 string
	frames                 []frame
	source                 *sourceFile
	pipeStatus             []int
	pending                *pendingSignals
	fatal                  error // an internal error or limit that ends the Run
	isSubshell             bool
	lineBase               int        // line offset inside eval
	arith                  arithStack // recursion budget of arithmetic
	substStatus            int        // status of the last command substitution, -1 if none
	aliasDepth             int
	brokenPipe             bool // a write found its pipe's reader gone (SIGPIPE)
	procSubsts             []procSub
	lastProcSubst          *job // the last process substitution, for wait $!
	coprocs                []*coprocess
	reaped                 []*coprocess // recently reaped, see reapCoproc
	secondsAt              time.Time
	sourceDepth            int
	umask                  uint32
	limits                 rlimits         // ulimit's; a subshell's copy is its own
	varFds                 []int           // fds the current command's {var} redirections opened
	stdinScript            *stdinScript    // the script being read from standard input, if from a file
	noFuncLookup           bool            // type -f is describing
	disabled               map[string]bool // builtins turned off by enable -n
	completeSpecs          map[string]string
	getoptsInd, getoptsSub int
	getoptsSetting         bool   // getopts is assigning OPTIND itself
	cmdString              bool   // running a -c string ($- has c)
	mainSource             string // the last element of BASH_SOURCE: the script, or "" for -c
	slotFree               bool   // this subshell holds a process slot its one program may use
}

// frame is one function call, for FUNCNAME, BASH_SOURCE and BASH_LINENO.
type frame struct {
	fn     string
	source string
	line   int // line of the call
	args   []string
}

// pendingSignals are signals sent to this shell (kill -USR1 $$) waiting
// to be handled between commands.
type pendingSignals struct {
	mu   sync.Mutex
	sigs []int
	// trapped holds the signals the shell has a trap for (command or ""
	// to ignore), so that kill from another shell can tell whether a
	// signal is caught, ignored or fatal without reading the trap table.
	trapped map[int]string
	// wake has a value when a signal was added, for a wait to notice.
	wake chan struct{}
}

func newPendingSignals() *pendingSignals {
	return &pendingSignals{wake: make(chan struct{}, 1)}
}

func (p *pendingSignals) add(sig int) {
	p.mu.Lock()
	p.sigs = append(p.sigs, sig)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *pendingSignals) take() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.sigs
	p.sigs = nil
	return s
}

// trap reports the shell's trap for sig, if it has one.
func (p *pendingSignals) trap(sig int) (cmd string, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cmd, ok = p.trapped[sig]
	return cmd, ok
}

// interrupting returns a pending signal that a trap catches (other than
// SIGCHLD), which ends a wait early as in bash.
func (p *pendingSignals) interrupting() (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, sig := range p.sigs {
		if cmd := p.trapped[sig]; cmd != "" && sig != sigCHLD {
			return sig, true
		}
	}
	return 0, false
}

// syncTraps publishes which signals r traps, for kill in other shells.
func (r *Interp) syncTraps() {
	m := map[int]string{}
	for name, cmd := range r.traps {
		if _, n, ok := parseSignal(name, true); ok && n > 0 {
			m[n] = cmd
		}
	}
	r.pending.mu.Lock()
	r.pending.trapped = m
	r.pending.mu.Unlock()
}

// New makes a shell.
func New(cfg Config) (*Interp, error) {
	if cfg.Host == nil || cfg.FS == nil {
		return nil, errors.New("shell: Config needs a Host and an FS")
	}
	if cfg.Dir == "" {
		cfg.Dir = "/"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Limits.MaxStringBytes <= 0 {
		cfg.Limits.MaxStringBytes = DefaultMaxStringBytes
	}
	if cfg.Limits.MaxWords <= 0 {
		cfg.Limits.MaxWords = DefaultMaxWords
	}
	if cfg.Limits.MaxDepth <= 0 {
		cfg.Limits.MaxDepth = DefaultMaxDepth
	}
	sh := &shared{cfg: cfg}
	sh.nextPid.Store(int64(max(cfg.Pid, 1)))
	sh.pidFn = cfg.Pids
	if sh.pidFn == nil {
		sh.pidFn = func() int { return int(sh.nextPid.Add(1)) }
	}
	r := &Interp{
		sh:      sh,
		vars:    newVarStore(),
		funcs:   map[string]*Func{},
		aliases: map[string]string{},
		traps:   map[string]string{},
		dir:     cfg.Dir,
		fds:     newFdTable(),
		arg0:    "bash",
		jobs:    &jobTable{},
		started: cfg.Now(),
		hashes:  map[string]string{},
		pending: newPendingSignals(),
		rand:    uint32(cfg.Seed),
		umask:   0o022,
		limits:  defaultRlimits(cfg.ProcessLimits),
	}
	sh.top = r.pending
	r.pid = cfg.Pid
	if r.pid == 0 {
		r.pid = sh.pidFn()
	}
	r.bashpid = r.pid
	r.ppid = cfg.PPid
	r.opts = defaultOptions()
	for _, kv := range cfg.Env {
		k, v, ok := strings.Cut(kv, "=")
		if ok && r.importFunc(k, v) {
			continue
		}
		if !ok || !validName(k) {
			continue
		}
		r.vars.global().vars[k] = &Var{Attr: AttrExport, Set: true, Str: v}
	}
	r.initVars()
	return r, nil
}

// initVars sets the variables bash itself sets at start.
func (r *Interp) initVars() {
	g := r.vars.global().vars
	setIfUnset := func(name, val string) {
		if _, ok := g[name]; !ok {
			g[name] = &Var{Set: true, Str: val}
		}
	}
	lvl := 1
	if v, ok := g["SHLVL"]; ok {
		if n, err := strconv.Atoi(v.Str); err == nil {
			lvl = n + 1
		}
	}
	g["SHLVL"] = &Var{Attr: AttrExport, Set: true, Str: strconv.Itoa(lvl)}
	g["PWD"] = &Var{Attr: AttrExport, Set: true, Str: r.dir}
	setIfUnset("IFS", " \t\n")
	// A non-interactive bash sets neither PS1 nor PS2.
	setIfUnset("PS4", "+ ")
	setIfUnset("OPTIND", "1")
	setIfUnset("HOSTNAME", "wasmsand")
	setIfUnset("HOSTTYPE", "wasm32")
	setIfUnset("OSTYPE", "linux-gnu")
	setIfUnset("MACHTYPE", "wasm32-wasmsand-linux-gnu")
	g["BASH_VERSION"] = &Var{Set: true, Str: bashVersion}
	g["BASH_VERSINFO"] = &Var{Attr: AttrIndexed | AttrReadonly, Set: true, Index: &IndexedArray{Elems: []IndexedElem{
		{0, "5"}, {1, "2"}, {2, "15"}, {3, "1"}, {4, "release"}, {5, "wasm32-wasmsand-linux-gnu"}}}}
	g["BASH"] = &Var{Set: true, Str: "/bin/bash"}
	// UID and EUID are the shell's own readonly integers, not exported;
	// bash leaves values from the environment as they came.
	for _, name := range []string{"UID", "EUID"} {
		if _, ok := g[name]; !ok {
			g[name] = &Var{Attr: AttrInteger | AttrReadonly, Set: true, Str: "1000"}
		}
	}
	g["PPID"] = &Var{Attr: AttrReadonly, Set: true, Str: strconv.Itoa(r.ppid)}
	g["GROUPS"] = &Var{Attr: AttrIndexed, Set: true, Index: &IndexedArray{Elems: []IndexedElem{{0, "1000"}}}}
}

const bashVersion = "5.2.15(1)-release"

// SetStdio sets fds 0, 1 and 2 of the shell. A nil stream reads EOF or
// discards.
func (r *Interp) SetStdio(stdin io.Reader, stdout, stderr io.Writer) {
	r.fds.set(0, newStreamFd(stdin, nil))
	r.fds.set(1, newStreamFd(nil, stdout))
	r.fds.set(2, newStreamFd(nil, stderr))
}

// SetExtraFds gives a new shell the open fds above 2 that it inherits
// from the shell starting it (Stdio.Extra), as a child bash inherits its
// parent's open fds. They stay the starter's to close.
func (r *Interp) SetExtraFds(extra map[int]*vfs.File) {
	for fd, f := range extra {
		d := newVfsFd(f)
		d.borrowed = true
		r.fds.set(fd, d)
	}
}

// SetIgnoredSignals makes a new shell start with the signals names
// (without SIG) ignored, as a program inherits ignored signals: bash
// neither traps nor resets them, and trap lists them as ”.
func (r *Interp) SetIgnoredSignals(names []string) {
	for _, n := range names {
		name, num, ok := parseSignal(n, false)
		if !ok || num <= 0 {
			continue
		}
		if r.hardIgnored == nil {
			r.hardIgnored = map[string]bool{}
		}
		r.hardIgnored[name] = true
		r.traps[name] = ""
	}
	r.syncTraps()
}

// ignoredSignals are the signals this shell ignores, for a program it
// starts (Process.Ignored).
func (r *Interp) ignoredSignals() []string {
	var out []string
	for name, cmd := range r.traps {
		if _, n, ok := parseSignal(name, false); ok && n > 0 && cmd == "" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// SetUmask sets the file mode creation mask (022 in a new Interp), as a
// child shell inherits it.
func (r *Interp) SetUmask(mask uint32) { r.umask = mask & 0o777 }

// Dir is the working directory.
func (r *Interp) Dir() string { return r.dir }

// Pid returns the shell's process id, $$.
func (r *Interp) Pid() int { return r.pid }

// Exited reports whether the shell ran `exit` (or ended on a fatal
// error): a REPL then stops.
func (r *Interp) Exited() bool { return r.exited }

// Status is $?.
func (r *Interp) Status() int { return r.status }

// Var returns the value of a variable as $name gives it. A reference
// to an array element whose subscript would run expansions (x[$(cmd)])
// reads as unset: the host's read runs nothing and reports nothing.
func (r *Interp) Var(name string) (val string, ok bool) {
	if _, sub, viaRef := r.vars.resolve(name); viaRef && strings.ContainsAny(sub, "$`") {
		return "", false
	}
	defer func() {
		if e := recover(); e != nil {
			if _, isExit := e.(*exitError); !isExit {
				panic(e)
			}
			val, ok = "", false
		}
	}()
	return r.getScalar(name)
}

// SetVar assigns a variable in the global scope, exporting it if export.
func (r *Interp) SetVar(name, value string, export bool) error {
	if !validName(name) {
		return fmt.Errorf("shell: %q is not a valid variable name", name)
	}
	if err := r.assign(name, value, false); err != nil {
		return err
	}
	if export {
		if v := r.vars.get(name); v != nil {
			v.Attr |= AttrExport
		}
	}
	return nil
}

// UnsetVar removes a variable.
func (r *Interp) UnsetVar(name string) { r.unsetVar(name) }

// VarNames lists the names of the shell's variables.
func (r *Interp) VarNames() []string { return r.vars.names() }

// Environ lists the exported variables as KEY=VALUE, as a program the
// shell starts would get them.
func (r *Interp) Environ() []string { return r.environ() }

// Funcs lists the names of the shell's functions.
func (r *Interp) Funcs() []string {
	out := make([]string, 0, len(r.funcs))
	for k := range r.funcs {
		out = append(out, k)
	}
	return out
}

// IsFunc reports whether name is a function of the shell.
func (r *Interp) IsFunc(name string) bool { _, ok := r.funcs[name]; return ok }

// Cd changes the working directory as `cd` does.
func (r *Interp) Cd(dir string) error {
	abs := r.absPath(dir)
	st, err := r.sh.cfg.FS.Stat(vfs.RootIno, abs, true)
	if err != nil {
		return err
	}
	if st.Type != vfs.TypeDir {
		return fmt.Errorf("%s: not a directory", dir)
	}
	r.setDir(abs)
	return nil
}

func (r *Interp) setDir(abs string) {
	old := r.dir
	r.dir = abs
	r.setVarQuiet("OLDPWD", old)
	r.setVarQuiet("PWD", abs)
}

// setVarQuiet assigns ignoring readonly and type attributes; for the
// shell's own bookkeeping variables.
func (r *Interp) setVarQuiet(name, value string) {
	v, _ := r.vars.lookup(name)
	if v == nil {
		r.vars.global().vars[name] = &Var{Set: true, Str: value}
		return
	}
	if v.IsArray() {
		v.Attr &^= AttrIndexed | AttrAssoc
		v.Index, v.Assoc = nil, nil
	}
	v.Set, v.Str = true, value
}

// subshell returns a copy of r for a subshell, pipeline stage or job:
// everything is copied, the file descriptors are shared by reference.
func (r *Interp) subshell() *Interp {
	c := *r
	c.vars = r.vars.clone()
	c.funcs = make(map[string]*Func, len(r.funcs))
	for k, v := range r.funcs {
		c.funcs[k] = v
	}
	c.aliases = make(map[string]string, len(r.aliases))
	for k, v := range r.aliases {
		c.aliases[k] = v
	}
	c.traps = map[string]string{}
	for k, v := range r.traps {
		// bash resets traps in subshells, but keeps ignored ones, and
		// keeps ERR/DEBUG/RETURN only with -E/-T; EXIT is reset.
		if v == "" || (k == "ERR" && r.opts.errtrace) || ((k == "DEBUG" || k == "RETURN") && r.opts.functrace) {
			c.traps[k] = v
		}
	}
	c.hardIgnored = maps.Clone(r.hardIgnored)
	c.dirStack = append([]string(nil), r.dirStack...)
	c.dirStackUsed = r.dirStackUsed
	c.params = append([]string(nil), r.params...)
	c.fds = r.fds.clone()
	c.jobs = r.jobs.inherit()
	c.hashes = map[string]string{}
	for k, v := range r.hashes {
		c.hashes[k] = v
	}
	c.hashMeta = maps.Clone(r.hashMeta)
	c.frames = append([]frame(nil), r.frames...)
	c.pipeStatus = append([]int(nil), r.pipeStatus...)
	c.bashpid = r.sh.pidFn()
	c.subDepth = r.subDepth + 1
	c.isSubshell = true
	c.slotFree = true
	c.pending = newPendingSignals()
	c.syncTraps()
	c.shownTraps = nil
	c.arith = arithStack{}
	c.exiting, c.returning, c.exited = false, false, false
	return &c
}

// now is the sandbox clock.
func (r *Interp) now() time.Time { return r.sh.cfg.Now() }

// fs is the sandbox VFS.
func (r *Interp) fs() *vfs.FS { return r.sh.cfg.FS }
