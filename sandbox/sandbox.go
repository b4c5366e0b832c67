package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/shell"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// ErrClosed is returned by methods of a Sandbox after Close.
var ErrClosed = errors.New("sandbox: closed")

// Sandbox is one isolated environment: a filesystem, a shell with its
// variables, functions and working directory, and the limits that bind
// every command run in it. Methods are safe for concurrent use; Run calls
// are serialized.
type Sandbox struct {
	opts     Options
	fs       *vfs.FS
	rand     *prng
	tools    *toolSet
	eng      *engineEntry
	memPages uint32

	runMu  sync.Mutex // serializes Run; guards sh
	sh     *shell.Interp
	closed atomic.Bool
	pids   atomic.Int64 // the sandbox's process ids
	procs  procTable    // the live processes (proctable.go)
	// shellPid is $$ of the main shell, listed first in the table.
	shellPid atomic.Int64

	mu   sync.Mutex // guards cwd and vars
	cwd  string
	vars map[string]string // the shell's variables after the last Run, for GetEnv

	net netState // the network policy

	started time.Time     // for printf's %(...)T with -2
	runs    atomic.Uint64 // Runs so far, for processSeed
}

// New creates a sandbox. It lays out the filesystem, loads the tool list
// from opts.Tools or opts.ToolsDir (module bytes are read on first use) and starts the
// shell. With opts.Persist set, it resumes the sandbox saved in opts.Store
// under that name instead, if there is one.
func New(ctx context.Context, opts Options) (*Sandbox, error) {
	if s, ok, err := newPersistent(ctx, opts); ok {
		return s, err
	}
	s, err := newBare(ctx, opts)
	if err != nil {
		return nil, err
	}
	opts = s.opts
	s.started = s.now()
	// The layout's files all take the time the sandbox started: they
	// would read the clock several times each (a reading is two calls out
	// to JavaScript in the js/wasm core).
	started := s.started
	s.fs = vfs.New(vfs.Options{
		MaxBytes:  1 << 30, // for the layout; see SetLimits below
		MaxInodes: 1 << 20,
		Clock:     func() time.Time { return started },
		Random:    s.rand,
	})
	if err := s.layout(); err != nil {
		return nil, fmt.Errorf("sandbox: laying out the filesystem: %w", err)
	}
	s.fs.SetClock(s.now)
	// The standard layout is the sandbox's, not the user's: it does not
	// count against FSLimit and MaxInodes.
	used, inodes := s.fs.Usage()
	maxInodes := opts.MaxInodes
	if maxInodes <= 0 {
		maxInodes = vfs.DefaultMaxInodes
	}
	s.fs.SetLimits(opts.FSLimit+used, maxInodes+inodes)
	env := []string{
		"HOME=/home/user",
		"PATH=/usr/bin:/bin",
		"USER=user",
		"LOGNAME=user",
		"SHELL=/bin/bash",
		"TERM=dumb",
		"LANG=C.UTF-8",
		"TMPDIR=/tmp",
		"HOSTNAME=wasmsand",
	}
	env = append(env, opts.Env...)
	sh, err := s.newShell(env, opts.Cwd)
	if err != nil {
		return nil, fmt.Errorf("sandbox: starting the shell: %w", err)
	}
	s.sh = sh
	s.shellPid.Store(int64(sh.Pid()))
	s.noteVars()
	for _, m := range opts.Mounts {
		if err := s.AddMount(m); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

func withDefaults(o Options) Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MemoryLimit <= 0 {
		o.MemoryLimit = DefaultMemoryLimit
	}
	if o.FSLimit <= 0 {
		o.FSLimit = DefaultFSLimit
	}
	if o.MaxProcesses <= 0 {
		o.MaxProcesses = DefaultMaxProcesses
	}
	if o.OutputLimit <= 0 {
		o.OutputLimit = DefaultOutputLimit
	}
	if o.Cwd == "" {
		o.Cwd = "/home/user"
	}
	return o
}

// now is the sandbox clock.
func (s *Sandbox) now() time.Time {
	if s.opts.Clock != nil {
		return s.opts.Clock()
	}
	return time.Now()
}

// toolMarker starts the small files in /bin and /usr/bin that stand for a
// tool module; the rest of the line names the command.
const toolMarker = "#!wasmsand-tool "

// layout creates the standard directories, devices and tool entries.
func (s *Sandbox) layout() error {
	for _, d := range []string{"/bin", "/usr/bin", "/home/user", "/tmp", "/mnt", "/dev", "/dev/fd", "/etc"} {
		if err := s.fs.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := s.fs.Chmod(vfs.RootIno, "/tmp", 0o1777, true); err != nil {
		return err
	}
	devs := []struct {
		name string
		dev  vfs.Device
	}{
		{"null", vfs.DevNull}, {"zero", vfs.DevZero}, {"urandom", vfs.DevRandom}, {"random", vfs.DevRandom},
		{"stdin", vfs.DevStdin}, {"stdout", vfs.DevStdout}, {"stderr", vfs.DevStderr},
	}
	for _, d := range devs {
		if err := s.fs.Mknod("/dev/"+d.name, d.dev, 0o666); err != nil {
			return err
		}
	}
	cmds := append(s.tools.names(), shellCommands...)
	for _, dir := range []string{"/usr/bin", "/bin"} {
		for _, c := range cmds {
			if err := s.fs.WriteFile(dir+"/"+c, []byte(toolMarker+c+"\n"), 0o755); err != nil {
				return err
			}
		}
	}
	if err := s.fs.WriteFile("/etc/hostname", []byte("wasmsand\n"), 0o644); err != nil {
		return err
	}
	return s.fs.WriteFile("/etc/passwd", []byte("root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000:user:/home/user:/bin/bash\n"), 0o644)
}

// Run runs cmd in the sandbox's shell and waits for it. The error is
// non-nil only when the sandbox itself cannot run commands (closed, or an
// internal failure), or when Options.Persist is set and saving the
// sandbox after the command failed (the result is returned too); a
// failing command gives a non-zero ExitCode.
func (s *Sandbox) Run(ctx context.Context, cmd string, opts ...RunOption) (*RunResult, error) {
	var rc runConfig
	for _, o := range opts {
		o(&rc)
	}
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	res, err := s.runLocked(ctx, cmd, rc)
	if err == nil {
		err = s.persist(ctx)
	}
	return res, err
}

func (s *Sandbox) runLocked(ctx context.Context, cmd string, rc runConfig) (*RunResult, error) {
	start := time.Now()
	stdout := &capture{limit: s.opts.OutputLimit, forward: rc.stdout}
	stderr := &capture{limit: s.opts.OutputLimit, forward: rc.stderr}
	res := &RunResult{}

	ctx, cancelCause := context.WithCancelCause(ctx)
	cancel := func() { cancelCause(context.Canceled) }
	defer cancel()
	run := newRunState(s, cancel)
	timeout := s.opts.Timeout
	if rc.timeout > 0 && rc.timeout < timeout {
		timeout = rc.timeout
	}
	run.timer = newRunTimer(timeout, func() { cancelCause(errTimedOut) })
	defer run.timer.stop()
	ctx = withRun(ctx, run)
	go watchShellMemory(ctx, run)

	sh := s.sh
	sh.SetStdio(rc.stdin, stdout, stderr)
	restore := s.applyRunConfig(sh, rc)
	var code int
	if rc.script != "" {
		code = sh.RunScript(ctx, cmd, rc.script, rc.scriptArgs)
	} else {
		code = sh.RunCommand(ctx, cmd)
	}
	res.Exited = sh.Exited()
	restore()
	sh.SetStdio(nil, nil, nil)

	timedOut := errors.Is(context.Cause(ctx), errTimedOut)
	cancel() // stops background jobs nobody waited for
	run.wait()
	res.Metrics = run.metrics()
	switch {
	case timedOut:
		res.Metrics.TimedOut = true
		fmt.Fprintf(stderr, "command timed out after %v\n", timeout)
		code = 124
	case run.limitErr() != nil:
		fmt.Fprintf(stderr, "bash: %v\n", run.limitErr())
		if code == 0 || code == 124 {
			code = 1
		}
	}
	s.noteVars()
	res.ExitCode = code
	res.Stdout, res.StdoutTruncated = stdout.result()
	res.Stderr, res.StderrTruncated = stderr.result()
	res.ExecutionTime = time.Since(start)
	return res, nil
}

// noteVars records the shell's directory and variables for GetEnv and
// the file API, which may be called while a Run is in progress.
func (s *Sandbox) noteVars() {
	vars := map[string]string{}
	for _, n := range s.sh.VarNames() {
		if v, ok := s.sh.Var(n); ok {
			vars[n] = v
		}
	}
	s.mu.Lock()
	s.cwd = s.sh.Dir()
	s.vars = vars
	s.mu.Unlock()
}

// errTimedOut is the cause of a Run's context when its timeout fires.
var errTimedOut = errors.New("command timed out")

// applyRunConfig applies per-Run environment and directory, returning a
// function that undoes them.
func (s *Sandbox) applyRunConfig(sh *shell.Interp, rc runConfig) func() {
	var undo []func()
	for _, kv := range rc.env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		old, had := sh.Var(k)
		if err := sh.SetVar(k, v, true); err != nil {
			continue
		}
		undo = append(undo, func() {
			if had {
				_ = sh.SetVar(k, old, true)
			} else {
				sh.UnsetVar(k)
			}
		})
	}
	if rc.cwd != "" {
		oldDir := sh.Dir()
		oldPwd, _ := sh.Var("OLDPWD")
		if err := sh.Cd(rc.cwd); err == nil {
			undo = append(undo, func() {
				_ = sh.Cd(oldDir)
				_ = sh.SetVar("OLDPWD", oldPwd, true)
			})
		}
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
}

// SetEnv sets and exports a variable in the shell.
func (s *Sandbox) SetEnv(key, value string) error {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.closed.Load() {
		return ErrClosed
	}
	if err := s.sh.SetVar(key, value, true); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	s.noteVars()
	return nil
}

// GetEnv returns the value of a shell variable, or "" if it is unset.
func (s *Sandbox) GetEnv(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vars[key]
}

// Complete lists the completions of the word before the end of line, as
// a terminal's Tab key offers them: command names (aliases, functions,
// builtins, keywords and programs on $PATH) for the first word, file
// names after it. It returns nil while a Run is in progress.
func (s *Sandbox) Complete(line string) []string {
	if !s.runMu.TryLock() {
		return nil
	}
	defer s.runMu.Unlock()
	if s.closed.Load() || s.sh == nil {
		return nil
	}
	return s.sh.Complete(line)
}

// Close releases the sandbox. It is idempotent; later calls of other
// methods fail with ErrClosed.
func (s *Sandbox) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.runMu.Lock()
	s.sh = nil
	s.runMu.Unlock()
	s.fs.UnmountAll()
	return nil
}

// abs makes p absolute against dir and cleans it.
func (s *Sandbox) abs(dir, p string) string {
	if !path.IsAbs(p) {
		p = path.Join(dir, p)
	}
	return path.Clean(p)
}

func (s *Sandbox) absCwd(p string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.abs(s.cwd, p)
}

// ReadFile returns the contents of a file.
func (s *Sandbox) ReadFile(name string) ([]byte, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	return s.fs.ReadFile(s.absCwd(name))
}

// WriteFile creates or replaces a file.
func (s *Sandbox) WriteFile(name string, data []byte, perm fs.FileMode) error {
	if s.closed.Load() {
		return ErrClosed
	}
	return s.fs.WriteFile(s.absCwd(name), data, perm)
}

// Mkdir creates a directory and any missing parents.
func (s *Sandbox) Mkdir(name string, perm fs.FileMode) error {
	if s.closed.Load() {
		return ErrClosed
	}
	return s.fs.MkdirAll(s.absCwd(name), perm)
}

// Stat describes a file, following symlinks.
func (s *Sandbox) Stat(name string) (fs.FileInfo, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	p := s.absCwd(name)
	st, err := s.fs.Stat(vfs.RootIno, p, true)
	if err != nil {
		return nil, err
	}
	return st.FileInfo(path.Base(p)), nil
}

// ReadDir lists a directory, sorted by name.
func (s *Sandbox) ReadDir(name string) ([]fs.DirEntry, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	return s.readDirAbs(s.absCwd(name))
}

func (s *Sandbox) readDirAbs(dir string) ([]fs.DirEntry, error) {
	ents, err := s.fs.ReadDir(vfs.RootIno, dir)
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, len(ents))
	for i, e := range ents {
		out[i] = dirEntry{fs: s.fs, dir: dir, e: e}
	}
	return out, nil
}

