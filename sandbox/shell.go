package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/wasmsand/wasmsand/sandbox/shell"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// shellHost connects wasmsand's bash interpreter (package shell) to the
// sandbox: it runs programs, counts processes and checks the Run's
// limits. It is the shell's only way out.
type shellHost struct{ s *Sandbox }

// Exec runs the executable VFS file p.
func (h shellHost) Exec(ctx context.Context, p *shell.Process) int {
	io := procIO{Env: p.Env, Dir: p.Dir, Stdin: p.Stdio.Stdin, Stdout: p.Stdio.Stdout, Stderr: p.Stdio.Stderr, umask: p.Umask, slotHeld: p.SlotHeld, Extra: p.Stdio.Extra, ignored: p.Ignored}
	pctx, _, end := h.s.startProc(ctx, p.Pid, p.PPid, p.Args)
	return end(h.s.execPath(pctx, io, p.Path, p.Args))
}

// Fork reserves a process slot for a subshell, pipeline stage or job.
func (h shellHost) Fork(ctx context.Context) (func(), error) {
	run := runFrom(ctx)
	if run == nil {
		return func() {}, nil
	}
	if err := run.acquire(); err != nil {
		return nil, err
	}
	return run.release, nil
}

// Check ends the Run when its time is up and lets the page breathe.
func (h shellHost) Check(ctx context.Context) error {
	if run := runFrom(ctx); run != nil && run.timer != nil {
		if run.timer.expired() {
			run.timer.expire()
		}
		run.yield()
	}
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	return nil
}

// newShell makes an interpreter over the sandbox.
func (s *Sandbox) newShell(env []string, dir string) (*shell.Interp, error) {
	return s.newShellPid(env, dir, 0, 0)
}

// newShellPid makes an interpreter whose $$ is pid and $PPID ppid (0: a
// fresh pid).
func (s *Sandbox) newShellPid(env []string, dir string, pid, ppid int) (*shell.Interp, error) {
	return shell.New(shell.Config{
		Pid:          pid,
		PPid:         ppid,
		Host:         shellHost{s},
		FS:           s.fs,
		NotFoundHint: s.noToolsHint(),
		Env:          env,
		Dir:          dir,
		Now:          s.now,
		Seed:         uint64(s.opts.Seed),
		Pids:         s.nextPid,
		Limits: shell.Limits{
			MaxStringBytes: int(min(s.opts.OutputLimit, 1<<30)),
		},
		ProcessLimits: shell.ProcessLimits{MemoryBytes: int64(s.memPages) * 65536, Processes: s.opts.MaxProcesses},
	})
}

// noToolsHint is NoToolsHint when the sandbox has no tool modules, else "".
func (s *Sandbox) noToolsHint() string {
	if s.tools.empty() {
		return NoToolsHint
	}
	return ""
}

// notFoundHint is what follows "command not found": the no-tools hint in
// parentheses, or nothing.
func (s *Sandbox) notFoundHint() string {
	if h := s.noToolsHint(); h != "" {
		return " (" + h + ")"
	}
	return ""
}

// nextPid hands out the sandbox's process ids.
func (s *Sandbox) nextPid() int { return int(s.pids.Add(1)) }

// procIO is what a new process inherits from whoever starts it (the shell
// or a guest's proc_spawn): environment, directory and stdio.
type procIO struct {
	Env    []string
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// umask is the file mode creation mask.
	umask uint32
	// slotHeld: the process runs in a slot its starter already counted.
	slotHeld bool
	// Extra are the starter's open fds above 2, for /dev/fd/N.
	Extra map[int]*vfs.File
	// ignored are the signals the starter ignores, which a child shell
	// starts with ignored (shell.Process.Ignored).
	ignored []string
}

// execIO runs the program args[0] names, searched on the PATH of hc.Env
// (for guests' proc_spawn). It returns the exit status.
func (s *Sandbox) execIO(ctx context.Context, hc procIO, args []string) int {
	name := args[0]
	p, err := s.lookPath(hc.Env, hc.Dir, name)
	if err != nil {
		if strings.Contains(name, "/") {
			fmt.Fprintf(hc.Stderr, "bash: %s: %s\n", name, errText(err))
			if errors.Is(err, fs.ErrNotExist) {
				return 127
			}
			return 126
		}
		fmt.Fprintf(hc.Stderr, "bash: %s: command not found%s\n", name, s.notFoundHint())
		return 127
	}
	return s.execPath(ctx, hc, p, args)
}

