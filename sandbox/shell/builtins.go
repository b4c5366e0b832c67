package shell

import (
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/wasmsand/wasmsand/sandbox/bashprintf"
	"github.com/wasmsand/wasmsand/sandbox/filemode"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// builtinFunc runs a builtin with its arguments (args[0] is its name)
// and returns its exit status.
type builtinFunc func(r *Interp, args []string) int

var builtins map[string]builtinFunc

func init() {
	builtins = map[string]builtinFunc{
		":": func(*Interp, []string) int { return 0 }, "true": func(*Interp, []string) int { return 0 },
		"false": func(*Interp, []string) int { return 1 },
		"echo":  builtinEcho, "printf": builtinPrintf, "cd": builtinCd, "pwd": builtinPwd,
		"pushd": builtinPushd, "popd": builtinPopd, "dirs": builtinDirs,
		"export": builtinDeclare, "readonly": builtinDeclare, "declare": builtinDeclare,
		"typeset": builtinDeclare, "local": builtinDeclare, "unset": builtinUnset,
		"set": builtinSet, "shopt": builtinShopt, "shift": builtinShift, "exit": builtinExit,
		"return": builtinReturn, "break": builtinBreak, "continue": builtinBreak,
		"eval": builtinEval, "source": builtinSource, ".": builtinSource, "exec": builtinExec,
		"command": builtinCommand, "type": builtinType, "hash": builtinHash, "alias": builtinAlias,
		"unalias": builtinUnalias, "trap": builtinTrap, "kill": builtinKill, "wait": builtinWait,
		"jobs": builtinJobs, "disown": builtinDisown, "let": builtinLet, "test": builtinTest,
		"[": builtinTest, "getopts": builtinGetopts, "umask": builtinUmask, "times": builtinTimes,
		"caller": builtinCaller, "compgen": builtinCompgen, "complete": builtinComplete,
		"compopt": builtinComplete, "enable": builtinEnable, "help": builtinHelp,
		"builtin": builtinBuiltin, "read": builtinRead, "mapfile": builtinMapfile,
		"readarray": builtinMapfile, "ulimit": builtinUlimit, "fg": builtinFgBg, "bg": builtinFgBg,
		"suspend": builtinFgBg, "logout": builtinLogout,
		"fc": builtinFc, "bind": builtinBind, "history": builtinHistory,
	}
}

// isPosixSpecialBuiltin reports POSIX's special builtins.
func isPosixSpecialBuiltin(name string) bool {
	switch name {
	case "break", ":", ".", "continue", "eval", "exec", "exit", "export", "readonly", "return",
		"set", "shift", "times", "trap", "unset", "source":
		return true
	}
	return false
}

// IsBuiltin reports whether name is a builtin of the shell.
func IsBuiltin(name string) bool { _, ok := builtins[name]; return ok }

func (r *Interp) builtinEnabled(name string) bool { return !r.disabled[name] }

// writeOut writes s to stdout, reporting a write error as bash does.
func (r *Interp) writeOut(name, s string) int {
	return r.writeStdout(name, s, true)
}

// writeOutUnchecked writes s to stdout as the builtins that never check
// their writes do (help with no operands): a failed write is silent and
// leaves the status 0, though a broken pipe still ends the shell.
func (r *Interp) writeOutUnchecked(s string) int {
	if st := r.writeStdout("", s, false); st == 141 {
		return st
	}
	return 0
}

// writeStdout writes s to stdout; report says whether a write error is
// printed as "NAME: write error: ...".
func (r *Interp) writeStdout(name, s string, report bool) int {
	if s == "" {
		return 0
	}
	d := r.fds.get(1)
	if d == nil {
		if report {
			r.errorf("%s: write error: Bad file descriptor", name)
		}
		return 1
	}
	if _, err := d.write(r.ctx, []byte(s)); err != nil {
		if errors.Is(err, vfs.EPIPE) || errors.Is(err, io.ErrClosedPipe) {
			r.brokenPipe = true
			r.exiting = true
			r.status = 141
			return 141
		}
		if ctxDone(r.ctx) {
			panic(&exitError{status: 124, fatal: true})
		}
		if report {
			r.errorf("%s: write error: %s", name, errnoText(err))
		}
		return 1
	}
	return 0
}

// builtinErr prints "NAME: MSG" after the shell's prefix.
func (r *Interp) builtinErr(name, format string, args ...any) {
	r.errorf("%s: %s", name, fmt.Sprintf(format, args...))
}

func builtinEcho(r *Interp, args []string) int {
	var o bashprintf.Options
	return r.writeOut("echo", o.Echo(args[1:], r.opts.xpgEcho, false))
}

func builtinPrintf(r *Interp, args []string) int {
	loc := time.UTC
	if tz, ok := r.getScalar("TZ"); ok && tz != "" {
		if l, err := time.LoadLocation(tz); err == nil {
			loc = l
		}
	}
	lang, _ := r.getScalar("LC_ALL")
	if lang == "" {
		lang, _ = r.getScalar("LANG")
	}
	opts := bashprintf.Options{
		Now: r.now, Start: r.started, Location: loc,
		UTF8:      strings.Contains(strings.ToLower(lang), "utf"),
		MaxOutput: r.sh.cfg.Limits.MaxStringBytes,
		Assign:    func(name, value string) { r.assignChecked(name, value) },
	}
	out, errs, status, varName := opts.Command(args[1:])
	for _, e := range errs {
		if strings.HasPrefix(e, "printf: usage:") {
			r.writeErr(e + "\n")
		} else {
			r.errorf("%s", e)
		}
	}
	if varName != "" {
		if r.badNamerefValue("printf", varName, out) || !r.assignChecked(varName, out) {
			return 1
		}
		return status
	}
	if st := r.writeOut("printf", out); st != 0 {
		return st
	}
	return status
}

// --- directories -----------------------------------------------------

func builtinCd(r *Interp, args []string) int {
	name := args[0] // pushd and popd report cd's errors as their own
	if r.opts.restricted {
		r.restrictedErr(name, "")
		return 1
	}
	physical := r.opts.physical
	args = args[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0] != "-" {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'P':
				physical = true
			case 'L':
				physical = false
			case 'e', '@':
			default:
				r.builtinErr(name, "-%c: invalid option", c)
				r.writeErr("cd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n")
				return 2
			}
		}
		args = args[1:]
	}
	if len(args) > 1 {
		r.builtinErr(name, "too many arguments")
		return 1
	}
	var dir string
	printDir := false
	if len(args) == 0 {
		h, ok := r.getScalar("HOME")
		if !ok {
			r.builtinErr(name, "HOME not set")
			return 1
		}
		dir = h
		if dir == "" {
			return 0
		}
	} else {
		dir = args[0]
		if dir == "-" {
			old, ok := r.getScalar("OLDPWD")
			if !ok || old == "" {
				r.builtinErr(name, "OLDPWD not set")
				return 1
			}
			dir = old
			printDir = true
		}
	}
	target := ""
	if !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "./") && !strings.HasPrefix(dir, "../") && dir != "." && dir != ".." {
		if cdpath, ok := r.getScalar("CDPATH"); ok && cdpath != "" {
			for _, p := range strings.Split(cdpath, ":") {
				named := p != "" // a named entry, even ".", prints the result
				if p == "" {
					p = "."
				}
				cand := r.absPath(path.Join(p, dir))
				if st, err := r.fs().Stat(vfs.RootIno, cand, true); err == nil && st.Type == vfs.TypeDir {
					target = cand
					if named {
						printDir = true
					}
					break
				}
			}
		}
	}
	if target == "" {
		target = r.absPath(dir)
	}
	st, err := r.fs().Stat(vfs.RootIno, target, true)
	if err != nil {
		r.builtinErr(name, "%s: %s", dir, errnoText(err))
		return 1
	}
	if st.Type != vfs.TypeDir {
		r.builtinErr(name, "%s: Not a directory", dir)
		return 1
	}
	if physical {
		// -P resolves symlinks before "..": link/.. is link's parent.
		if target == r.absPath(dir) { // not found through CDPATH
			target = dir
			if !path.IsAbs(dir) {
				target = r.dir + "/" + dir
			}
		}
		target = r.realPath(target)
	} else if strings.HasPrefix(dir, "//") && !strings.HasPrefix(dir, "///") {
		// POSIX leaves a leading "//" alone, and so does bash.
		target = "/" + target
	}
	r.setDir(target)
	if printDir {
		r.writeOut(name, target+"\n")
	}
	return 0
}

