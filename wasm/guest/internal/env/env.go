// Package env implements env: run a program in a modified environment, or
// print the environment.
package env

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'i', Long: "ignore-environment"},
		{Short: '0', Long: "null"},
		{Short: 'u', Long: "unset", Arg: tool.RequiredArg},
		{Short: 'C', Long: "chdir", Arg: tool.RequiredArg},
		{Short: 'S', Long: "split-string", Arg: tool.RequiredArg},
		{Short: 'v', Long: "debug"},
	},
	UsageExit:     125,
	StopAtOperand: true,
	Help: `Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Set each NAME to VALUE in the environment and run COMMAND.

  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -u, --unset=NAME     remove variable from the environment
  -C, --chdir=DIR      change working directory to DIR
  -S, --split-string=S  process and split S into separate arguments;
                        used to pass multiple arguments on shebang lines
  -v, --debug          print verbose information for each processing step
      --help        display this help and exit
      --version     output version information and exit

A mere - implies -i.  If no COMMAND, print the resulting environment.
`}

// Exit statuses of a command env (or timeout, nice...) could not run.
const (
	ExitFailure   = 125
	ExitCannotRun = 126
	ExitNotFound  = 127
)

// Main runs env.
func Main(env *tool.Env) int {
	flags, operands, code, done := spec.Parse(env)
	if done {
		return code
	}
	environ := os.Environ()
	eol := byte('\n')
	dir := ""
	debug := false
	var extra []string
	for _, f := range flags {
		switch f.Name {
		case "i":
			environ = []string{}
		case "0":
			eol = 0
		case "C":
			dir = f.Arg
		case "v":
			debug = true
		case "S":
			words, err := SplitString(f.Arg)
			if err != nil {
				env.Errorf("%s", err.Error())
				return ExitFailure
			}
			extra = append(extra, words...)
		}
	}
	if len(operands) > 0 && operands[0] == "-" {
		environ = []string{}
		operands = operands[1:]
	}
	for _, f := range flags {
		if f.Name != "u" {
			continue
		}
		if f.Arg == "" || strings.Contains(f.Arg, "=") {
			env.Errorf("cannot unset %s: Invalid argument", tool.Quote(f.Arg))
			return ExitFailure
		}
		environ = unset(environ, f.Arg)
	}
	operands = append(extra, operands...)
	for len(operands) > 0 {
		k, v, ok := strings.Cut(operands[0], "=")
		if !ok || k == "" {
			break
		}
		environ = append(unset(environ, k), k+"="+v)
		operands = operands[1:]
	}
	if len(operands) == 0 {
		if dir != "" {
			env.Errorf("must specify command with --chdir (-C)")
			return env.Usage(ExitFailure, "")
		}
		w := env.Out()
		for _, kv := range environ {
			w.WriteString(kv)
			w.WriteByte(eol)
		}
		return 0
	}
	if eol == 0 {
		env.Errorf("cannot specify --null (-0) with command")
		return env.Usage(ExitFailure, "")
	}
	if debug {
		for i, a := range operands {
			if i == 0 {
				env.Errorf("executing: %s", a)
			}
			env.Errorf("   arg[%d]= %s", i, tool.Quote(a))
		}
	}
	if dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			if err == nil {
				err = errors.New("Not a directory")
			}
			env.Errorf("cannot change directory to %s: %s", tool.Quote(dir), tool.Strerror(err))
			return ExitFailure
		}
	}
	status, err := RunCommand(env, withDefaultPath(operands, environ), environ, dir)
	if err != nil {
		return ReportStartError(env, "", operands[0], err)
	}
	return status
}

// ReportStartError reports a command that could not start, as GNU env,
// timeout and nice do (after prefix, such as "failed to run command "),
// and returns 126 or 127.
func ReportStartError(env *tool.Env, prefix, name string, err error) int {
	switch {
	case errors.Is(err, proc.ErrNotFound):
		env.Errorf("%s%s: No such file or directory", prefix, tool.Quote(name))
		return ExitNotFound
	case errors.Is(err, proc.ErrPermission):
		env.Errorf("%s%s: Permission denied", prefix, tool.Quote(name))
		return ExitCannotRun
	}
	env.Errorf("%s%s: %s", prefix, tool.Quote(name), tool.Strerror(err))
	return ExitCannotRun
}

// RunCommand runs argv with the given environment and directory on env's
// standard streams and returns its status.
func RunCommand(env *tool.Env, argv, environ []string, dir string) (int, error) {
	p, finish, err := Start(env, argv, environ, dir)
	if err != nil {
		return 0, err
	}
	status, err := p.Wait()
	finish()
	return status, err
}

// Start flushes env's output and starts argv on env's standard streams.
// Streams that are not files (as in tests) are relayed through pipes;
// finish, called after the process ends, waits for the relays.
func Start(env *tool.Env, argv, environ []string, dir string) (p *proc.Process, finish func(), err error) {
	env.Out().Flush()
	var closers []func()
	var waits []chan struct{}
	file := func(s any, input bool) (*os.File, error) {
		if f, ok := s.(*os.File); ok {
			return f, nil
		}
		r, w, err := proc.Pipe()
		if err != nil {
			return nil, err
		}
		if input {
			// Not waited for: the command may end before reading it all.
			go func() {
				if rd, ok := s.(io.Reader); ok && rd != nil {
					io.Copy(w, rd)
				}
				w.Close()
			}()
			closers = append(closers, func() { r.Close() })
			return r, nil
		}
		done := make(chan struct{})
		waits = append(waits, done)
		go func() {
			io.Copy(s.(io.Writer), r)
			r.Close()
			close(done)
		}()
		closers = append(closers, func() { w.Close() })
		return w, nil
	}
	in, err := file(env.Stdin, true)
	if err != nil {
		return nil, nil, err
	}
	out, err := file(env.Stdout, false)
	if err != nil {
		return nil, nil, err
	}
	errf, err := file(env.Stderr, false)
	if err != nil {
		return nil, nil, err
	}
	p, err = proc.Start(argv, environ, dir, in, out, errf)
	// The child holds its own copies: close ours so relays see EOF.
	for _, c := range closers {
		c()
	}
	finish = func() {
		for _, w := range waits {
			<-w
		}
	}
	if err != nil {
		finish()
		return nil, nil, err
	}
	return p, finish, nil
}

// defaultPath is where a command is looked up when the environment has no
// PATH, as execvp does.
const defaultPath = "/bin:/usr/bin"

// withDefaultPath resolves argv[0] along defaultPath when environ sets no
// PATH, since the command is looked up with the new environment.
func withDefaultPath(argv, environ []string) []string {
	if strings.Contains(argv[0], "/") {
		return argv
	}
	for _, kv := range environ {
		if strings.HasPrefix(kv, "PATH=") {
			return argv
		}
	}
	for _, dir := range strings.Split(defaultPath, ":") {
		p := dir + "/" + argv[0]
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return append([]string{p}, argv[1:]...)
		}
	}
	return argv
}

func unset(environ []string, name string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	return out
}

// SplitString splits the argument of env -S into words: spaces separate
// them, single and double quotes group, backslash escapes as in GNU env.
func SplitString(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("no terminating quote in -S string")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
					cur.WriteByte(unescape(s[i]))
					continue
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("no terminating quote in -S string")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] == 'c' {
				i = len(s)
				continue
			}
			if s[i] == '_' {
				if inWord {
					words = append(words, cur.String())
					cur.Reset()
					inWord = false
				}
				continue
			}
			cur.WriteByte(unescape(s[i]))
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'f':
		return '\f'
	case 'v':
		return '\v'
	}
	return c
}
