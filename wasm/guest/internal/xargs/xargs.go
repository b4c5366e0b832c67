// Package xargs implements the xargs command: build command lines from
// standard input and run them, as GNU findutils' xargs does, including
// parallel runs (-P) through package proc.
package xargs

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...
Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.

Mandatory and optional arguments to long options are also
mandatory or optional for the corresponding short option.
  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing and
                                 logical EOF processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,
                                 not by whitespace; disables quote and backslash
                                 processing and logical EOF processing
  -E END                       set logical EOF string; if END occurs as a line
                                 of input, the rest of the input is ignored
                                 (ignored if -0 or -d was specified)
  -e, --eof[=END]              equivalent to -E END if END is specified;
                                 otherwise, there is no end-of-file string
  -I R                         same as --replace=R
  -i, --replace[=R]            replace R in INITIAL-ARGS with names read
                                 from standard input, split at newlines;
                                 if R is unspecified, assume {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -l[MAX-LINES]                similar to -L but defaults to at most one non-
                                 blank input line if MAX-LINES is not specified
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -P, --max-procs=MAX-PROCS    run at most MAX-PROCS processes at a time
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;
                                 if this option is not given, COMMAND will be
                                 run at least once
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
      --show-limits            show limits on command-line length
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded
      --help                   display this help and exit
      --version                output version information and exit
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: '0', Long: "null"},
		{Short: 'a', Long: "arg-file", Arg: tool.RequiredArg},
		{Short: 'd', Long: "delimiter", Arg: tool.RequiredArg},
		{Short: 'E', Arg: tool.RequiredArg},
		{Short: 'e', Long: "eof", Arg: tool.OptionalArg},
		{Short: 'I', Arg: tool.RequiredArg},
		{Short: 'i', Long: "replace", Arg: tool.OptionalArg},
		{Short: 'L', Long: "max-lines", Arg: tool.RequiredArg},
		{Short: 'l', Arg: tool.OptionalArg},
		{Short: 'n', Long: "max-args", Arg: tool.RequiredArg},
		{Short: 'P', Long: "max-procs", Arg: tool.RequiredArg},
		{Short: 'r', Long: "no-run-if-empty"},
		{Short: 's', Long: "max-chars", Arg: tool.RequiredArg},
		{Long: "show-limits"},
		{Short: 't', Long: "verbose"},
		{Short: 'x', Long: "exit"},
		{Short: 'p', Long: "interactive"},
		{Short: 'o', Long: "open-tty"},
	},
	Help:          help,
	StopAtOperand: true,
}

// maxChars is the default and largest command-line length, as GNU's.
const (
	defaultMaxChars = 128 * 1024
	limitMaxChars   = 2 * 1024 * 1024
)

// config is one xargs run's settings.
type config struct {
	delim      int // -1: whitespace with quotes; else the byte
	eof        string
	replace    string
	hasReplace bool
	maxLines   int
	maxArgs    int
	maxProcs   int
	noRunEmpty bool
	maxChars   int
	verbose    bool
	exitOnSize bool
}