// realPath resolves every symlink in an absolute path.
func (r *Interp) realPath(p string) string {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	cur := "/"
	for i := 0; i < len(parts); i++ {
		part := parts[i]
		if part == "" || part == "." {
			continue
		}
		if part == ".." {
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, part)
		target, err := r.fs().Readlink(vfs.RootIno, next)
		if err == nil {
			if !path.IsAbs(target) {
				target = path.Join(cur, target)
			}
			rest := append(strings.Split(strings.Trim(target, "/"), "/"), parts[i+1:]...)
			parts, i, cur = rest, -1, "/"
			continue
		}
		cur = next
	}
	return cur
}

func builtinPwd(r *Interp, args []string) int {
	physical := false
	for _, a := range args[1:] {
		switch a {
		case "-P":
			physical = true
		case "-L":
			physical = false
		default:
			if strings.HasPrefix(a, "-") {
				r.builtinErr("pwd", "%s: invalid option", a)
				r.writeErr("pwd: usage: pwd [-LP]\n")
				return 2
			}
		}
	}
	d := r.dir
	if physical {
		d = r.realPath(d)
	}
	return r.writeOut("pwd", d+"\n")
}

// --- control ---------------------------------------------------------

func builtinShift(r *Interp, args []string) int {
	n := 1
	if len(args) > 1 {
		v, err := strconv.Atoi(args[1])
		if err != nil {
			r.builtinErr("shift", "%s: numeric argument required", args[1])
			return 1
		}
		if v < 0 {
			r.builtinErr("shift", "%s: shift count out of range", args[1])
			return 1
		}
		n = v
	}
	if n > len(r.params) {
		if r.opts.shiftVerbose {
			r.builtinErr("shift", "%d: shift count out of range", n)
		}
		return 1
	}
	r.params = r.params[n:]
	return 0
}

