// Package awk is the awk command: GoAWK's interpreter behind GNU awk's
// command line (-F -v -f -e), with system(), "cmd | getline" and
// print | "cmd" run through the sandbox's own shell (see shell.go).
package awk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/benhoyt/goawk/interp"
	"github.com/benhoyt/goawk/lexer"
	"github.com/benhoyt/goawk/parser"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// GoAWKVersion is the GoAWK release the command is built on.
const GoAWKVersion = "v1.31.0"

const usage = `Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
POSIX options:		GNU long options: (standard)
	-f progfile		--file=progfile
	-F fs			--field-separator=fs
	-v var=val		--assign=var=val
Short options:		GNU long options: (extensions)
	-b			--characters-as-bytes
	-e 'program-text'	--source='program-text'
	-h			--help
	-V			--version

awk is GoAWK ` + GoAWKVersion + ` (POSIX awk with GNU awk's command line).
system(), "cmd | getline" and print | "cmd" run commands with sh -c.

Examples:
	awk '{ sum += $1 }; END { print sum }' file
	awk -F: '{ print $1 }' /etc/passwd
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'F', Long: "field-separator", Arg: tool.RequiredArg},
		{Short: 'v', Long: "assign", Arg: tool.RequiredArg},
		{Short: 'f', Long: "file", Arg: tool.RequiredArg},
		{Short: 'e', Long: "source", Arg: tool.RequiredArg},
		{Short: 'b', Long: "characters-as-bytes"},
		{Short: 'h', Long: "help"},
		{Short: 'V', Long: "version"},
	},
	Help:          usage,
	UsageExit:     1,
	StopAtOperand: true,
}

// Main runs awk.
func Main(env *tool.Env) int {
	flags, operands, code, done := spec.Parse(env)
	if done {
		return code
	}
	var (
		fs      string
		hasFS   bool
		vars    []string
		src     bytes.Buffer
		hasProg bool
		chars   = true
	)
	for _, f := range flags {
		switch f.Name {
		case "F":
			fs, hasFS = f.Arg, true
		case "v":
			name, value, ok := strings.Cut(f.Arg, "=")
			if !ok || !isName(name) {
				env.Errorf("fatal: `%s' is not a legal variable name", name)
				return 2
			}
			v, err := lexer.Unescape(value)
			if err != nil {
				v = value
			}
			vars = append(vars, name, v)
		case "f":
			data, err := readSource(env, f.Arg)
			if err != nil {
				env.Errorf("fatal: cannot open source file `%s' for reading: %s", f.Arg, tool.Strerror(err))
				return 2
			}
			src.Write(data)
			src.WriteByte('\n')
			hasProg = true
		case "e":
			src.WriteString(f.Arg)
			src.WriteByte('\n')
			hasProg = true
		case "b":
			chars = false
		case "h":
			return env.Help(usage)
		case "V":
			fmt.Fprintf(env.Out(), "awk (wasmsand) %s, GoAWK %s\n", tool.Version, GoAWKVersion)
			return 0
		}
	}
	if !hasProg {
		if len(operands) == 0 {
			io.WriteString(env.Stderr, usage)
			return 1
		}
		src.WriteString(operands[0])
		operands = operands[1:]
	}
	if hasFS {
		if v, err := lexer.Unescape(fs); err == nil {
			fs = v
		}
		vars = append(vars, "FS", fs)
	}

	sh := newShell(env)
	defer sh.cleanup()
	prog, err := parser.ParseProgram(rewrite(src.Bytes()), &parser.ParserConfig{Funcs: sh.funcs()})
	if err != nil {
		var pe *parser.ParseError
		if errors.As(err, &pe) {
			env.Errorf("syntax error at source line %d: %s", pe.Position.Line, pe.Message)
		} else {
			env.Errorf("%v", err)
		}
		return 1
	}
	var stdin io.Reader = env.Stdin
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	cfg := &interp.Config{
		Stdin:         stdin,
		Output:        sh.out,
		Error:         sh.errw,
		Argv0:         "awk",
		Args:          operands,
		Vars:          vars,
		Funcs:         sh.funcs(),
		Environ:       environ(env),
		Chars:         chars,
		NewlineOutput: interp.RawNewlineMode,
		ShellCommand:  []string{"sh", "-c"},
	}
	it, err := interp.New(prog)
	if err != nil {
		env.Errorf("%v", err)
		return 2
	}
	status, err := it.ExecuteContext(&memoryWatch{Context: context.Background()}, cfg)
	if errors.Is(err, tool.ErrMemoryExhausted) {
		sh.finish()
		env.Errorf("%v", err)
		return 2
	}
	if ferr := sh.finish(); ferr != nil && err == nil {
		err = ferr
	}
	if err != nil {
		if errors.Is(err, syscallEPIPE) {
			return tool.ExitPipe
		}
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Op == "open" {
			env.Errorf("fatal: cannot open file `%s' for reading: %s", pe.Path, tool.Strerror(pe.Err))
			return 2
		}
		env.Errorf("fatal: %s", strings.TrimSuffix(err.Error(), "\n"))
		return 2
	}
	return status
}

// readSource reads a -f program file ("-" is standard input).
func readSource(env *tool.Env, name string) ([]byte, error) {
	if name == "-" || name == "/dev/stdin" {
		return io.ReadAll(env.Stdin)
	}
	return os.ReadFile(name)
}

// environ lists the environment as name-value pairs for ENVIRON.
func environ(env *tool.Env) []string {
	if env.Getenv == nil {
		return []string{}
	}
	kv := os.Environ()
	out := make([]string, 0, 2*len(kv))
	for _, s := range kv {
		if k, _, ok := strings.Cut(s, "="); ok {
			out = append(out, k, env.Getenv(k))
		}
	}
	return out
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// memoryWatch is the context awk's programs run under, so that an array
// bomb ends with GNU's one line, "awk: memory exhausted", and status 2
// rather than the Go runtime's fatal error: GoAWK looks at its context
// every 1000 instructions and asks Err only once Done is closed, so Done
// is closed from the start and Err checks the heap (every 16th time:
// reading the runtime's metrics costs about as much as 1000
// instructions). GoAWK's check before each instruction is about 1% of
// awk's CPU time under WebAssembly, and it saves fuel: without a context
// (Execute) the instruction loop branches around the check, and each
// branch in that function re-enters its 2,147 nested blocks (Go's
// dispatch on WebAssembly), so {s+=$3} over 200,000 records took 12.2
// billion fuel rather than 11.5.
type memoryWatch struct {
	context.Context
	n int
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (w *memoryWatch) Done() <-chan struct{} { return closed }

func (w *memoryWatch) Err() error {
	if w.n++; w.n&15 != 0 {
		return nil
	}
	return tool.HeapNearCap()
}