// Main runs xargs.
func Main(env *tool.Env) int {
	flags, ops, code, done := spec.Parse(env)
	if done {
		return code
	}
	c := &config{delim: -1, maxProcs: 1, maxChars: defaultMaxChars}
	argFile := ""
	num := func(f tool.Flag, opt string, minimum int) (int, bool) {
		n, err := strconv.Atoi(f.Arg)
		if err != nil {
			env.Errorf("invalid number %q for -%s option", f.Arg, opt)
			env.Usage(1, "")
			return 0, false
		}
		if n < minimum {
			env.Errorf("value %s for -%s option should be >= %d", f.Arg, opt, minimum)
			env.Usage(1, "")
			return 0, false
		}
		return n, true
	}
	for _, f := range flags {
		var ok = true
		switch f.Name {
		case "0":
			c.delim = 0
		case "a":
			argFile = f.Arg
		case "d":
			d, err := parseDelim(f.Arg)
			if err != nil {
				env.Errorf("%v", err)
				return 1
			}
			c.delim = int(d)
		case "E":
			c.eof = f.Arg
		case "e":
			c.eof = f.Arg
		case "I", "i":
			c.replace, c.hasReplace = f.Arg, true
			if f.Name == "i" && !f.HasArg {
				c.replace = "{}"
			}
			c.maxLines, c.maxArgs = 1, 0
			c.exitOnSize = true
		case "L", "l":
			c.maxLines, c.maxArgs, c.hasReplace = 1, 0, false
			if f.Name == "L" || f.HasArg {
				c.maxLines, ok = num(f, f.Name, 1)
			}
		case "n":
			c.maxArgs, ok = num(f, "n", 1)
			if c.hasReplace || c.maxLines > 0 {
				c.maxLines, c.hasReplace = 0, false
			}
		case "P":
			c.maxProcs, ok = num(f, "P", 0)
		case "r":
			c.noRunEmpty = true
		case "s":
			c.maxChars, ok = num(f, "s", 1)
			c.maxChars = min(c.maxChars, limitMaxChars)
		case "show-limits":
			fmt.Fprintf(env.Stderr, "Maximum length of command we could actually use: %d\nSize of command buffer we are actually using: %d\nMaximum parallelism (--max-procs must be no greater): %d\n", limitMaxChars, c.maxChars, 2147483647)
		case "t", "p":
			c.verbose = true
		case "x":
			c.exitOnSize = true
		}
		if !ok {
			return 1
		}
	}
	if len(ops) == 0 {
		ops = []string{"echo"}
	}
	var in io.Reader = env.Stdin
	if argFile != "" {
		f, err := os.Open(argFile)
		if err != nil {
			env.Errorf("Cannot open input file %s: %s", tool.Quote(argFile), tool.Strerror(err))
			return 1
		}
		defer f.Close()
		in = f
	}
	x := &runner{env: env, c: c, cmd: ops, rd: newReader(in, c)}
	return x.run()
}

// parseDelim parses a -d argument: a character or a C escape.
func parseDelim(s string) (byte, error) {
	if len(s) == 1 {
		return s[0], nil
	}
	if len(s) >= 2 && s[0] == '\\' {
		switch s[1] {
		case 'a':
			return '\a', nil
		case 'b':
			return '\b', nil
		case 'f':
			return '\f', nil
		case 'n':
			return '\n', nil
		case 'r':
			return '\r', nil
		case 't':
			return '\t', nil
		case 'v':
			return '\v', nil
		case '\\':
			return '\\', nil
		case 'x':
			if n, err := strconv.ParseUint(s[2:], 16, 8); err == nil {
				return byte(n), nil
			}
		case '0', '1', '2', '3':
			if n, err := strconv.ParseUint(s[1:], 8, 8); err == nil {
				return byte(n), nil
			}
		}
		return 0, fmt.Errorf("invalid escape sequence %s in input delimiter specification.", s)
	}
	return 0, fmt.Errorf("invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", s)
}

// reader splits the input into items.
type reader struct {
	br  *bufio.Reader
	c   *config
	eof bool
	err error
}

func newReader(r io.Reader, c *config) *reader {
	return &reader{br: bufio.NewReaderSize(r, 64<<10), c: c}
}

type quoteError struct{ kind string }

func (e *quoteError) Error() string {
	return fmt.Sprintf("unmatched %s quote; by default quotes are special to xargs unless you use the -0 option", e.kind)
}

