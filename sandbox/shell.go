package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// newRunner makes a shell interpreter whose every contact with files and
// programs goes through the sandbox: no handler falls back to the host.
func (s *Sandbox) newRunner(env expand.Environ, dir string, stdin io.Reader, stdout, stderr io.Writer, params ...string) (*interp.Runner, error) {
	opts := []interp.RunnerOption{
		interp.Env(env),
		// interp.Dir would stat the host; set the field directly.
		func(r *interp.Runner) error { r.Dir = dir; return nil },
		interp.StdIO(stdin, stdout, stderr),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc { return s.exec }),
		interp.OpenHandler(s.open),
		interp.ReadDirHandler2(s.readDir),
		interp.StatHandler(s.stat),
		interp.AccessHandler(s.access),
		interp.CallHandler(s.call),
	}
	if len(params) > 0 {
		opts = append(opts, interp.Params(params...))
	}
	return interp.New(opts...)
}

// checkSupported rejects syntax the sandbox cannot run safely.
func checkSupported(f *syntax.File) error {
	var err error
	syntax.Walk(f, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		if _, ok := n.(*syntax.ProcSubst); ok {
			err = errors.New("process substitution <(...) is not supported in wasmsand; use a pipe or a temporary file")
		}
		return true
	})
	return err
}

// procIO is what a new process inherits from whoever starts it (the shell
// or a guest's proc_spawn): environment, directory and stdio.
type procIO struct {
	Env    expand.Environ
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// handlerIO is the procIO of the shell command behind ctx. Output that
// lands in host memory (a command substitution) is capped at the output
// limit, so `x=$(yes)` ends instead of exhausting the host.
func (s *Sandbox) handlerIO(ctx context.Context) procIO {
	hc := interp.HandlerCtx(ctx)
	return procIO{
		Env:    hc.Env,
		Dir:    hc.Dir,
		Stdin:  hc.Stdin,
		Stdout: bounded(hc.Stdout, s.opts.OutputLimit),
		Stderr: bounded(hc.Stderr, s.opts.OutputLimit),
	}
}

// exec runs a command that is neither a builtin nor a function.
func (s *Sandbox) exec(ctx context.Context, args []string) error {
	switch args[0] {
	case lookupCommand:
		return s.lookup(ctx, args)
	case printfCommand:
		return runPrintf(ctx, args)
	}
	return s.execIO(ctx, s.handlerIO(ctx), args)
}

// execIO runs the program args[0] names: a tool, a WebAssembly module or
// a script. The error is an interp.ExitStatus.
func (s *Sandbox) execIO(ctx context.Context, hc procIO, args []string) error {
	name := args[0]
	p, err := s.lookPath(hc.Env, hc.Dir, name)
	if err != nil {
		if strings.Contains(name, "/") {
			fmt.Fprintf(hc.Stderr, "bash: %s: %s\n", name, errText(err))
			if errors.Is(err, fs.ErrNotExist) {
				return interp.ExitStatus(127)
			}
			return interp.ExitStatus(126)
		}
		fmt.Fprintf(hc.Stderr, "bash: %s: command not found\n", name)
		return interp.ExitStatus(127)
	}
	head, err := s.readHead(p)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "bash: %s: %s\n", name, errText(err))
		return interp.ExitStatus(126)
	}
	switch {
	case bytes.HasPrefix(head, []byte(toolMarker)):
		tool := strings.TrimSpace(string(head[len(toolMarker):]))
		if i := strings.IndexByte(tool, '\n'); i >= 0 {
			tool = tool[:i]
		}
		return s.runTool(ctx, hc, tool, args)
	case bytes.HasPrefix(head, []byte("\x00asm")):
		load := func() ([]byte, error) { return s.fs.ReadFile(p) }
		bin, err := load()
		if err != nil {
			fmt.Fprintf(hc.Stderr, "bash: %s: %s\n", name, errText(err))
			return interp.ExitStatus(126)
		}
		return s.runGuest(ctx, hc, bytesKey(bin, s.memPages), func() ([]byte, error) { return bin, nil }, args)
	case bytes.HasPrefix(head, []byte("#!")):
		line, _, _ := bytes.Cut(head[2:], []byte("\n"))
		fields := strings.Fields(string(line))
		if len(fields) == 0 {
			return s.runShell(ctx, hc, append([]string{"bash", p}, args[1:]...))
		}
		interpPath, rest := fields[0], fields[1:]
		if path.Base(interpPath) == "env" && len(rest) > 0 {
			interpPath, rest = rest[0], rest[1:]
		}
		newArgs := append(append([]string{interpPath}, rest...), p)
		newArgs = append(newArgs, args[1:]...)
		return s.execIO(ctx, hc, newArgs)
	default:
		// Like bash: a text file without a shebang is a shell script.
		return s.runShell(ctx, hc, append([]string{"bash", p}, args[1:]...))
	}
}

