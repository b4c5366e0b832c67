// Package wasi is the WASI preview1 host of wasmsand: the 46 functions of
// the wasi_snapshot_preview1 module, served over the sandbox's in-memory
// filesystem (package vfs) and the host streams a process is given.
//
// The host is engine-neutral: HostModule returns plain wasm.HostFunc values
// that any wasm.Engine can bind. The functions are defined once per engine
// and find the calling guest's state, a *Process, in the context:
//
//	p, err := wasi.NewProcess(wasi.Config{Args: args, FS: fsys, Cwd: "/home/user", ...})
//	defer p.Close()
//	_, err = inst.Call(wasi.WithProcess(ctx, p), "_start")
//
// Blocking calls (reads from pipes and FIFOs, writes to full pipes,
// poll_oneoff sleeps) park the calling goroutine and end, by panicking with
// the context's error wrapped, when ctx is done.
//
// # Working directory
//
// Preview1 has no working directory; guests emulate one over preopened
// directories, and Go and wasi-libc do it differently. Go's syscall package
// joins relative paths to $PWD and resolves the result from the preopen
// with the longest matching name; wasi-libc always starts in "/", strips
// leading slashes and "./" from preopen names and resolves every path,
// absolute or relative, from the most recently listed preopen whose name is
// a prefix of it. So that relative paths resolve against Config.Cwd for both,
// a process whose Cwd is not "/" gets these preopens:
//
//	fd 3  "/"       the root: what Go resolves everything from
//	fd 4  "."       Cwd: what wasi-libc resolves relative paths and
//	                paths under unlisted top-level names from
//	fd 5… "./NAME"  one per top-level directory of the root at NewProcess
//	                time: wasi-libc resolves "/NAME/…" from these
//
// Go never matches "." or "./NAME" because its paths are absolute, and
// NewProcess adds PWD=Cwd to the environment when Env has no PWD and Cwd
// is not "/" (Go's default, so an environment given without PWD for a
// process in "/" stays exactly as given). What
// remains inexact for wasi-libc guests (which cannot tell "/x" from "x")
// is documented on NewProcess.
package wasi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// ModuleName is the import module name of WASI preview1.
const ModuleName = "wasi_snapshot_preview1"

// Config describes one guest process.
type Config struct {
	// Args are the command-line arguments, Args[0] the program name.
	Args []string
	// Env are the environment variables, each KEY=VALUE.
	Env []string
	// FS is the filesystem the process sees. Required.
	FS *vfs.FS
	// Cwd is the absolute working directory; guest-relative paths resolve
	// against it. Empty means "/".
	Cwd string
	// Stdin is fd 0; nil reads EOF. A *vfs.File (a redirected file or a
	// FIFO) is used as a file; Close leaves it open for its owner. A reader with a ReadContext(ctx, p) method,
	// or one with SetReadDeadline (an *os.File pipe), stops blocking when
	// the call's context is done; other readers cannot be interrupted.
	Stdin io.Reader
	// Stdout and Stderr are fds 1 and 2; nil discards. A write that fails
	// with a broken pipe ends the guest like SIGPIPE (exit status 141),
	// unless the guest ignores SIGPIPE (Process.IgnoreSIGPIPE).
	Stdout, Stderr io.Writer
	// Now is CLOCK_REALTIME; nil means FS.Now.
	Now func() time.Time
	// Nanotime is CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID and
	// CLOCK_THREAD_CPUTIME_ID in nanoseconds; nil means real monotonic time
	// since NewProcess. A virtual clock must advance by what Sleep slept
	// for sleeping guests to wake.
	Nanotime func() int64
	// Sleep waits for poll_oneoff's clock subscriptions; it returns early
	// with ctx's error when ctx is done. nil sleeps in real time.
	Sleep func(ctx context.Context, d time.Duration) error
	// Random is read by random_get; nil gives zeros.
	Random io.Reader
	// ExtraFiles are files the starter has open as fds above 2 (a shell's
	// exec 3<file): opening /dev/fd/N opens ExtraFiles[N] again, as
	// Linux does. The process never closes them.
	ExtraFiles map[int]*vfs.File
	// DropStderr, if not nil, is shown the bytes of every fd_write to fd
	// 2 before they are written; when it returns true they are dropped,
	// and the guest is told they were written. The sandbox uses it to
	// replace the Go runtime's report of a crash by one line.
	DropStderr func(b []byte) bool
}

