package awk

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var syscallEPIPE = syscall.EPIPE

// shell runs the commands an awk program starts, with "sh -c CMD" through
// package proc (the sandbox's shell under wasip1).
//
// Pipes are emulated with temporary files, since WASI cannot name a pipe:
// "CMD | getline" runs CMD to completion first and then reads its output
// from a file; print | CMD collects the lines in a file and runs CMD on
// them when the program closes it (close(CMD), or at exit). Output
// written meanwhile is held back so it stays in order.
type shell struct {
	env  *tool.Env
	out  *hookWriter
	errw *hookWriter

	popen   map[string]string // getline command → its output file
	pipes   map[string]*outPipe
	order   []*outPipe // open output pipes in the order they were opened
	pending []*outPipe // closed output pipes not yet run
	temps   []string   // files to remove at the end
	fns     map[string]any
}

type outPipe struct {
	cmd, path string
	done      bool
}

// hookWriter is awk's standard output or error: before each write it runs
// the output pipes closed since the last one, so their output comes first.
type hookWriter struct {
	sh *shell
	w  *bufio.Writer
}

func (h *hookWriter) Write(p []byte) (int, error) {
	if len(h.sh.pending) > 0 {
		h.sh.runPending()
	}
	return h.w.Write(p)
}

// WriteString is Write for a string. GoAWK writes print's arguments,
// separators and terminator with io.WriteString, which without this
// method would copy each into a new byte slice.
func (h *hookWriter) WriteString(s string) (int, error) {
	if len(h.sh.pending) > 0 {
		h.sh.runPending()
	}
	return h.w.WriteString(s)
}

// Flush flushes the buffered stream; GoAWK calls it before it reads input
// interactively and before messages.
func (h *hookWriter) Flush() error { return h.w.Flush() }

func newShell(env *tool.Env) *shell {
	sh := &shell{env: env, popen: map[string]string{}, pipes: map[string]*outPipe{}}
	sh.out = &hookWriter{sh: sh, w: env.Out()}
	sh.errw = &hookWriter{sh: sh, w: bufio.NewWriterSize(env.Stderr, 512)}
	return sh
}

// funcs are the Go functions the rewritten program calls.
func (sh *shell) funcs() map[string]any {
	if sh.fns == nil {
		sh.fns = map[string]any{
			fnSystem: sh.system,
			fnPopen:  sh.openInput,
			fnPipe:   sh.openOutput,
			fnClose:  sh.close,
		}
	}
	return sh.fns
}

// system runs cmd as awk's system() does and returns its exit status.
func (sh *shell) system(cmd string) int {
	sh.runPending()
	return sh.run(cmd, nil, nil)
}

// openInput runs cmd for "cmd | getline" the first time it is read and
// returns the name of the file holding its output.
func (sh *shell) openInput(cmd string) string {
	if path, ok := sh.popen[cmd]; ok {
		return path
	}
	sh.runPending()
	f, err := os.CreateTemp("", "awk-getline-")
	if err != nil {
		sh.fail(cmd, err)
		return os.DevNull
	}
	sh.temps = append(sh.temps, f.Name())
	sh.run(cmd, nil, f)
	f.Close()
	sh.popen[cmd] = f.Name()
	return f.Name()
}

// openOutput returns the file that print | cmd writes to; cmd runs on it
// when it is closed.
func (sh *shell) openOutput(cmd string) string {
	if p, ok := sh.pipes[cmd]; ok {
		return p.path
	}
	f, err := os.CreateTemp("", "awk-pipe-")
	if err != nil {
		sh.fail(cmd, err)
		return os.DevNull
	}
	f.Close()
	sh.temps = append(sh.temps, f.Name())
	p := &outPipe{cmd: cmd, path: f.Name()}
	sh.pipes[cmd] = p
	sh.order = append(sh.order, p)
	return p.path
}

// close maps the name given to awk's close() to the file behind it; a
// closed output pipe's command runs before the program's next output.
func (sh *shell) close(name string) string {
	if path, ok := sh.popen[name]; ok {
		delete(sh.popen, name)
		return path
	}
	if p, ok := sh.pipes[name]; ok {
		delete(sh.pipes, name)
		sh.pending = append(sh.pending, p)
		return p.path
	}
	return name
}

// runPending runs the output pipes closed so far.
func (sh *shell) runPending() {
	for len(sh.pending) > 0 {
		p := sh.pending[0]
		sh.pending = sh.pending[1:]
		sh.runPipe(p)
	}
}

func (sh *shell) runPipe(p *outPipe) {
	if p.done {
		return
	}
	p.done = true
	in, err := os.Open(p.path)
	if err != nil {
		sh.fail(p.cmd, err)
		return
	}
	defer in.Close()
	sh.run(p.cmd, in, nil)
}

// finish runs the output pipes still open when the program ends, in the
// order they were opened.
func (sh *shell) finish() error {
	sh.runPending()
	for _, p := range sh.order {
		sh.runPipe(p)
	}
	if err := sh.errw.Flush(); err != nil {
		return err
	}
	return nil
}

// cleanup removes the temporary files.
func (sh *shell) cleanup() {
	for _, name := range sh.temps {
		os.Remove(name)
	}
}

func (sh *shell) fail(cmd string, err error) {
	sh.out.Flush()
	sh.errw.Flush()
	fmt.Fprintf(sh.env.Stderr, "awk: cannot run %q: %v\n", cmd, err)
}

// run runs sh -c cmd and returns its exit status. A nil stdin means awk's
// own standard input (when it is a file) and a nil stdout awk's own
// standard output.
func (sh *shell) run(cmd string, stdin, stdout *os.File) int {
	sh.out.Flush()
	sh.errw.Flush()
	var err error
	if stdin == nil {
		if f, ok := sh.env.Stdin.(*os.File); ok {
			stdin = f
		} else {
			if stdin, err = os.Open(os.DevNull); err != nil {
				sh.fail(cmd, err)
				return -1
			}
			defer stdin.Close()
		}
	}
	var copyOut, copyErr *os.File
	if stdout == nil {
		if f, ok := sh.env.Stdout.(*os.File); ok {
			stdout = f
		} else if copyOut, err = sh.tempFile(); err != nil {
			sh.fail(cmd, err)
			return -1
		} else {
			stdout = copyOut
		}
	}
	stderr, ok := sh.env.Stderr.(*os.File)
	if !ok {
		if copyErr, err = sh.tempFile(); err != nil {
			sh.fail(cmd, err)
			return -1
		}
		stderr = copyErr
	}
	status, err := proc.Run([]string{"sh", "-c", cmd}, os.Environ(), "", stdin, stdout, stderr)
	if err != nil {
		if errors.Is(err, proc.ErrNotFound) {
			sh.fail(cmd, errors.New("sh: command not found"))
			status = 127
		} else {
			sh.fail(cmd, err)
			status = -1
		}
	}
	sh.copyBack(copyOut, sh.out.w)
	sh.copyBack(copyErr, sh.env.Stderr)
	return status
}

func (sh *shell) tempFile() (*os.File, error) {
	f, err := os.CreateTemp("", "awk-out-")
	if err == nil {
		sh.temps = append(sh.temps, f.Name())
	}
	return f, err
}

// copyBack copies what a command wrote to the temporary file f into w,
// for streams that are not files (in tests).
func (sh *shell) copyBack(f *os.File, w io.Writer) {
	if f == nil {
		return
	}
	defer f.Close()
	if _, err := f.Seek(0, io.SeekStart); err == nil {
		io.Copy(w, f)
	}
	if bw, ok := w.(*bufio.Writer); ok {
		bw.Flush()
	}
}