func builtinExit(r *Interp, args []string) int {
	status := r.status
	if len(args) > 1 {
		v, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil {
			r.builtinErr(args[0], "%s: numeric argument required", args[1])
			status = 2
		} else {
			status = int(uint8(v))
		}
		if len(args) > 2 && err == nil {
			r.builtinErr(args[0], "too many arguments")
			return 1
		}
	}
	r.exiting = true
	if !r.isSubshell {
		r.exited = true
	}
	return status
}

func builtinReturn(r *Interp, args []string) int {
	if r.funcDepth == 0 && r.sourceDepth == 0 {
		r.builtinErr("return", "can only `return' from a function or sourced script")
		return 2
	}
	status := r.status
	if len(args) > 1 {
		v, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil {
			r.builtinErr("return", "%s: numeric argument required", args[1])
			status = 2
		} else {
			status = int(uint8(v))
		}
	}
	r.returning = true
	return status
}

func builtinBreak(r *Interp, args []string) int {
	n := 1
	if len(args) > 1 {
		v, err := strconv.Atoi(args[1])
		if err != nil {
			r.builtinErr(args[0], "%s: numeric argument required", args[1])
			return 1
		}
		if v < 1 {
			r.builtinErr(args[0], "%s: loop count out of range", args[1])
			return 1
		}
		n = v
	}
	if r.loopDepth == 0 {
		r.builtinErr(args[0], "only meaningful in a `for', `while', or `until' loop")
		return 0
	}
	n = min(n, r.loopDepth)
	if args[0] == "break" {
		r.brk = n
	} else {
		r.cont = n
	}
	return 0
}

func builtinEval(r *Interp, args []string) int {
	src := strings.Join(args[1:], " ")
	if strings.TrimSpace(src) == "" {
		return 0
	}
	extra := 0
	if r.inTrap == "" {
		extra = strings.Count(r.curCmd, "\n")
	}
	r.nestedEval(func() { r.evalStringAt(src, r.sourceName(), extra) })
	return r.status
}