// ContextReader is implemented by streams whose blocking reads can end when
// a context is done (vfs.File is one). The host uses it for fd 0 when
// Config.Stdin implements it.
type ContextReader interface {
	ReadContext(ctx context.Context, p []byte) (int, error)
}

// ContextWriter is the writing counterpart of ContextReader.
type ContextWriter interface {
	WriteContext(ctx context.Context, p []byte) (int, error)
}

// Process is the WASI state of one guest: its arguments, environment,
// clocks and file descriptor table. Host functions find it with
// FromContext. A Process is meant for one guest instance; Close may be
// called from any goroutine.
type Process struct {
	fs       *vfs.FS
	args     []byte // NUL-terminated strings, back to back
	argc     int
	env      []byte
	envc     int
	now      func() time.Time
	nanotime func() int64
	sleep    func(ctx context.Context, d time.Duration) error
	random   io.Reader
	umask    fs.FileMode
	extra    map[int]*vfs.File
	// dropStderr is Config.DropStderr.
	dropStderr func(b []byte) bool
	// ignoreSIGPIPE makes a write to a pipe with no reader fail with
	// EPIPE instead of ending the guest (IgnoreSIGPIPE).
	ignoreSIGPIPE atomic.Bool

	mu     sync.Mutex
	fds    []*fdEntry // index is the fd; nil is a free slot
	closed bool

	scratch []byte // reused by calls that gather bytes; guest calls are sequential
}

// fdEntry is one file descriptor.
type fdEntry struct {
	file   *vfs.File     // the open file or directory; nil for host streams
	owned  *atomic.Int32 // references to file shared by dups when the fd owns it; nil when not owned
	r      io.Reader     // host stream to read (fd 0); nil for VFS files
	w      io.Writer     // host stream to write (fds 1, 2)
	stream bool          // r/w is used instead of file
	end    refCounted    // the pipe end r or w is, for pipes from Process.Pipe; nil otherwise

	ftype   uint8
	isDir   bool
	ino     vfs.Ino
	base    uint64 // rights
	inherit uint64
	fdflags uint16

	preopen   string
	isPreopen bool

	dirents []vfs.DirEntry // fd_readdir snapshot, taken at cookie 0
	dotdot  vfs.Ino
}