// runTool runs a built-in tool by command name.
func (s *Sandbox) runTool(ctx context.Context, hc procIO, tool string, args []string) error {
	if tool == "bash" || tool == "sh" {
		return s.runShell(ctx, hc, args)
	}
	file, ok := s.tools.commands[tool]
	if !ok {
		fmt.Fprintf(hc.Stderr, "bash: %s: command not found\n", args[0])
		return interp.ExitStatus(127)
	}
	load := func() ([]byte, error) {
		b, _, err := s.tools.moduleBytes(tool)
		return b, err
	}
	return s.runGuest(ctx, hc, toolKey(file, s.memPages), load, args)
}

// lookPath finds a command like bash does: names with a slash are paths,
// others are searched in $PATH. It returns the absolute VFS path of an
// executable regular file.
func (s *Sandbox) lookPath(env expand.Environ, dir, name string) (string, error) {
	if strings.Contains(name, "/") {
		p := s.abs(dir, name)
		return p, s.checkExec(p)
	}
	for _, d := range strings.Split(env.Get("PATH").String(), ":") {
		if d == "" {
			d = "."
		}
		p := s.abs(dir, path.Join(d, name))
		if s.checkExec(p) == nil {
			return p, nil
		}
	}
	return "", fs.ErrNotExist
}

var (
	errIsDir      = errors.New("Is a directory")
	errPermission = errors.New("Permission denied")
)

func (s *Sandbox) checkExec(p string) error {
	st, err := s.fs.Stat(vfs.RootIno, p, true)
	if err != nil {
		return err
	}
	if st.Type == vfs.TypeDir {
		return errIsDir
	}
	if st.Mode&0o111 == 0 {
		return errPermission
	}
	return nil
}