// readSourceFile reads the file . runs: a regular file, or any other
// readable one (/dev/null, a FIFO, /dev/stdin, a process substitution),
// read to its end, at most the output limit.
func (r *Interp) readSourceFile(p string) ([]byte, error) {
	limit := int64(r.sh.cfg.Limits.MaxStringBytes)
	if limit <= 0 {
		limit = 1 << 30
	}
	if d := r.devFd(p); d != nil {
		var buf []byte
		chunk := make([]byte, 32<<10)
		for int64(len(buf)) <= limit {
			n, err := d.read(r.ctx, chunk)
			buf = append(buf, chunk[:n]...)
			if err != nil || n == 0 {
				if err != nil && err != io.EOF {
					return nil, err
				}
				return buf, nil
			}
		}
		return buf, nil
	}
	if st, err := r.fs().Stat(vfs.RootIno, p, true); err == nil && st.Type == vfs.TypeRegular {
		return r.fs().ReadFile(p)
	}
	f, err := r.fs().Open(vfs.RootIno, p, vfs.ORead, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

func builtinSource(r *Interp, args []string) int {
	if len(args) < 2 {
		r.builtinErr(args[0], "filename argument required")
		r.writeErr(args[0] + ": usage: " + args[0] + " filename [arguments]\n")
		return 2
	}
	name := args[1]
	if r.restrictedSlash(args[0], name) {
		return 1
	}
	p := ""
	if !strings.Contains(name, "/") && r.opts.sourcepath {
		if pathVar, ok := r.getScalar("PATH"); ok {
			for _, d := range strings.Split(pathVar, ":") {
				cand := r.absPath(path.Join(d, name))
				if st, err := r.fs().Stat(vfs.RootIno, cand, true); err == nil && st.Type == vfs.TypeRegular {
					p = cand
					break
				}
			}
		}
	}
	// a file error ends a POSIX shell, unless command runs .
	posixExit := func() int {
		if r.opts.posix && r.commandBuiltin == 0 {
			r.status = 1
			r.exiting = true
			r.exited = !r.isSubshell
		}
		return 1
	}
	if p == "" && r.opts.posix && !strings.Contains(name, "/") {
		// POSIX's . does not look in the working directory
		r.builtinErr(args[0], "%s: file not found", name)
		return posixExit()
	}
	if p == "" {
		p = r.absPath(name)
	}
	if st, err := r.fs().Stat(vfs.RootIno, p, true); err == nil && st.Type == vfs.TypeDir {
		r.builtinErr(args[0], "%s: is a directory", name)
		return 1
	}
	b, err := r.readSourceFile(p)
	if err != nil {
		r.errorf("%s: %s", name, errnoText(err))
		return posixExit()
	}
	if r.depth >= r.sh.cfg.Limits.MaxDepth {
		r.fail(1, "%s: maximum source nesting level exceeded (%d)", name, r.sh.cfg.Limits.MaxDepth)
	}
	savedParams := r.params
	var mine []string
	if len(args) > 2 {
		r.params = append([]string(nil), args[2:]...)
		mine = r.params
	}
	r.depth++
	r.sourceDepth++
	r.frames = append(r.frames, frame{fn: "source", source: name, line: r.lineno})
	line := r.lineno
	r.status = 0
	// the sourced file sees the DEBUG trap only with set -T
	debug, hideDebug := r.traps["DEBUG"]
	hideDebug = hideDebug && debug != "" && !r.opts.functrace
	if hideDebug {
		delete(r.traps, "DEBUG")
	}
	r.nestedEval(func() { r.runSourceNested(string(b), name) })
	if _, set := r.traps["DEBUG"]; hideDebug && !set {
		r.traps["DEBUG"] = debug
	}
	r.frames = r.frames[:len(r.frames)-1]
	r.sourceDepth--
	r.depth--
	r.lineno = line
	if cmd, ok := r.traps["RETURN"]; ok && cmd != "" && r.inTrap != "RETURN" && !r.exiting {
		// the RETURN trap runs when a sourced file ends too
		status, returning := r.status, r.returning
		r.returning = false
		r.runTrap("RETURN", cmd)
		r.status, r.returning = status, returning
		r.lineno = line
	}
	if r.returning {
		r.returning = false
	}
	// The arguments give way to the caller's positional parameters
	// again, unless the file changed them (set --, shift).
	if len(args) > 2 && len(r.params) == len(mine) && len(mine) > 0 && &r.params[0] == &mine[0] {
		r.params = savedParams
	}
	return r.status
}

// runSourceNested runs a sourced file in the current shell.
func (r *Interp) runSourceNested(src, name string) {
	file := &sourceFile{name: name, text: src}
	saved := r.source
	r.source = file
	defer func() { r.source = saved }()
	ptext, rep := parseText(src)
	file.setRepairs(rep)
	err := parseEach(ptext, func(st *syntax.Stmt) bool {
		rep.apply(st)
		r.hdocWarn(file, st)
		if r.skipSynErr(file, st) {
			return true
		}
		r.stmt(st)
		return !r.exiting && !r.returning
	})
	if err != nil && !r.exiting && !r.returning {
		var pe syntax.ParseError
		msg := err.Error()
		line := r.lineno
		if asParseError(err, &pe) {
			msg, line = pe.Text, int(pe.Pos.Line())
		}
		_ = msg
		r.writeErr(bashSyntaxError(err, src, name+": ", 0, line))
		r.status = 2
	}
}

func asParseError(err error, pe *syntax.ParseError) bool {
	return errors.As(err, pe)
}

// builtinExec is exec with a command: it replaces the shell (or the
// subshell) by a program found on $PATH or by its path, never by a
// function or builtin, as bash's exec does. -a NAME sets the program's
// argv[0], -l puts a dash before it (a login shell's convention) and -c
// runs it with an empty environment.
func builtinExec(r *Interp, args []string) int {
	usage := func() int {
		r.writeErr("exec: usage: exec [-cl] [-a name] [command [argument ...]] [redirection ...]\n")
		return 2
	}
	args = args[1:]
	argv0 := ""
	login, clearEnv := false, false
opts:
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		word := args[0]
		args = args[1:]
		if word == "--" {
			break
		}
		for i := 1; i < len(word); i++ {
			switch word[i] {
			case 'c':
				clearEnv = true
			case 'l':
				login = true
			case 'a':
				switch {
				case i+1 < len(word):
					argv0 = word[i+1:]
				case len(args) > 0:
					argv0, args = args[0], args[1:]
				default:
					r.builtinErr("exec", "-a: option requires an argument")
					return usage()
				}
				continue opts
			default:
				r.builtinErr("exec", "-%c: invalid option", word[i])
				return usage()
			}
		}
	}
	if len(args) == 0 {
		return 0
	}
	if r.opts.restricted {
		r.restrictedErr("exec", "")
		return 1
	}
	name := args[0]
	if !strings.Contains(name, "/") {
		if _, err := r.lookPath(name); err != nil {
			r.builtinErr("exec", "%s: not found", name)
			r.status = 127
			r.exiting = true
			r.exited = !r.isSubshell
			return 127
		}
	}
	if login {
		if argv0 == "" {
			argv0 = name
		}
		argv0 = "-" + argv0
	}
	r.runProgramWith(args, argv0, clearEnv)
	r.exiting = true
	if !r.isSubshell {
		r.exited = true
	}
	return r.status
}

// execRedirsPersist is called for `exec` with redirections only: they
// apply to the shell itself.
func (r *Interp) execRedirsPersist(redirs []*syntax.Redirect) {
	ok := r.redirect(redirs)
	r.checkCoprocFds()
	if !ok {
		r.status = 1
		return
	}
	r.status = 0
}

func builtinCommand(r *Interp, args []string) int {
	args = args[1:]
	mode := ""
	stdPath := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'v', 'V':
				mode = string(c)
			case 'p':
				stdPath = true
			default:
				r.builtinErr("command", "-%c: invalid option", c)
				r.writeErr("command: usage: command [-pVv] command [arg ...]\n")
				return 2
			}
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return 0
	}
	if stdPath && r.opts.restricted {
		r.restrictedErr("command", "-p")
		return 1
	}
	if mode != "" {
		status := 0
		for _, name := range args {
			if !r.describe(name, mode, false) {
				status = 1
			}
		}
		return status
	}
	if b, ok := builtins[args[0]]; ok && r.builtinEnabled(args[0]) {
		r.commandBuiltin++
		defer func() { r.commandBuiltin-- }()
		return b(r, args)
	}
	r.runProgram(args)
	return r.status
}

