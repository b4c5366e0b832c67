// Package sed implements GNU sed: the stream editor with its addresses,
// ranges, commands, BRE/ERE regular expressions, in-place editing and
// GNU's messages and exit codes. Input is streamed line by line.
package sed

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Exit statuses, as GNU sed uses them.
const (
	exitBadUsage = 1
	exitBadInput = 2
	exitPanic    = 4
)

const help = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the ` + "`l'" + ` command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'n', Long: "quiet"},
		{Short: 'n', Long: "silent"},
		{Long: "debug"},
		{Short: 'e', Long: "expression", Arg: tool.RequiredArg},
		{Short: 'f', Long: "file", Arg: tool.RequiredArg},
		{Long: "follow-symlinks"},
		{Short: 'i', Long: "in-place", Arg: tool.OptionalArg},
		{Short: 'l', Long: "line-length", Arg: tool.RequiredArg},
		{Long: "posix"},
		{Short: 'E', Long: "regexp-extended"},
		{Short: 'r'},
		{Short: 's', Long: "separate"},
		{Long: "sandbox"},
		{Short: 'u', Long: "unbuffered"},
		{Short: 'z', Long: "null-data"},
		{Short: 'b', Long: "binary"},
	},
	Help:      help,
	UsageExit: exitBadUsage,
}

// Main runs sed with env's arguments and returns its exit status.
func Main(env *tool.Env) int {
	flags, operands, code, done := spec.Parse(env)
	if done {
		return code
	}
	p := &parser{outputs: map[string]*output{}}
	var src strings.Builder
	haveScript := false
	quiet, separate, unbuf, posix := false, false, false, false
	inPlace, suffix, follow := false, "", false
	lineLen := 70
	delim := byte('\n')
	addChunk := func(text, file string) {
		start := src.Len()
		src.WriteString(text)
		c := chunk{start: start, end: src.Len(), file: file}
		if file == "" {
			c.expr = len(p.chunks) + 1
		}
		p.chunks = append(p.chunks, c)
		if !strings.HasSuffix(text, "\n") || file == "" {
			src.WriteByte('\n')
		}
	}
	for _, f := range flags {
		switch f.Name {
		case "n":
			quiet = true
		case "e":
			addChunk(f.Arg, "")
			haveScript = true
		case "f":
			var data []byte
			var err error
			if f.Arg == "-" {
				data, err = io.ReadAll(env.Stdin)
			} else {
				data, err = os.ReadFile(f.Arg)
			}
			if err != nil {
				env.Errorf("couldn't open file %s: %s", f.Arg, tool.Strerror(err))
				return exitPanic
			}
			addChunk(string(data), f.Arg)
			haveScript = true
		case "i":
			inPlace, separate, suffix = true, true, f.Arg
		case "l":
			// GNU reads the number with atoi: leading digits, else 0.
			end := 0
			for end < len(f.Arg) && f.Arg[end] >= '0' && f.Arg[end] <= '9' {
				end++
			}
			lineLen, _ = strconv.Atoi(f.Arg[:end])
		case "posix":
			posix = true
		case "follow-symlinks":
			follow = true
		case "E", "r":
			p.ere = true
		case "s":
			separate = true
		case "sandbox":
			p.sandbox = true
		case "u":
			unbuf = true
		case "z":
			delim = 0
		}
	}
	if !haveScript {
		if len(operands) == 0 {
			fmt.Fprint(env.Stderr, help)
			return exitBadUsage
		}
		addChunk(operands[0], "")
		operands = operands[1:]
	}
	// Expression numbers count -e expressions only.
	n := 0
	for i := range p.chunks {
		if p.chunks[i].file == "" {
			n++
			p.chunks[i].expr = n
		}
	}
	p.src = src.String()
	if err := p.parse(); err != nil {
		env.Errorf("%s", err.Error())
		var pe *panicError
		if errors.As(err, &pe) {
			return exitPanic
		}
		return exitBadUsage
	}
	if p.quiet {
		quiet = true
	}
	if inPlace && len(operands) == 0 {
		env.Errorf("no input files")
		return exitPanic
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}

	stdout := &output{name: "/dev/stdout", w: env.Out(), delim: delim, unbuf: unbuf}
	m := &machine{
		env: env, cmds: p.cmds, quiet: quiet, posix: posix, lineLen: lineLen,
		delim: delim, out: stdout, stdout: stdout, outputs: p.outputs, hsNL: true,
	}
	m.fast = planFast(m.cmds, quiet, unbuf, delim)
	if code, ok := m.openOutputs(); !ok {
		return code
	}
	defer m.closeOutputs()

	status := 0
	fail := func(err error) int {
		var fe *fatalError
		if errors.As(err, &fe) {
			env.Errorf("%s", fe.msg)
			return fe.code
		}
		env.Errorf("%s", err.Error())
		return exitPanic
	}
	if !separate {
		m.in = &input{env: env, names: operands, delim: delim}
		if err := m.runInput(); err != nil {
			return fail(err)
		}
		status = m.in.status
	} else {
		for _, name := range operands {
			if m.quit {
				break
			}
			m.in = &input{env: env, names: []string{name}, delim: delim}
			if inPlace && name != "-" {
				if follow {
					if real, err := filepath.EvalSymlinks(name); err == nil {
						name = real
					}
				}
				code, err := m.editInPlace(name, suffix)
				if err != nil {
					return fail(err)
				}
				if code > status {
					status = code
				}
				continue
			}
			if err := m.runInput(); err != nil {
				return fail(err)
			}
			if m.in.status > status {
				status = m.in.status
			}
		}
	}
	if err := m.flushOutputs(); err != nil {
		return env.WriteFailed(err)
	}
	if m.quit && m.exit != 0 {
		return m.exit
	}
	return status
}