// NewProcess creates the state of one guest process: fds 0, 1 and 2 from
// Config, then preopened directories starting at fd 3 (see the package
// documentation).
//
// For wasi-libc guests, which hand the host "x" for both "/x" and "x", the
// layout has these known limits when Cwd is not "/": "/" itself and
// absolute paths to names directly under the root that are not directories
// listed at NewProcess time (files such as "/f.txt", directories created
// later) resolve against Cwd; relative paths whose first component is the
// name of a top-level directory (for example "tmp/x" in a Cwd that has its
// own tmp) resolve from the root. Go guests have no such limits.
func NewProcess(cfg Config) (*Process, error) {
	if cfg.FS == nil {
		return nil, errors.New("wasi: Config.FS is nil; give the process a filesystem")
	}
	cwd := cfg.Cwd
	if cwd == "" {
		cwd = "/"
	}
	if !strings.HasPrefix(cwd, "/") {
		return nil, fmt.Errorf("wasi: Config.Cwd %q is not absolute; give an absolute path", cwd)
	}
	cwdIno, err := cfg.FS.Lookup(vfs.RootIno, cwd, true)
	if err != nil {
		return nil, fmt.Errorf("wasi: working directory: %w", err)
	}
	st, err := cfg.FS.StatIno(cwdIno)
	if err != nil {
		return nil, fmt.Errorf("wasi: working directory: %w", err)
	}
	if st.Type != vfs.TypeDir {
		return nil, fmt.Errorf("wasi: working directory %s is not a directory", cwd)
	}

	p := &Process{
		fs:       cfg.FS,
		now:      cfg.Now,
		nanotime: cfg.Nanotime,
		sleep:    cfg.Sleep,
		random:   cfg.Random,
		umask:    0o022,
		extra:    cfg.ExtraFiles,

		dropStderr: cfg.DropStderr,
	}
	if b, ok := scratchPool.Get().(*[]byte); ok {
		p.scratch = *b
	}
	if p.now == nil {
		p.now = cfg.FS.Now
	}
	if p.nanotime == nil {
		start := time.Now()
		p.nanotime = func() int64 { return int64(time.Since(start)) }
	}
	p.args, p.argc = packStrings(cfg.Args)
	env := cfg.Env
	if cwd != "/" && !hasVar(env, "PWD") {
		env = append(env[:len(env):len(env)], "PWD="+cwd)
	}
	p.env, p.envc = packStrings(env)

	p.fds = append(p.fds,
		stdioEntry(cfg.Stdin, nil, rightFdRead),
		stdioEntry(nil, cfg.Stdout, rightFdWrite),
		stdioEntry(nil, cfg.Stderr, rightFdWrite))

	if err := p.addPreopen("/", vfs.RootIno); err != nil {
		p.Close()
		return nil, err
	}
	if cwdIno != vfs.RootIno {
		if err := p.addPreopen(".", cwdIno); err != nil {
			p.Close()
			return nil, err
		}
		top, err := cfg.FS.ReadDir(vfs.RootIno, "/")
		if err != nil {
			p.Close()
			return nil, fmt.Errorf("wasi: listing the root: %w", err)
		}
		for _, d := range top {
			ino, err := cfg.FS.Lookup(vfs.RootIno, d.Name, true)
			if err != nil {
				continue // dangling symlink
			}
			if st, err := cfg.FS.StatIno(ino); err != nil || st.Type != vfs.TypeDir {
				continue
			}
			if err := p.addPreopen("./"+d.Name, ino); err != nil {
				continue // unreadable or unsearchable: wasi-libc falls back to Cwd
			}
		}
	}
	return p, nil
}

func stdioEntry(r io.Reader, w io.Writer, right uint64) *fdEntry {
	var f *vfs.File
	if r != nil {
		f, _ = r.(*vfs.File)
	} else if w != nil {
		f, _ = w.(*vfs.File)
	}
	if f != nil {
		e := &fdEntry{file: f, ino: f.Ino(), ftype: filetypeUnknown, base: fileRights, inherit: allRights}
		if st, err := f.Stat(); err == nil {
			e.ftype = filetypeOf(st.Type)
			e.isDir = st.Type == vfs.TypeDir
		}
		if f.Flags()&vfs.ORead == 0 {
			e.base &^= rightFdRead
		}
		if f.Flags()&vfs.OWrite == 0 {
			e.base &^= rightFdWrite
		}
		if f.Flags()&vfs.OAppend != 0 {
			e.fdflags |= fdflagAppend
		}
		return e
	}
	base := streamRights&^(rightFdRead|rightFdWrite) | right
	return &fdEntry{r: r, w: w, stream: true, ftype: filetypeUnknown, base: base, inherit: allRights}
}

func (p *Process) addPreopen(name string, ino vfs.Ino) error {
	f, err := p.fs.OpenIno(ino, 0)
	if err != nil {
		return fmt.Errorf("wasi: preopening %s: %w", name, err)
	}
	p.fds = append(p.fds, &fdEntry{
		file: f, owned: newRef(), ftype: filetypeDirectory, isDir: true, ino: ino,
		base: dirRights, inherit: allRights, preopen: name, isPreopen: true,
	})
	return nil
}

// packStrings lays out ss as NUL-terminated strings back to back.
func packStrings(ss []string) ([]byte, int) {
	n := 0
	for _, s := range ss {
		n += len(s) + 1
	}
	b := make([]byte, 0, n)
	for _, s := range ss {
		b = append(b, s...)
		b = append(b, 0)
	}
	return b, len(ss)
}

func hasVar(env []string, name string) bool {
	for _, kv := range env {
		if len(kv) > len(name) && kv[len(name)] == '=' && kv[:len(name)] == name {
			return true
		}
	}
	return false
}