// next returns the next item. endsLine reports that the item ended an
// input line (for -L), ok is false at the end of input.
func (r *reader) next() (item string, endsLine bool, ok bool) {
	if r.eof {
		return "", false, false
	}
	if r.c.delim >= 0 {
		s, err := r.br.ReadString(byte(r.c.delim))
		if err != nil {
			r.eof = true
			if err != io.EOF {
				r.err = err
			}
			if s == "" {
				return "", false, false
			}
			return s, true, true
		}
		return s[:len(s)-1], true, true
	}
	if r.c.hasReplace {
		// -I: each line is one item, leading blanks removed.
		for {
			s, err := r.br.ReadString('\n')
			if err != nil {
				r.eof = true
				if err != io.EOF {
					r.err = err
				}
			}
			s = strings.TrimSuffix(s, "\n")
			s = strings.TrimLeft(s, " \t")
			if s == "" {
				if r.eof {
					return "", false, false
				}
				continue
			}
			if r.c.eof != "" && s == r.c.eof {
				r.eof = true
				return "", false, false
			}
			return s, true, true
		}
	}
	var b strings.Builder
	inItem := false
	var quote byte
	for {
		ch, err := r.br.ReadByte()
		if err != nil {
			r.eof = true
			if err != io.EOF {
				r.err = err
			}
			if quote != 0 {
				kind := "double"
				if quote == '\'' {
					kind = "single"
				}
				r.err = &quoteError{kind}
				return "", false, false
			}
			if !inItem {
				return "", false, false
			}
			return r.checkEOF(b.String(), true)
		}
		if quote != 0 {
			if ch == quote {
				quote = 0
				continue
			}
			if ch == '\n' {
				kind := "double"
				if quote == '\'' {
					kind = "single"
				}
				r.eof = true
				r.err = &quoteError{kind}
				return "", false, false
			}
			b.WriteByte(ch)
			continue
		}
		switch ch {
		case ' ', '\t', '\n':
			if inItem {
				// An item ended by a blank does not end the line, so
				// a line with trailing blanks continues for -L.
				return r.checkEOF(b.String(), ch == '\n')
			}
		case '\'', '"':
			quote = ch
			inItem = true
		case '\\':
			next, err := r.br.ReadByte()
			if err == nil {
				b.WriteByte(next)
			}
			inItem = true
		default:
			b.WriteByte(ch)
			inItem = true
		}
	}
}

func (r *reader) checkEOF(s string, endsLine bool) (string, bool, bool) {
	if r.c.eof != "" && s == r.c.eof {
		r.eof = true
		return "", false, false
	}
	return s, endsLine, true
}

// runner builds and runs the command lines.
type runner struct {
	env    *tool.Env
	c      *config
	cmd    []string
	rd     *reader
	status int
	stop   atomic.Bool // a command failed in a way that ends xargs

	mu      sync.Mutex
	running int
	done    *sync.Cond
	wg      sync.WaitGroup
}

func argLen(s string) int { return len(s) + 1 }

func (x *runner) run() int {
	c := x.c
	x.done = sync.NewCond(&x.mu)
	base := 0
	for _, a := range x.cmd {
		base += argLen(a)
	}
	if base > c.maxChars && !c.hasReplace {
		x.env.Errorf("argument line too long")
		return 1
	}
	ran := false
	var args []string
	size := base
	lines := 0
	flush := func() {
		if x.stop.Load() {
			return
		}
		if len(args) == 0 && (c.noRunEmpty || ran) {
			return
		}
		ran = true
		x.exec(append(append([]string(nil), x.cmd...), args...))
		args, size, lines = args[:0], base, 0
	}
	for !x.stop.Load() {
		item, endsLine, ok := x.rd.next()
		if !ok {
			break
		}
		if c.hasReplace {
			argv := make([]string, len(x.cmd))
			total := 0
			for i, a := range x.cmd {
				argv[i] = strings.ReplaceAll(a, c.replace, item)
				total += argLen(argv[i])
			}
			if total > c.maxChars {
				x.env.Errorf("argument line too long")
				x.setStatus(1)
				break
			}
			ran = true
			x.exec(argv)
			continue
		}
		if size+argLen(item) > c.maxChars {
			if len(args) > 0 && !c.exitOnSize {
				flush()
			}
			if len(args) > 0 || base+argLen(item) > c.maxChars {
				x.env.Errorf("argument line too long")
				x.setStatus(1)
				x.stop.Store(true)
				break
			}
		}
		args = append(args, item)
		size += argLen(item)
		if endsLine {
			lines++
		}
		if (c.maxArgs > 0 && len(args) >= c.maxArgs) || (c.maxLines > 0 && lines >= c.maxLines) {
			flush()
		}
	}
	if x.rd.err != nil {
		var qe *quoteError
		if errors.As(x.rd.err, &qe) {
			// GNU runs what it has read before the bad quote.
			if len(args) > 0 {
				flush()
			}
			x.wait()
			x.env.Errorf("%s", qe.Error())
			return 1
		}
		x.env.Errorf("read error: %s", tool.Strerror(x.rd.err))
		x.setStatus(1)
	}
	if !c.hasReplace && !x.stop.Load() && (len(args) > 0 || (!ran && !c.noRunEmpty)) {
		flush()
	}
	x.wait()
	return x.status
}