// describe prints what name is for type and command -v/-V. It reports
// whether name was found.
func (r *Interp) describe(name, mode string, all bool) bool {
	found := false
	say := func(kind, text string) {
		found = true
		switch mode {
		case "t":
			r.writeOut("type", kind+"\n")
		case "v":
			r.writeOut("command", text+"\n")
		case "p", "P":
		default:
			r.writeOut("type", text+"\n")
		}
	}
	if a, ok := r.aliases[name]; ok && mode != "P" && r.opts.expandAliases {
		say("alias", map[bool]string{true: "alias " + name + "=" + shellQuote(a), false: name + " is aliased to `" + a + "'"}[mode == "v"])
		if !all {
			return true
		}
	}
	if syntax.IsKeyword(name) && mode != "P" {
		say("keyword", map[bool]string{true: name, false: name + " is a shell keyword"}[mode == "v"])
		if !all {
			return true
		}
	}
	if f, ok := r.funcs[name]; ok && mode != "P" && !r.noFuncLookup {
		text := name + " is a function\n" + r.funcText(f)
		if mode == "v" {
			text = name
		}
		say("function", strings.TrimSuffix(text, "\n"))
		if !all {
			return true
		}
	}
	if _, ok := builtins[name]; ok && mode != "P" && r.builtinEnabled(name) {
		say("builtin", map[bool]string{true: name, false: name + " is a shell builtin"}[mode == "v"])
		if !all {
			return true
		}
	}
	var paths []string
	if strings.Contains(name, "/") {
		if r.checkExec(r.absPath(name)) == nil {
			paths = []string{name}
		}
	} else if p, ok := r.hashes[name]; ok && !all {
		r.hashHit(name)
		paths = []string{p}
	} else {
		pathVar, _ := r.getScalar("PATH")
		for _, d := range strings.Split(pathVar, ":") {
			if d == "" {
				d = "."
			}
			p := path.Join(d, name)
			if r.checkExec(r.absPath(p)) == nil {
				paths = append(paths, p)
				if !all {
					break
				}
			}
		}
	}
	for _, p := range paths {
		found = true
		switch mode {
		case "t":
			r.writeOut("type", "file\n")
		case "v", "p", "P":
			r.writeOut("type", p+"\n")
		default:
			if h, ok := r.hashes[name]; ok && h == p && !all {
				r.writeOut("type", name+" is hashed ("+p+")\n")
			} else {
				r.writeOut("type", name+" is "+p+"\n")
			}
		}
	}
	if !found && mode == "V" {
		r.builtinErr("command", "%s: not found", name)
	}
	return found
}

func builtinType(r *Interp, args []string) int {
	mode, all := "", false
	names := []string{}
	saved := r.noFuncLookup
	defer func() { r.noFuncLookup = saved }()
	for _, a := range args[1:] {
		if len(a) > 1 && a[0] == '-' && len(names) == 0 {
			for _, c := range a[1:] {
				switch c {
				case 't', 'p', 'P':
					mode = string(c)
				case 'a':
					all = true
				case 'f':
					r.noFuncLookup = true
				default:
					r.builtinErr("type", "-%c: invalid option", c)
					r.writeErr("type: usage: type [-afptP] name [name ...]\n")
					return 2
				}
			}
			continue
		}
		names = append(names, a)
	}
	status := 0
	for _, n := range names {
		if !r.describe(n, mode, all) {
			if mode == "" {
				r.builtinErr("type", "%s: not found", n)
			}
			status = 1
		}
	}
	return status
}