// readHead reads the first bytes of a file to tell how to run it.
func (s *Sandbox) readHead(p string) ([]byte, error) {
	f, err := s.fs.Open(vfs.RootIno, p, vfs.ORead, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	return buf[:n], nil
}

// errText renders an error the way bash prints errno strings.
func errText(err error) string {
	var errno vfs.Errno
	if errors.As(err, &errno) {
		msg := errno.Error()
		if msg != "" {
			return strings.ToUpper(msg[:1]) + msg[1:]
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "No such file or directory"
	}
	return err.Error()
}

// runShell runs bash or sh as a child shell: `bash -c CMD [NAME [ARGS]]`,
// `bash FILE [ARGS]`, or a script read from standard input.
func (s *Sandbox) runShell(ctx context.Context, hc procIO, args []string) error {
	run := runFrom(ctx)
	if err := run.acquire(); err != nil {
		fmt.Fprintf(hc.Stderr, "bash: %v\n", err)
		return interp.ExitStatus(254)
	}
	defer run.release()

	var (
		src     []byte
		name    = args[0]
		params  []string
		opts    []string
		command bool
	)
	rest := args[1:]
	for len(rest) > 0 && len(rest[0]) > 1 && (rest[0][0] == '-' || rest[0][0] == '+') {
		a := rest[0]
		rest = rest[1:]
		if a == "--" {
			break
		}
		if a == "-c" {
			command = true
			continue
		}
		if a == "-o" || a == "+o" {
			if len(rest) > 0 {
				opts = append(opts, a, rest[0])
				rest = rest[1:]
			}
			continue
		}
		if strings.HasPrefix(a, "--") {
			continue // --norc, --noprofile and friends mean nothing here
		}
		if strings.Contains(a, "c") && a[0] == '-' {
			command = true
			a = strings.ReplaceAll(a, "c", "")
			if a == "-" {
				continue
			}
		}
		opts = append(opts, a)
	}
	switch {
	case command:
		if len(rest) == 0 {
			fmt.Fprintf(hc.Stderr, "%s: -c: option requires an argument\n", name)
			return interp.ExitStatus(2)
		}
		src = []byte(rest[0])
		if len(rest) > 1 {
			name = rest[1]
			params = rest[2:]
		}
	case len(rest) > 0:
		p := s.abs(hc.Dir, rest[0])
		b, err := s.fs.ReadFile(p)
		if err != nil {
			fmt.Fprintf(hc.Stderr, "%s: %s: %s\n", name, rest[0], errText(err))
			return interp.ExitStatus(127)
		}
		src, name, params = b, rest[0], rest[1:]
	default:
		if hc.Stdin != nil {
			// The script is held in host memory: bound it like output.
			b, err := io.ReadAll(io.LimitReader(hc.Stdin, s.opts.OutputLimit+1))
			if err != nil {
				return interp.ExitStatus(1)
			}
			if int64(len(b)) > s.opts.OutputLimit {
				fmt.Fprintf(hc.Stderr, "%s: script on standard input is larger than the output limit (%d bytes)\n", name, s.opts.OutputLimit)
				return interp.ExitStatus(1)
			}
			src = b
		}
	}
	file, err := syntax.NewParser().Parse(bytes.NewReader(src), name)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "%s: %v\n", name, err)
		return interp.ExitStatus(2)
	}
	if err := checkSupported(file); err != nil {
		fmt.Fprintf(hc.Stderr, "%s: %v\n", name, err)
		return interp.ExitStatus(2)
	}
	if err := checkBraces(file); err != nil {
		fmt.Fprintf(hc.Stderr, "%s: %v\n", name, err)
		return interp.ExitStatus(1)
	}
	env := guestEnv(hc.Env, hc.Dir)
	rparams := append(append([]string{}, opts...), "--")
	rparams = append(rparams, params...)
	r, err := s.newRunner(expand.ListEnviron(env...), hc.Dir, hc.Stdin, hc.Stdout, hc.Stderr, rparams...)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "%s: %v\n", name, err)
		return interp.ExitStatus(2)
	}
	err = r.Run(ctx, file)
	if err == nil {
		return nil
	}
	var status interp.ExitStatus
	if errors.As(err, &status) {
		return status
	}
	if ctx.Err() != nil {
		return interp.ExitStatus(124)
	}
	fmt.Fprintf(hc.Stderr, "%s: %v\n", name, err)
	return interp.ExitStatus(1)
}

// open serves redirections and `source` from the VFS.
func (s *Sandbox) open(ctx context.Context, name string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	p := s.abs(hc.Dir, name)
	st, err := s.fs.Stat(vfs.RootIno, p, true)
	if err == nil && st.Type == vfs.TypeCharDevice {
		switch st.Device {
		case vfs.DevStdin:
			return stdio{r: hc.Stdin}, nil
		case vfs.DevStdout:
			return stdio{w: hc.Stdout}, nil
		case vfs.DevStderr:
			return stdio{w: hc.Stderr}, nil
		}
	}
	var fl vfs.OpenFlag
	switch flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR) {
	case os.O_RDONLY:
		fl = vfs.ORead
	case os.O_WRONLY:
		fl = vfs.OWrite
	default:
		fl = vfs.ORead | vfs.OWrite
	}
	if flag&os.O_APPEND != 0 {
		fl |= vfs.OAppend
	}
	if flag&os.O_CREATE != 0 {
		fl |= vfs.OCreate
	}
	if flag&os.O_EXCL != 0 {
		fl |= vfs.OExcl
	}
	if flag&os.O_TRUNC != 0 {
		fl |= vfs.OTrunc
	}
	f, err := s.fs.Open(vfs.RootIno, p, fl, perm)
	if err != nil {
		return nil, shellPathError(name, err)
	}
	return vfsFile{f: f, ctx: ctx}, nil
}

