package shell

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// callExpr runs a simple command: assignments, words, redirections.
func (r *Interp) callExpr(c *syntax.CallExpr, redirs []*syntax.Redirect) {
	if len(c.Args) > 0 && r.opts.expandAliases && len(r.aliases) > 0 && (r.source == nil || !r.source.aliasesDone) {
		if r.expandAlias(c, redirs) {
			return
		}
	}
	if r.opts.keyword {
		c = keywordAssigns(c)
	}
	if r.inTrap == "" {
		// In a trap, $BASH_COMMAND stays the command trapped.
		r.curCmd = r.curText(c)
	}
	if words, ok := bareExec(c); ok {
		// exec with redirections only (command exec too): they apply to
		// the shell itself.
		if r.opts.xtrace {
			r.xtraceCall(nil, words)
		}
		r.execRedirsPersist(redirs)
		return
	}
	r.substStatus = -1
	args := r.expandWords(c.Args)
	if r.exiting {
		return
	}
	if len(args) == 0 {
		// Assignments only: they persist in the shell; redirections are
		// performed (in a temporary fd table) but affect nothing. $? in
		// the values is still the previous command's; the status is the
		// last command substitution's, or 0.
		r.withRedirs(redirs, func() {
			for _, as := range c.Assigns {
				if !r.assignNode(as, false) {
					r.status = 1
					panic(errDiscard)
				}
			}
			r.status = 0
			if r.substStatus >= 0 {
				r.status = r.substStatus
			}
		})
		if len(c.Args) > 0 {
			r.lastArg = ""
		}
		return
	}
	r.lastArg = args[len(args)-1]
	name := args[0]

	// The redirections are expanded first: the assignments before the
	// command are not seen by them (a=2 echo >&$a uses the shell's a).
	r.withRedirs(redirs, func() {
		// Assignments before a command: for a special builtin or a
		// function they persist (bash, outside posix mode, keeps them
		// for special builtins only); otherwise they are temporary.
		var restore func()
		if len(c.Assigns) > 0 {
			if restore = r.tempAssigns(c.Assigns, name); restore == nil {
				r.status = 1
				return
			}
		}
		if r.opts.xtrace {
			r.xtraceCall(c.Assigns, args)
		}
		r.run(args)
		if restore != nil {
			restore()
		}
	})
}

// bareExec reports whether c is exec without arguments or assignments,
// after any number of command words, and returns its words.
func bareExec(c *syntax.CallExpr) ([]string, bool) {
	if len(c.Assigns) > 0 || len(c.Args) == 0 || c.Args[len(c.Args)-1].Lit() != "exec" {
		return nil, false
	}
	words := make([]string, len(c.Args))
	for i, w := range c.Args {
		words[i] = w.Lit()
		if i < len(c.Args)-1 && words[i] != "command" {
			return nil, false
		}
	}
	return words, true
}

// run runs a command by name: function, builtin or program.
func (r *Interp) run(args []string) {
	name := args[0]
	if f, ok := r.funcs[name]; ok {
		r.callFunc(f, args)
		return
	}
	if b, ok := builtins[name]; ok && r.builtinEnabled(name) {
		r.status = b(r, args)
		return
	}
	r.runProgram(args)
}

// runProgram runs an external command found on $PATH or by its path.
func (r *Interp) runProgram(args []string) {
	r.runProgramWith(args, "", false)
}

// runProgramWith is runProgram with the program's argv[0] set to argv0
// unless that is "" (exec -a), and with an empty environment if clearEnv
// is set (exec -c).
func (r *Interp) runProgramWith(args []string, argv0 string, clearEnv bool) {
	name := args[0]
	if r.opts.restricted && strings.Contains(name, "/") {
		r.errorf("%s: restricted: cannot specify `/' in command names", name)
		r.status = 1
		return
	}
	if r.commandNotFoundHandle(args) {
		return
	}
	p, status := r.findProgram(name)
	if status != 0 {
		r.status = status
		return
	}
	if r.isELF(p) {
		// bash will not run a binary it cannot exec as a script.
		r.errorf("%s: cannot execute binary file: Exec format error", name)
		r.status = 126
		return
	}
	if argv0 != "" {
		args = append([]string{argv0}, args[1:]...)
	}
	env := []string{}
	if !clearEnv {
		env = r.environ()
		if r.oneShot && !r.isSubshell && r.funcDepth == 0 {
			env = oneShotEnv(env)
		}
	}
	proc := &Process{Path: p, Args: args, Env: env, Dir: r.dir, Stdio: r.stdioFor(), Umask: r.umask, SlotHeld: r.slotFree, PPid: r.bashpid, Ignored: r.ignoredSignals()}
	if r.slotFree {
		proc.Pid, proc.PPid = r.bashpid, r.pid
	}
	r.slotFree = false
	r.status = r.sh.cfg.Host.Exec(r.ctx, proc)
	if ctxDone(r.ctx) {
		panic(&exitError{status: 124, fatal: true})
	}
}