// SetUmask sets the file mode creation mask: its bits are cleared from
// the permissions (0666, 0777) of files and directories the guest creates.
// A new Process has 022.
func (p *Process) SetUmask(mask fs.FileMode) { p.umask = mask & fs.ModePerm }

// IgnoreSIGPIPE sets what a write to a pipe with no reader left does:
// end the guest with status 141, as SIGPIPE does (the default), or, for a
// guest that ignores SIGPIPE, fail with EPIPE for the guest to handle.
func (p *Process) IgnoreSIGPIPE(ignore bool) { p.ignoreSIGPIPE.Store(ignore) }

// Close closes every file descriptor of the process. It is idempotent.
// Host streams given in Config are not closed: they belong to the caller.
func (p *Process) Close() error {
	p.mu.Lock()
	fds := p.fds
	p.fds = nil
	wasClosed := p.closed
	p.closed = true
	p.mu.Unlock()
	if !wasClosed && cap(p.scratch) > 0 && cap(p.scratch) <= maxScratch {
		b := p.scratch[:0]
		p.scratch = nil
		scratchPool.Put(&b)
	}
	for _, e := range fds {
		if e != nil {
			e.release()
		}
	}
	return nil
}

// release drops the fd's reference to its open file, closing it with the
// last reference.
func (e *fdEntry) release() {
	if e.end != nil {
		e.end.unref()
		return
	}
	if e.owned == nil {
		return
	}
	if e.owned.Add(-1) == 0 {
		e.file.Close()
	}
}

// newRef returns a reference count of one.
func newRef() *atomic.Int32 {
	r := new(atomic.Int32)
	r.Store(1)
	return r
}

type processKey struct{}

// WithProcess returns a context carrying p, for calls into a guest whose
// WASI imports are HostModule's functions.
func WithProcess(ctx context.Context, p *Process) context.Context {
	return context.WithValue(ctx, processKey{}, p)
}

// FromContext returns the Process WithProcess stored in ctx, or nil.
func FromContext(ctx context.Context) *Process {
	p, _ := ctx.Value(processKey{}).(*Process)
	return p
}

// get returns the entry of fd if it is open and holds every right in need.
func (p *Process) get(fd uint32, need uint64) (*fdEntry, errno) {
	p.mu.Lock()
	var e *fdEntry
	if uint64(fd) < uint64(len(p.fds)) {
		e = p.fds[fd]
	}
	p.mu.Unlock()
	if e == nil {
		return nil, errnoBADF
	}
	if e.base&need != need {
		return nil, errnoNOTCAPABLE
	}
	return e, errnoSuccess
}

// getDir is get for the directory fd of a path_* call.
func (p *Process) getDir(fd uint32, need uint64) (*fdEntry, errno) {
	e, en := p.get(fd, 0)
	if en != errnoSuccess {
		return nil, en
	}
	if !e.isDir {
		return nil, errnoNOTDIR
	}
	if e.base&need != need {
		return nil, errnoNOTCAPABLE
	}
	return e, errnoSuccess
}

// alloc installs e at the lowest free fd.
func (p *Process) alloc(e *fdEntry) (uint32, errno) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, errnoBADF
	}
	for i := range p.fds {
		if p.fds[i] == nil {
			p.fds[i] = e
			return uint32(i), errnoSuccess
		}
	}
	p.fds = append(p.fds, e)
	return uint32(len(p.fds) - 1), errnoSuccess
}

// buffer returns a scratch buffer of n bytes.
func (p *Process) buffer(n int) []byte {
	if cap(p.scratch) < n {
		b := make([]byte, n)
		if n <= maxScratch {
			p.scratch = b
		}
		return b
	}
	return p.scratch[:n]
}

// scratchPool keeps the scratch buffers of closed processes for new
// ones: a guest's first read through a copying memory (the js engine's)
// made a buffer of its read's size, often 32 KiB or more, in every
// process. Every user of a scratch buffer writes to the guest only bytes
// it filled, so a buffer needs no clearing between processes.
var scratchPool sync.Pool // of *[]byte

// maxScratch is the largest scratch buffer a Process keeps between calls.
const maxScratch = 1 << 20