// shellPathError makes a VFS error print like bash: "NAME: Message".
func shellPathError(name string, err error) error {
	return &os.PathError{Op: "open", Path: name, Err: errors.New(errText(err))}
}

// vfsFile adapts an open VFS file to the shell, honouring the Run's
// context for FIFOs.
type vfsFile struct {
	f   *vfs.File
	ctx context.Context
}

func (v vfsFile) Read(p []byte) (int, error)  { return v.f.ReadContext(v.ctx, p) }
func (v vfsFile) Write(p []byte) (int, error) { return v.f.WriteContext(v.ctx, p) }
func (v vfsFile) Close() error                { return v.f.Close() }

// stdio adapts the shell's own streams for /dev/stdin and friends.
type stdio struct {
	r io.Reader
	w io.Writer
}

func (s stdio) Read(p []byte) (int, error) {
	if s.r == nil {
		return 0, io.EOF
	}
	return s.r.Read(p)
}

func (s stdio) Write(p []byte) (int, error) {
	if s.w == nil {
		return len(p), nil
	}
	return s.w.Write(p)
}

func (stdio) Close() error { return nil }

func (s *Sandbox) readDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	hc := interp.HandlerCtx(ctx)
	return s.readDirAbs(s.abs(hc.Dir, name))
}

func (s *Sandbox) stat(ctx context.Context, name string, follow bool) (fs.FileInfo, error) {
	hc := interp.HandlerCtx(ctx)
	p := s.abs(hc.Dir, name)
	st, err := s.fs.Stat(vfs.RootIno, p, follow)
	if err != nil {
		return nil, err
	}
	return st.FileInfo(path.Base(p)), nil
}

func (s *Sandbox) access(ctx context.Context, name string, mode interp.AccessMode) error {
	hc := interp.HandlerCtx(ctx)
	st, err := s.fs.Stat(vfs.RootIno, s.abs(hc.Dir, name), true)
	if err != nil {
		return err
	}
	perm := uint32(st.Mode.Perm()) >> 6 // the sandbox user owns everything
	if uint32(mode)&^perm != 0 {
		return &os.PathError{Op: "access", Path: name, Err: fs.ErrPermission}
	}
	return nil
}

// call runs before every simple command, builtins and functions included:
// the one place the shell's own work (loops, functions, subshells) can be
// checked against the Run's limits.
func (s *Sandbox) call(ctx context.Context, args []string) ([]string, error) {
	checkForks()
	if run := runFrom(ctx); run != nil && run.timer != nil {
		if run.timer.expired() {
			run.timer.expire()
		}
		run.yield()
	}
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	if run := runFrom(ctx); run != nil && run.calls.Add(1)%16 == 0 && tooDeep() {
		run.fail(errNesting)
		return nil, errNesting
	}
	if args[0] == "eval" && len(args) > 1 {
		f, err := syntax.NewParser().Parse(strings.NewReader(strings.Join(args[1:], " ")), "")
		if err == nil {
			if err := checkBraces(f); err != nil {
				fmt.Fprintf(interp.HandlerCtx(ctx).Stderr, "bash: eval: %v\n", err)
				return []string{"false"}, nil
			}
		}
	}
	if args[0] == "printf" {
		return s.rewritePrintf(ctx, args), nil
	}
	if args[0] == "type" || args[0] == "command" {
		args = rewriteLookup(args)
	}
	return args, nil
}

var errNesting = errors.New("maximum function nesting level exceeded (about 1000 calls deep)")

// maxShellFrames bounds the Go stack the interpreter may use for nested
// function calls and subshells (`f(){ f; }; f`), far below the point where
// the Go runtime would abort the whole process. One shell function call
// takes about 11 frames, so this allows a nesting depth of about 1,000;
// the interpreter slows down quadratically well before that anyway.
const maxShellFrames = 12000

// tooDeep reports whether the calling goroutine's stack is deeper than
// maxShellFrames. It walks the stack, so callers sample it.
func tooDeep() bool {
	var pc [1]uintptr
	return runtime.Callers(maxShellFrames, pc[:]) > 0
}