// builtinHash is bash's hash.def: hash [-lr] [-p pathname] [-dt] [name ...].
func builtinHash(r *Interp, args []string) int {
	if !r.opts.hashall {
		r.builtinErr("hash", "hashing disabled")
		return 1
	}
	usage := func() int {
		r.writeErr("hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]\n")
		return 2
	}
	var del, portable, expunge, targets bool
	pathname, havePath := "", false
	args = args[1:]
opts:
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		word := args[0]
		args = args[1:]
		if word == "--" {
			break
		}
		for i := 1; i < len(word); i++ {
			switch word[i] {
			case 'd':
				del = true
			case 'l':
				portable = true
			case 'r':
				expunge = true
			case 't':
				targets = true
			case 'p':
				switch {
				case i+1 < len(word):
					pathname = word[i+1:]
				case len(args) > 0:
					pathname, args = args[0], args[1:]
				default:
					r.builtinErr("hash", "-p: option requires an argument")
					return usage()
				}
				havePath = true
				continue opts
			default:
				r.builtinErr("hash", "-%c: invalid option", word[i])
				return usage()
			}
		}
	}
	if len(args) == 0 && (del || targets) {
		opt := "-t"
		if del {
			opt = "-d"
		}
		r.builtinErr("hash", "%s: option requires an argument", opt)
		return 1
	}
	if len(args) == 0 && !expunge {
		if len(r.hashes) == 0 {
			if !r.opts.posix && !portable {
				return r.writeOut("hash", "hash: hash table empty\n")
			}
			return 0
		}
		var sb strings.Builder
		if !portable {
			sb.WriteString("hits\tcommand\n")
		}
		for _, k := range r.hashOrder() {
			if portable {
				fmt.Fprintf(&sb, "builtin hash -p %s %s\n", r.hashes[k], k)
			} else {
				fmt.Fprintf(&sb, "%4d\t%s\n", r.hashMeta[k].hits, r.hashes[k])
			}
		}
		return r.writeOut("hash", sb.String())
	}
	if expunge {
		r.hashes = map[string]string{}
		if r.hashMeta != nil {
			r.hashMeta = map[string]hashMeta{}
		}
	}
	if targets {
		return r.hashTargets(args, portable)
	}
	if havePath && r.restrictedHashTarget("hash", pathname) {
		return 1
	}
	status := 0
	for _, w := range args {
		switch {
		case strings.Contains(w, "/"):
			// a path is never hashed
		case havePath:
			if st, err := r.fs().Stat(vfs.RootIno, r.absPath(pathname), true); err == nil && st.Type == vfs.TypeDir {
				r.builtinErr("hash", "%s: Is a directory", pathname)
				status = 1
				continue
			}
			r.hashSet(w, pathname, 0)
		case del:
			// bash is silent before its table first held a name
			if _, ok := r.hashes[w]; !ok && r.hashMeta != nil {
				r.builtinErr("hash", "%s: not found", w)
				status = 1
			}
			delete(r.hashes, w)
		default:
			if _, isFunc := r.funcs[w]; isFunc {
				continue
			}
			if _, ok := builtins[w]; ok && r.builtinEnabled(w) {
				continue
			}
			p, err := r.lookPath(w)
			if err != nil {
				delete(r.hashes, w)
				r.builtinErr("hash", "%s: not found", w)
				status = 1
				continue
			}
			hits := 0
			if _, ok := r.hashes[w]; ok {
				hits = 1 // hashing a hashed name again, as bash counts it
			}
			r.hashSet(w, p, hits)
		}
	}
	return status
}

// hashTargets is hash -t: the path each name is hashed to.
func (r *Interp) hashTargets(names []string, portable bool) int {
	status := 0
	var sb strings.Builder
	for _, n := range names {
		p, ok := r.hashes[n]
		if !ok {
			r.writeOut("hash", sb.String())
			sb.Reset()
			r.builtinErr("hash", "%s: not found", n)
			status = 1
			continue
		}
		switch {
		case portable:
			fmt.Fprintf(&sb, "builtin hash -p %s %s\n", p, n)
		case len(names) > 1:
			sb.WriteString(n + "\t" + p + "\n")
		default:
			sb.WriteString(p + "\n")
		}
	}
	if st := r.writeOut("hash", sb.String()); st != 0 {
		return st
	}
	return status
}

func builtinAlias(r *Interp, args []string) int {
	args = args[1:]
	if len(args) > 0 && args[0] == "-p" {
		args = args[1:]
	}
	if len(args) == 0 {
		keys := make([]string, 0, len(r.aliases))
		for k := range r.aliases {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var sb strings.Builder
		for _, k := range keys {
			sb.WriteString("alias " + k + "=" + shellQuote(r.aliases[k]) + "\n")
		}
		return r.writeOut("alias", sb.String())
	}
	status := 0
	for _, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok {
			if v, ok := r.aliases[name]; ok {
				r.writeOut("alias", "alias "+name+"="+shellQuote(v)+"\n")
			} else {
				r.builtinErr("alias", "%s: not found", name)
				status = 1
			}
			continue
		}
		if name == "" || strings.ContainsAny(name, " \t\n/$`=|&;()<>'\"") {
			r.builtinErr("alias", "`%s': invalid alias name", name)
			status = 1
			continue
		}
		r.aliases[name] = val
	}
	return status
}

