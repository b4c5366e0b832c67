// Package tee implements tee: copy standard input to standard output and
// files.
package tee

import (
	"errors"
	"io"
	"os"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "append"},
		{Short: 'i', Long: "ignore-interrupts"},
		{Short: 'p'},
		{Long: "output-error", Arg: tool.OptionalArg},
	},
	Help: `Usage: tee [OPTION]... [FILE]...
Copy standard input to each FILE, and also to standard output.

  -a, --append              append to the given FILEs, do not overwrite
  -i, --ignore-interrupts   ignore interrupt signals
  -p                        operate in a more appropriate MODE with pipes.
      --output-error[=MODE]   set behavior on write error.  See MODE below
      --help        display this help and exit
      --version     output version information and exit

MODE determines behavior with write errors on the outputs:
  warn           diagnose errors writing to any output
  warn-nopipe    diagnose errors writing to any output not a pipe
  exit           exit on error writing to any output
  exit-nopipe    exit on error writing to any output not a pipe
The default MODE for the -p option is 'warn-nopipe'.
With "nopipe" MODEs, exit immediately if all outputs become broken pipes.
The default operation when --output-error is not specified, is to
exit immediately on error writing to a pipe, and diagnose errors
writing to non pipe outputs.
`}

type output struct {
	w    io.Writer
	name string
	f    *os.File
}

// Main runs tee.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	appendMode := false
	mode := "" // "" is the default behaviour
	for _, f := range flags {
		switch f.Name {
		case "a":
			appendMode = true
		case "p":
			mode = "warn-nopipe"
		case "output-error":
			switch f.Arg {
			case "":
				mode = "warn-nopipe"
			case "warn", "warn-nopipe", "exit", "exit-nopipe":
				mode = f.Arg
			default:
				env.Errorf("invalid argument %s for '--output-error'", tool.Quote(f.Arg))
				return env.Usage(1, "Valid arguments are:\n  - 'warn'\n  - 'warn-nopipe'\n  - 'exit'\n  - 'exit-nopipe'")
			}
		}
	}
	status := 0
	outs := []*output{{w: env.Stdout, name: "standard output"}}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendMode {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	for _, name := range files {
		f, err := os.OpenFile(name, flag, 0o666)
		if err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			status = 1
			continue
		}
		outs = append(outs, &output{w: f, name: name, f: f})
	}
	buf := make([]byte, 64<<10)
	live := len(outs)
	for live > 0 {
		n, rerr := env.Stdin.Read(buf)
		if n > 0 {
			for _, o := range outs {
				if o.w == nil {
					continue
				}
				if _, err := o.w.Write(buf[:n]); err != nil {
					pipe := errors.Is(err, syscall.EPIPE)
					o.w = nil
					live--
					if pipe && (mode == "" || mode == "warn-nopipe" || mode == "exit-nopipe") {
						if mode == "" {
							return tool.ExitPipe
						}
						continue
					}
					env.Errorf("%s: %s", o.name, tool.Strerror(err))
					status = 1
					if mode == "exit" || mode == "exit-nopipe" {
						return 1
					}
				}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			env.Errorf("read error: %s", tool.Strerror(rerr))
			return 1
		}
	}
	for _, o := range outs {
		if o.f != nil {
			if err := o.f.Close(); err != nil && o.w != nil {
				env.Errorf("%s: %s", o.name, tool.Strerror(err))
				status = 1
			}
		}
	}
	return status
}