// Rm removes a file or an empty directory; with recursive, a whole tree.
func (s *Sandbox) Rm(name string, recursive bool) error {
	if s.closed.Load() {
		return ErrClosed
	}
	return s.rm(s.absCwd(name), recursive)
}

func (s *Sandbox) rm(p string, recursive bool) error {
	st, err := s.fs.Stat(vfs.RootIno, p, false)
	if err != nil {
		return err
	}
	if st.Type != vfs.TypeDir {
		return s.fs.Unlink(vfs.RootIno, p)
	}
	if recursive {
		ents, err := s.fs.ReadDir(vfs.RootIno, p)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if err := s.rm(path.Join(p, e.Name), true); err != nil {
				return err
			}
		}
	}
	return s.fs.Rmdir(vfs.RootIno, p)
}

// FS exposes the sandbox filesystem as a read-only io/fs view.
func (s *Sandbox) FS() fs.FS { return s.fs.IOFS() }

// dirEntry adapts a vfs.DirEntry to fs.DirEntry.
type dirEntry struct {
	fs  *vfs.FS
	dir string
	e   vfs.DirEntry
}

func (d dirEntry) Name() string      { return d.e.Name }
func (d dirEntry) IsDir() bool       { return d.e.Type == vfs.TypeDir }
func (d dirEntry) Type() fs.FileMode { return typeMode(d.e.Type) }
func (d dirEntry) Info() (fs.FileInfo, error) {
	st, err := d.fs.Stat(vfs.RootIno, path.Join(d.dir, d.e.Name), false)
	if err != nil {
		return nil, err
	}
	return st.FileInfo(d.e.Name), nil
}

func typeMode(t vfs.FileType) fs.FileMode {
	switch t {
	case vfs.TypeDir:
		return fs.ModeDir
	case vfs.TypeSymlink:
		return fs.ModeSymlink
	case vfs.TypeFIFO:
		return fs.ModeNamedPipe
	case vfs.TypeCharDevice:
		return fs.ModeDevice | fs.ModeCharDevice
	}
	return 0
}