func builtinUnalias(r *Interp, args []string) int {
	status := 0
	for _, a := range args[1:] {
		if a == "-a" {
			r.aliases = map[string]string{}
			continue
		}
		if _, ok := r.aliases[a]; !ok {
			r.builtinErr("unalias", "%s: not found", a)
			status = 1
			continue
		}
		delete(r.aliases, a)
	}
	return status
}

func builtinLet(r *Interp, args []string) int {
	if len(args) < 2 {
		r.builtinErr("let", "expression expected")
		return 1
	}
	var v int64
	for _, a := range args[1:] {
		var ok bool
		v, ok = r.arithStringPrefix(a, "let: ")
		if !ok {
			return 1
		}
	}
	if v == 0 {
		return 1
	}
	return 0
}

// letClause runs `let` parsed as a clause: its arguments are arithmetic
// words expanded without splitting.
func (r *Interp) letClause(c *syntax.LetClause) {
	args := []string{"let"}
	for _, x := range c.Exprs {
		args = append(args, r.arithSource(x, x.Pos().Offset(), x.End().Offset()))
	}
	if r.opts.xtrace {
		r.xtraceCall(nil, args)
	}
	r.status = builtinLet(r, args)
}

func builtinTest(r *Interp, args []string) int {
	status, msg := testBuiltin(testInterp{r}, args[0], args[1:])
	if msg != "" {
		r.errorf("%s", msg)
	}
	return status
}

func builtinUmask(r *Interp, args []string) int {
	symbolic, reusable := false, false
	args = args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'S':
				symbolic = true
			case 'p':
				reusable = true
			default:
				r.builtinErr("umask", "-%c: invalid option", c)
				r.writeErr("umask: usage: umask [-p] [-S] [mode]\n")
				return 2
			}
		}
		args = args[1:]
	}
	if len(args) == 0 {
		m := r.umask
		prefix := ""
		if reusable {
			prefix = "umask "
			if symbolic {
				prefix += "-S "
			}
		}
		if symbolic {
			perm := func(shift uint) string {
				s := ""
				bits := (^m >> shift) & 7
				if bits&4 != 0 {
					s += "r"
				}
				if bits&2 != 0 {
					s += "w"
				}
				if bits&1 != 0 {
					s += "x"
				}
				return s
			}
			return r.writeOut("umask", prefix+"u="+perm(6)+",g="+perm(3)+",o="+perm(0)+"\n")
		}
		return r.writeOut("umask", fmt.Sprintf("%s%04o\n", prefix, m))
	}
	if c := args[0][0]; c >= '0' && c <= '9' {
		v, err := strconv.ParseUint(args[0], 8, 32)
		if err != nil || v > 0o777 {
			r.builtinErr("umask", "%s: octal number out of range", args[0])
			return 1
		}
		r.umask = uint32(v)
	} else {
		bits, err := filemode.Apply(args[0], ^r.umask&0o777, filemode.Options{Strict: true})
		if err != nil {
			r.builtinErr("umask", "%s", err.Error())
			return 1
		}
		r.umask = ^bits & 0o777
	}
	if symbolic {
		return builtinUmask(r, []string{"umask", "-S"})
	}
	return 0
}

func builtinTimes(r *Interp, args []string) int {
	return r.writeOut("times", "0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n")
}

func builtinCaller(r *Interp, args []string) int {
	n := 0
	args = args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		r.builtinErr("caller", "%s: invalid option", args[0][:2])
		r.writeErr("caller: usage: caller [expr]\n")
		return 2
	}
	if len(args) > 0 {
		v, ok := legalNumber(args[0])
		if !ok {
			r.builtinErr("caller", "%s: invalid number", args[0])
			r.writeErr("caller: usage: caller [expr]\n")
			return 2
		}
		if v < 0 || v > int64(len(r.frames)) {
			return 1
		}
		n = int(v)
	}
	if len(r.frames) == 0 || n >= len(r.frames) {
		return 1
	}
	f := r.frames[len(r.frames)-1-n]
	caller := "main"
	src := ""
	if len(r.frames)-2-n >= 0 {
		caller = r.frames[len(r.frames)-2-n].fn
		src = r.frames[len(r.frames)-2-n].source
	} else if r.source != nil {
		src = f.source
	}
	if len(args) > 0 {
		return r.writeOut("caller", fmt.Sprintf("%d %s %s\n", f.line, caller, src))
	}
	return r.writeOut("caller", fmt.Sprintf("%d %s\n", f.line, src))
}