// findProgram finds name like bash and reports "command not found" and
// friends itself: a non-zero status means it did.
func (r *Interp) findProgram(name string) (string, int) {
	if strings.Contains(name, "/") {
		p := r.absPath(name)
		if err := r.checkExec(p); err != nil {
			r.errorf("%s: %s", name, errnoText(err))
			if isNotExist(err) {
				return "", 127
			}
			return "", 126
		}
		return p, 0
	}
	if p, ok := r.hashes[name]; ok {
		if r.checkExec(p) == nil {
			r.hashHit(name)
			return p, 0
		}
		delete(r.hashes, name)
	}
	p, err := r.lookPath(name)
	if err != nil {
		switch {
		case r.sh.cfg.NotFoundHint != "":
			r.errorf("%s: command not found (%s)", name, r.sh.cfg.NotFoundHint)
		case r.opts.posix:
			r.errorf("%s: not found", name)
		default:
			r.errorf("%s: command not found", name)
		}
		return "", 127
	}
	r.hashSet(name, p, 1)
	return p, 0
}

// lookPath searches $PATH in the VFS for an executable regular file.
func (r *Interp) lookPath(name string) (string, error) {
	pathVar, _ := r.getScalar("PATH")
	var firstErr error
	for _, d := range strings.Split(pathVar, ":") {
		if d == "" {
			d = "."
		}
		p := r.absPath(path.Join(d, name))
		err := r.checkExec(p)
		if err == nil {
			return p, nil
		}
		if firstErr == nil && !isNotExist(err) {
			firstErr = err
		}
	}
	if firstErr != nil {
		return "", firstErr
	}
	return "", vfs.ENOENT
}

// checkExec reports whether p is an executable file.
func (r *Interp) checkExec(p string) error {
	st, err := r.fs().Stat(vfs.RootIno, p, true)
	if err != nil {
		return err
	}
	if st.Type == vfs.TypeDir {
		return errIsDirectory
	}
	if st.Mode&0o111 == 0 {
		return vfs.EACCES
	}
	return nil
}

// absPath makes p absolute against the working directory and cleans it.
func (r *Interp) absPath(p string) string {
	if !path.IsAbs(p) {
		p = path.Join(r.dir, p)
	}
	return path.Clean(p)
}

// environ lists the exported variables for a program, PWD current.
func (r *Interp) environ() []string {
	var out []string
	scopes := r.vars.scopes
	for i := len(scopes) - 1; i >= 0; i-- {
	vars:
		for k, v := range scopes[i].vars {
			if v.Attr&AttrExport == 0 || v.IsArray() || !v.Set || v.Attr&AttrNameref != 0 {
				continue
			}
			// An inner scope's k hides this one (most commands run with
			// the global scope alone), unless it has no value yet
			// (local k).
			for _, inner := range scopes[i+1:] {
				if iv, ok := inner.vars[k]; ok && (iv.Set || iv.IsArray()) {
					continue vars
				}
			}
			out = append(out, k+"="+v.Str)
		}
	}
	out = append(out, r.exportedFuncs()...)
	sort.Strings(out) // deterministic for guests (and their fuel)
	return out
}