func (x *runner) setStatus(code int) {
	x.mu.Lock()
	x.status = max(x.status, code)
	x.mu.Unlock()
}

// wait waits for every running command.
func (x *runner) wait() {
	x.wg.Wait()
}

// exec runs one command line, in the background when -P allows more than
// one at a time.
func (x *runner) exec(argv []string) {
	env := x.env
	if x.c.verbose {
		env.Out().Flush()
		fmt.Fprintln(env.Stderr, strings.Join(argv, " "))
	}
	if x.c.maxProcs != 1 {
		x.mu.Lock()
		for x.c.maxProcs > 0 && x.running >= x.c.maxProcs {
			x.done.Wait()
		}
		x.running++
		x.mu.Unlock()
	}
	stdout, stderr, cleanup, err := x.streams()
	if err != nil {
		env.Errorf("%s", tool.Strerror(err))
		x.setStatus(1)
		x.stop.Store(true)
		return
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		null = nil
	}
	p, err := proc.Start(argv, os.Environ(), "", null, stdout, stderr)
	if err != nil {
		if null != nil {
			null.Close()
		}
		cleanup()
		x.release()
		switch {
		case errors.Is(err, proc.ErrNotFound):
			env.Errorf("%s: No such file or directory", argv[0])
			x.setStatus(127)
		case errors.Is(err, proc.ErrPermission):
			env.Errorf("%s: Permission denied", argv[0])
			x.setStatus(126)
		default:
			env.Errorf("%s: %v", argv[0], err)
			x.setStatus(126)
		}
		x.stop.Store(true)
		return
	}
	finish := func() {
		code, err := p.Wait()
		if null != nil {
			null.Close()
		}
		cleanup()
		switch {
		case err != nil:
			env.Errorf("%s: %v", argv[0], err)
			x.setStatus(125)
		case code == 255:
			env.Errorf("%s: exited with status 255; aborting", argv[0])
			x.setStatus(124)
			x.stop.Store(true)
		case code > 128 && code < 255:
			env.Errorf("%s: terminated by signal %d", argv[0], code-128)
			x.setStatus(125)
			x.stop.Store(true)
		case code != 0:
			x.setStatus(123)
		}
		x.release()
	}
	if x.c.maxProcs == 1 {
		finish()
		return
	}
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		finish()
	}()
}

func (x *runner) release() {
	if x.c.maxProcs == 1 {
		return
	}
	x.mu.Lock()
	x.running--
	x.done.Signal()
	x.mu.Unlock()
}

// streams returns files for a command's standard output and error: the
// real files when xargs has them, else pipes copied into its writers.
func (x *runner) streams() (stdout, stderr *os.File, cleanup func(), err error) {
	x.env.Out().Flush()
	var waits []func()
	var closes []*os.File
	file := func(w io.Writer) (*os.File, error) {
		if f, ok := w.(*os.File); ok {
			return f, nil
		}
		pr, pw, err := proc.Pipe()
		if err != nil {
			return nil, err
		}
		done := make(chan struct{})
		go func() {
			io.Copy(lockedWriter{&x.mu, w}, pr)
			pr.Close()
			close(done)
		}()
		closes = append(closes, pw)
		waits = append(waits, func() { <-done })
		return pw, nil
	}
	if stdout, err = file(x.env.Stdout); err != nil {
		return nil, nil, nil, err
	}
	if stderr, err = file(x.env.Stderr); err != nil {
		return nil, nil, nil, err
	}
	cleanup = func() {
		for _, f := range closes {
			f.Close()
		}
		for _, w := range waits {
			w()
		}
	}
	return stdout, stderr, cleanup, nil
}

// lockedWriter serializes writes from several copying goroutines.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