// execPath runs the executable file p: a tool, a WebAssembly module or a
// script.
func (s *Sandbox) execPath(ctx context.Context, hc procIO, p string, args []string) int {
	name := args[0]
	head, err := s.readHead(p)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "bash: %s: %s\n", name, errText(err))
		return 126
	}
	switch {
	case bytes.HasPrefix(head, []byte(toolMarker)):
		tool := strings.TrimSpace(string(head[len(toolMarker):]))
		if i := strings.IndexByte(tool, '\n'); i >= 0 {
			tool = tool[:i]
		}
		return s.runTool(ctx, hc, tool, args)
	case bytes.HasPrefix(head, []byte("\x00asm")):
		bin, err := s.fs.ReadFile(p)
		if err != nil {
			fmt.Fprintf(hc.Stderr, "bash: %s: %s\n", name, errText(err))
			return 126
		}
		key := func() (moduleKey, error) { return bytesKey(bin, s.memPages), nil }
		return s.runGuest(ctx, hc, key, func() ([]byte, error) { return bin, nil }, args)
	case bytes.HasPrefix(head, []byte("#!")):
		line, _, _ := bytes.Cut(head[2:], []byte("\n"))
		fields := strings.Fields(string(line))
		if len(fields) == 0 {
			return s.runShell(ctx, hc, append([]string{"bash", s.scriptArg(hc.Dir, p, name)}, args[1:]...))
		}
		interpPath, rest := fields[0], fields[1:]
		if path.Base(interpPath) == "env" && len(rest) > 0 {
			interpPath, rest = rest[0], rest[1:]
		}
		newArgs := append(append([]string{interpPath}, rest...), s.scriptArg(hc.Dir, p, name))
		newArgs = append(newArgs, args[1:]...)
		return s.execIO(ctx, hc, newArgs)
	default:
		// Like bash: a text file without a shebang is a shell script.
		return s.runShell(ctx, hc, append([]string{"bash", s.scriptArg(hc.Dir, p, name)}, args[1:]...))
	}
}

// scriptArg is the script's path as its interpreter receives it: like
// Linux's execve, the path the program was run by (name, as "./x.py" or
// "bin/x.py") when name has a slash and leads to p, else p, the path found
// on $PATH (name without a slash) or the one an argv[0] set by exec -a
// does not name (bash 5.2 passes the full path then too).
func (s *Sandbox) scriptArg(dir, p, name string) string {
	if strings.Contains(name, "/") && s.abs(dir, name) == p {
		return name
	}
	return p
}

// shellCommands are the names the sandbox's shell runs as a program:
// rbash is bash restricted (its name tells the shell).
var shellCommands = []string{"bash", "sh", "rbash"}

// runTool runs a built-in tool by command name.
func (s *Sandbox) runTool(ctx context.Context, hc procIO, tool string, args []string) int {
	if slices.Contains(shellCommands, tool) {
		return s.runShell(ctx, hc, args)
	}
	file, ok := s.tools.commands[tool]
	if !ok {
		fmt.Fprintf(hc.Stderr, "bash: %s: command not found%s\n", args[0], s.notFoundHint())
		return 127
	}
	if len(args) > 0 && path.Base(args[0]) != tool {
		// The tool file is the program whatever name runs it (hash -p,
		// a copy or link): the multi-call module picks it by args[0].
		args = append([]string{tool}, args[1:]...)
	}
	load := func() ([]byte, error) {
		b, _, err := s.tools.moduleBytes(tool)
		return b, err
	}
	key := func() (moduleKey, error) { return s.tools.key(file, s.memPages) }
	return s.runGuest(ctx, hc, key, load, args)
}

// lookPath finds a command like bash does: names with a slash are paths,
// others are searched in $PATH. It returns the absolute VFS path of an
// executable regular file.
func (s *Sandbox) lookPath(env []string, dir, name string) (string, error) {
	if strings.Contains(name, "/") {
		p := s.abs(dir, name)
		return p, s.checkExec(p)
	}
	pathVar := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathVar = v
		}
	}
	for _, d := range strings.Split(pathVar, ":") {
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

// runShell runs bash or sh as a child process: `bash -c CMD [NAME
// [ARGS]]`, `bash FILE [ARGS]`, or a script read from standard input. The
// child has only the exported environment, like a real child bash.
func (s *Sandbox) runShell(ctx context.Context, hc procIO, args []string) int {
	run := runFrom(ctx)
	if run != nil && !hc.slotHeld {
		if err := run.acquire(); err != nil {
			fmt.Fprintf(hc.Stderr, "bash: fork: Resource temporarily unavailable\n")
			return 254
		}
		defer run.release()
	}
	env := hc.Env
	pid, ppid := 0, 0
	if e := procFrom(ctx); e != nil {
		// The shell is the program of a table entry: bash has its pid.
		pid, ppid = e.pid, e.ppid
	}
	sh, err := s.newShellPid(env, hc.Dir, pid, ppid)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "bash: %v\n", err)
		return 2
	}
	sh.SetStdio(hc.Stdin, hc.Stdout, hc.Stderr)
	sh.SetExtraFds(hc.Extra)
	sh.SetUmask(hc.umask)
	sh.SetIgnoredSignals(hc.ignored)
	status := sh.Main(ctx, args, hc.Stdin, int(s.opts.OutputLimit))
	if ctx.Err() != nil {
		return 124
	}
	return status
}