// tempAssigns applies the assignments before a command and returns what
// undoes them (nil after an error). Assignments before special builtins
// persist, as bash does.
func (r *Interp) tempAssigns(list []*syntax.Assign, name string) func() {
	_, isFunc := r.funcs[name]
	persist := isPosixSpecialBuiltin(name) && !isFunc && r.opts.posix
	if persist {
		for _, as := range list {
			if !r.assignNode(as, false) {
				return nil
			}
			// they stay exported, as in the command's environment
			if v := r.vars.get(as.Name.Value); v != nil {
				v.Attr |= AttrExport
			}
		}
		return func() {}
	}
	// Temporary: a new scope holding exported copies.
	sc := &scope{vars: map[string]*Var{}, fn: r.vars.top().fn, temp: true}
	r.vars.scopes = append(r.vars.scopes, sc)
	for _, as := range list {
		val := ""
		if as.Value != nil {
			val = r.expandString(as.Value)
		}
		nm := as.Name.Value
		r.xtraceAssign(r.assignLHS(as), val)
		if v := r.vars.get(nm); v != nil && v.Attr&AttrReadonly != 0 {
			// bash reports it and runs the command without it.
			r.errorf("%s: readonly variable", nm)
			continue
		}
		if as.Append {
			old, _ := r.getScalar(nm)
			val = old + val
		}
		attr := Attr(AttrExport)
		if v := r.vars.get(nm); v != nil {
			attr |= v.Attr &^ (AttrIndexed | AttrAssoc | AttrNameref | AttrReadonly)
		}
		sc.vars[nm] = &Var{Attr: attr, Set: true, Str: r.applyCase(attr, val)}
	}
	return func() {
		// Pop the temporary scope wherever it is now (a function may
		// have pushed and popped its own meanwhile).
		for i := len(r.vars.scopes) - 1; i >= 0; i-- {
			if r.vars.scopes[i] == sc {
				r.vars.scopes = append(r.vars.scopes[:i], r.vars.scopes[i+1:]...)
				return
			}
		}
	}
}

// expandAlias runs c with its first word replaced by the alias it names,
// reparsing the command's source as bash's parser would see it. It
// reports whether it ran c.
func (r *Interp) expandAlias(c *syntax.CallExpr, redirs []*syntax.Redirect) bool {
	if len(c.Assigns) > 0 || r.source == nil {
		return false
	}
	first := c.Args[0]
	lit := first.Lit()
	if lit == "" || len(first.Parts) != 1 {
		return false
	}
	val, ok := r.aliases[lit]
	if !ok {
		return false
	}
	text := r.source.text
	start, end := int(first.Pos().Offset()), int(c.End().Offset())
	if start < 0 || end > len(text) || start >= end {
		return false
	}
	rest := text[first.End().Offset():end]
	if r.aliasDepth >= 16 {
		return false
	}
	src := val + rest
	// Redirections on the statement stay with it.
	r.aliasDepth++
	defer func() { r.aliasDepth-- }()
	saved := r.aliases[lit]
	delete(r.aliases, lit) // an alias is not expanded inside itself
	defer func() { r.aliases[lit] = saved }()
	r.withRedirs(redirs, func() { r.evalString(src, r.source.name) })
	return true
}

// hashMeta is what bash keeps with a remembered command path: how often
// it was found there and when it was added. Interp.hashMeta is nil until
// the table first holds a name.
type hashMeta struct {
	hits int
	seq  uint64
}

// hashSet remembers path for the command name, found hits times.
func (r *Interp) hashSet(name, path string, hits int) {
	r.hashes[name] = path
	if r.hashMeta == nil {
		r.hashMeta = map[string]hashMeta{}
	}
	r.hashSeq++
	r.hashMeta[name] = hashMeta{hits: hits, seq: r.hashSeq}
}

// hashHit counts a lookup of name that the table answered.
func (r *Interp) hashHit(name string) {
	if m, ok := r.hashMeta[name]; ok {
		m.hits++
		r.hashMeta[name] = m
	}
}

// hashOrder is the names of the hash table in the order bash lists them:
// by bucket of its string hash (FNV-1, 256 buckets), the newest first
// within a bucket.
func (r *Interp) hashOrder() []string {
	bucket := func(s string) uint32 {
		h := uint32(2166136261)
		for i := 0; i < len(s); i++ {
			h *= 16777619
			h ^= uint32(s[i])
		}
		return h & 255
	}
	keys := slices.Collect(maps.Keys(r.hashes))
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(bucket(a), bucket(b)); c != 0 {
			return c
		}
		return cmp.Compare(r.hashMeta[b].seq, r.hashMeta[a].seq)
	})
	return keys
}