// builtinEnable is bash's enable.def: enable [-a] [-dnps] [-f filename]
// [name ...]. The sandbox loads no builtins from files.
func builtinEnable(r *Interp, args []string) int {
	usage := func() int {
		r.writeErr("enable: usage: enable [-a] [-dnps] [-f filename] [name ...]\n")
		return 2
	}
	var all, disable, print, special, load, unload bool
	args = args[1:]
opts:
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		word := args[0]
		args = args[1:]
		if word == "--" {
			break
		}
		for i := 1; i < len(word); i++ {
			switch word[i] {
			case 'a':
				all = true
			case 'n':
				disable = true
			case 'p':
				print = true
			case 's':
				special = true
			case 'd':
				unload = true
			case 'f':
				if i+1 == len(word) && len(args) == 0 {
					r.builtinErr("enable", "-f: option requires an argument")
					return usage()
				}
				if i+1 == len(word) {
					args = args[1:]
				}
				load = true
				continue opts
			default:
				r.builtinErr("enable", "-%c: invalid option", word[i])
				return usage()
			}
		}
	}
	if load || unload {
		if r.opts.restricted {
			r.restrictedErr("enable", "")
			return 1
		}
		r.builtinErr("enable", "dynamic loading not available")
		return 2
	}
	if len(args) == 0 || print {
		return r.writeOut("enable", r.builtinList(all, disable, special))
	}
	status := 0
	for _, n := range args {
		if _, ok := builtins[n]; !ok {
			r.builtinErr("enable", "%s: not a shell builtin", n)
			status = 1
			continue
		}
		if !disable && r.disabled[n] && r.opts.restricted {
			r.restrictedErr("enable", "")
			status = 1
			continue
		}
		if r.disabled == nil {
			r.disabled = map[string]bool{}
		}
		if disable {
			r.disabled[n] = true
		} else {
			delete(r.disabled, n)
		}
	}
	return status
}

// builtinList is enable's listing: the enabled builtins, the disabled
// ones (disabled) or both (all), only POSIX's special ones with special.
func (r *Interp) builtinList(all, disabled, special bool) string {
	names := make([]string, 0, len(builtins))
	for k := range builtins {
		if !special || isPosixSpecialBuiltin(k) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var sb strings.Builder
	for _, k := range names {
		off := r.disabled[k]
		switch {
		case !off && (all || !disabled):
			sb.WriteString("enable " + k + "\n")
		case off && (all || disabled):
			sb.WriteString("enable -n " + k + "\n")
		}
	}
	return sb.String()
}

func builtinBuiltin(r *Interp, args []string) int {
	if len(args) < 2 {
		return 0
	}
	b, ok := builtins[args[1]]
	if !ok {
		r.builtinErr("builtin", "%s: not a shell builtin", args[1])
		return 1
	}
	return b(r, args[1:])
}

func builtinFgBg(r *Interp, args []string) int {
	if args[0] == "suspend" {
		r.builtinErr(args[0], "cannot suspend: no job control")
		return 1
	}
	r.builtinErr(args[0], "no job control")
	return 1
}

func builtinLogout(r *Interp, args []string) int {
	r.builtinErr("logout", "not login shell: use `exit'")
	return 1
}

func builtinHelp(r *Interp, args []string) int {
	if len(args) < 2 {
		names := make([]string, 0, len(builtins))
		for k := range builtins {
			names = append(names, k)
		}
		sort.Strings(names)
		return r.writeOutUnchecked("GNU bash, version " + bashVersion + " (wasmsand)\nThese shell commands are defined internally:\n\n" + strings.Join(names, " ") + "\n")
	}
	status := 1
	for _, a := range args[1:] {
		for _, name := range sortedBuiltinNames() {
			if ok, _ := matchSimple(a, name); ok {
				r.writeOut("help", name+": "+builtinSynopsis(name)+"\n")
				status = 0
			}
		}
	}
	if status != 0 {
		r.builtinErr("help", "no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.", args[1], args[1], args[1])
	}
	return status
}

func sortedBuiltinNames() []string {
	names := make([]string, 0, len(builtins))
	for k := range builtins {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func matchSimple(pat, name string) (bool, error) {
	m, err := patternCompile(pat, 0)
	if err != nil {
		return pat == name, nil
	}
	return m.match(name), nil
}

func builtinSynopsis(name string) string {
	if s, ok := synopses[name]; ok {
		return s
	}
	return name + " [arg ...]"
}

var synopses = map[string]string{
	"cd": "cd [-L|[-P [-e]] [-@]] [dir]", "echo": "echo [-neE] [arg ...]",
	"mapfile": "mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
	"read":    "read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]",
	"declare": "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
	"printf":  "printf [-v var] format [arguments]", "test": "test [expr]", "set": "set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]",
}

// errnoText renders an error the way bash prints errno strings.
func errnoText(err error) string {
	var errno vfs.Errno
	if errors.As(err, &errno) {
		msg := errno.Error()
		if msg != "" {
			return strings.ToUpper(msg[:1]) + msg[1:]
		}
	}
	if errors.Is(err, errIsDirectory) {
		return "Is a directory"
	}
	return err.Error()
}

var errIsDirectory = errors.New("Is a directory")
