package find

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// maxBatch bounds the bytes of arguments one -exec ... + command gets.
const maxBatch = 128 * 1024

// execNode is an -exec, -execdir, -ok or -okdir action.
type execNode struct {
	fd      *finder
	argv    []string
	batch   bool // terminated by "+"
	inDir   bool // -execdir: run in the file's directory
	ask     bool // -ok: ask first
	pending []string
	size    int
	dir     string // the directory of the pending batch
	stdin   *bufio.Reader
}

func (p *parser) execNode(t string) (node, error) {
	start := p.pos
	for p.pos < len(p.args) {
		a := p.args[p.pos]
		if a == ";" {
			break
		}
		if a == "+" && p.pos > start && p.args[p.pos-1] == "{}" {
			break
		}
		p.pos++
	}
	if p.pos >= len(p.args) || p.pos == start {
		return nil, errorf("missing argument to `%s'", t)
	}
	argv := append([]string(nil), p.args[start:p.pos]...)
	n := &execNode{fd: p.f, argv: argv, batch: p.args[p.pos] == "+", inDir: strings.HasSuffix(t, "dir"), ask: strings.HasPrefix(t, "-ok")}
	p.pos++
	if n.batch {
		if n.ask {
			return nil, errorf("You may not use {} within the utility name for -execdir and -okdir, because this is a potential security problem.")
		}
		for _, a := range argv[:len(argv)-1] {
			if strings.Contains(a, "{}") {
				return nil, errorf("Only one instance of {} is supported with -exec%s ... +", strings.TrimPrefix(t, "-exec"))
			}
		}
		p.f.execs = append(p.f.execs, n)
	}
	return n, nil
}

// target returns the directory to run in and the name to pass for f.
func (n *execNode) target(f *file) (dir, name string) {
	if !n.inDir {
		return "", f.path
	}
	p := strings.TrimRight(f.path, "/")
	if p == "" {
		return "/", "/"
	}
	dir = path.Dir(p)
	return dir, "./" + path.Base(p)
}

func (n *execNode) eval(f *file) bool {
	dir, name := n.target(f)
	if n.batch {
		if n.inDir && len(n.pending) > 0 && dir != n.dir {
			n.flush()
		}
		if len(n.pending) > 0 && n.size+len(name)+1 > maxBatch {
			n.flush()
		}
		// The batch outlives the directory whose listing holds the names.
		if n.dir != dir {
			n.dir = strings.Clone(dir)
		}
		n.pending = append(n.pending, strings.Clone(name))
		n.size += len(name) + 1
		return true
	}
	argv := make([]string, len(n.argv))
	for i, a := range n.argv {
		argv[i] = strings.ReplaceAll(a, "{}", name)
	}
	if n.ask && !n.confirm(argv) {
		return false
	}
	code, ok := n.fd.run(argv, dir)
	return ok && code == 0
}

// confirm asks on standard error whether to run argv and reads the answer.
func (n *execNode) confirm(argv []string) bool {
	env := n.fd.env
	env.Out().Flush()
	fmt.Fprintf(env.Stderr, "< %s ... %s > ? ", argv[0], strings.Join(argv[1:], " "))
	if n.stdin == nil {
		n.stdin = bufio.NewReader(env.Stdin)
	}
	line, _ := n.stdin.ReadString('\n')
	line = strings.TrimSpace(line)
	return line != "" && (line[0] == 'y' || line[0] == 'Y')
}

// flush runs the pending batch of -exec ... +.
func (n *execNode) flush() {
	if len(n.pending) == 0 {
		return
	}
	argv := append(append([]string(nil), n.argv[:len(n.argv)-1]...), n.pending...)
	n.pending, n.size = n.pending[:0], 0
	code, ok := n.fd.run(argv, n.dir)
	if !ok || code != 0 {
		n.fd.status = 1
	}
}

// flushAll runs every pending batch (at the end of the run).
func (fd *finder) flushAll() {
	for _, n := range fd.execs {
		n.flush()
	}
}

// flushDir runs the -execdir ... + batches of a directory once find has
// left it.
func (fd *finder) flushDir(dir string) {
	for _, n := range fd.execs {
		if n.inDir && len(n.pending) > 0 && n.dir == dir {
			n.flush()
		}
	}
}

// run runs a command and returns its status; ok is false if it could not
// be started (which is reported).
func (fd *finder) run(argv []string, dir string) (int, bool) {
	env := fd.env
	env.Out().Flush()
	stdin, closeIn := inputFile(env.Stdin)
	defer closeIn()
	stdout, doneOut, err := outputFile(env.Stdout)
	if err != nil {
		fd.errorf("%s", tool.Strerror(err))
		return 0, false
	}
	stderr, doneErr, err := outputFile(env.Stderr)
	if err != nil {
		doneOut()
		fd.errorf("%s", tool.Strerror(err))
		return 0, false
	}
	p, err := proc.Start(argv, os.Environ(), dir, stdin, stdout, stderr)
	if err != nil {
		doneOut()
		doneErr()
		// As with GNU find, whose child reports the failure and exits
		// non-zero, this makes the action false but is no error of find's.
		switch {
		case errors.Is(err, proc.ErrNotFound):
			env.Errorf("%s: No such file or directory", quote(argv[0]))
		case errors.Is(err, proc.ErrPermission):
			env.Errorf("%s: Permission denied", quote(argv[0]))
		default:
			env.Errorf("%s: %v", quote(argv[0]), err)
		}
		return 0, false
	}
	code, err := p.Wait()
	doneOut()
	doneErr()
	if err != nil {
		fd.errorf("%s: %v", quote(argv[0]), err)
		return 0, false
	}
	return code, true
}

// inputFile returns a file for a child's standard input: r itself if it
// is one, else the null device.
func inputFile(r io.Reader) (*os.File, func()) {
	if f, ok := r.(*os.File); ok {
		return f, func() {}
	}
	f, err := os.Open(os.DevNull)
	if err != nil {
		return nil, func() {}
	}
	return f, func() { f.Close() }
}

var copyMu sync.Mutex

// outputFile returns a file for a child's output: w itself if it is a
// file, else a pipe copied into w until done is called.
func outputFile(w io.Writer) (*os.File, func(), error) {
	if f, ok := w.(*os.File); ok {
		return f, func() {}, nil
	}
	pr, pw, err := proc.Pipe()
	if err != nil {
		return nil, nil, err
	}
	finished := make(chan struct{})
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := pr.Read(buf)
			if n > 0 {
				copyMu.Lock()
				w.Write(buf[:n])
				copyMu.Unlock()
			}
			if err != nil {
				break
			}
		}
		pr.Close()
		close(finished)
	}()
	return pw, func() { pw.Close(); <-finished }, nil
}