// openOutputs creates the w files, truncating them, before any input is
// read, as GNU sed does.
func (m *machine) openOutputs() (int, bool) {
	for name, o := range m.outputs {
		o.delim = m.delim
		o.unbuf = m.stdout.unbuf
		switch name {
		case "/dev/stdout":
			*o = *m.stdout
			m.outputs[name] = m.stdout
			continue
		case "/dev/stderr":
			o.w = bufio.NewWriterSize(m.env.Stderr, 4096)
			o.unbuf = true
			continue
		}
		f, err := os.Create(name)
		if err != nil {
			m.env.Errorf("couldn't open file %s: %s", name, tool.Strerror(err))
			return exitPanic, false
		}
		o.f, o.w = f, bufio.NewWriter(f)
	}
	// Commands captured the output objects while parsing: point them at
	// the shared standard output where needed.
	for _, c := range m.cmds {
		if c.out != nil && c.out.name == "/dev/stdout" {
			c.out = m.stdout
		}
		if c.s != nil && c.s.out != nil && c.s.out.name == "/dev/stdout" {
			c.s.out = m.stdout
		}
	}
	return 0, true
}

func (m *machine) flushOutputs() error {
	for _, o := range m.outputs {
		if o.w != nil && o != m.stdout {
			o.w.Flush()
		}
	}
	return m.stdout.w.Flush()
}

func (m *machine) closeOutputs() {
	for _, o := range m.outputs {
		if o.f != nil {
			o.w.Flush()
			o.f.Close()
		}
	}
}

// editInPlace runs the script over one file, writing a temporary file in
// the same directory and renaming it over the original (after renaming the
// original to its backup name when suffix is set).
func (m *machine) editInPlace(name, suffix string) (int, error) {
	st, err := os.Stat(name)
	if err != nil {
		m.env.Errorf("can't read %s: %s", name, tool.Strerror(err))
		return exitBadInput, nil
	}
	if !st.Mode().IsRegular() {
		m.env.Errorf("couldn't edit %s: not a regular file", name)
		return exitPanic, nil
	}
	dir := filepath.Dir(name)
	tmp, err := os.CreateTemp(dir, "sed")
	if err != nil {
		return 0, &fatalError{fmt.Sprintf("couldn't open temporary file %s: %s", filepath.Join(dir, "sedXXXXXX"), tool.Strerror(err)), exitPanic}
	}
	out := &output{name: tmp.Name(), w: bufio.NewWriterSize(tmp, 64<<10), f: tmp, delim: m.delim}
	m.out = out
	runErr := m.runInput()
	m.out = m.stdout
	flushErr := out.w.Flush()
	closeErr := tmp.Close()
	if runErr != nil {
		os.Remove(tmp.Name())
		return 0, runErr
	}
	if flushErr != nil || closeErr != nil {
		os.Remove(tmp.Name())
		if flushErr == nil {
			flushErr = closeErr
		}
		return 0, &fatalError{fmt.Sprintf("couldn't write to %s: %s", tmp.Name(), tool.Strerror(flushErr)), exitPanic}
	}
	if perm, err := fsx.Perm(name, true); err == nil {
		fsx.Chmod(tmp.Name(), perm, true)
	}
	if suffix != "" {
		backup := backupName(name, suffix)
		if err := os.Rename(name, backup); err != nil {
			os.Remove(tmp.Name())
			return 0, &fatalError{fmt.Sprintf("cannot rename %s: %s", name, tool.Strerror(err)), exitPanic}
		}
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return 0, &fatalError{fmt.Sprintf("cannot rename %s: %s", tmp.Name(), tool.Strerror(err)), exitPanic}
	}
	return m.in.status, nil
}

// backupName applies an -i suffix: each '*' stands for the file's base
// name; without one the suffix is appended. A suffix with '/' names a
// path relative to the file's directory.
func backupName(name, suffix string) string {
	dir, base := filepath.Split(name)
	if !strings.Contains(suffix, "*") {
		return name + suffix
	}
	b := strings.ReplaceAll(suffix, "*", base)
	if strings.Contains(b, "/") {
		return b
	}
	return dir + b
}
