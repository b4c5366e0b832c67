// Package tty implements tty: print the terminal on standard input. A
// sandbox gives its commands no terminal device, so standard input is
// never one and tty says "not a tty", as GNU tty does for a pipe or file.
package tty

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{{Short: 's', Long: "silent"}, {Long: "quiet"}},
	Help: `Usage: tty [OPTION]...
Print the file name of the terminal connected to standard input.

  -s, --silent, --quiet   print nothing, only return an exit status
      --help        display this help and exit
      --version     output version information and exit
`,
	UsageExit: 2,
}

// Main runs tty.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	silent := len(flags) > 0
	if len(args) > 0 {
		return env.Usage(2, "extra operand %s", tool.Quote(args[0]))
	}
	name := ""
	if f, ok := env.Stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 && fi.Mode()&os.ModeDevice != 0 {
			name = terminalName(f)
		}
	}
	if name == "" {
		if !silent {
			env.Out().WriteString("not a tty\n")
		}
		return 1
	}
	if !silent {
		env.Out().WriteString(name + "\n")
	}
	return 0
}

// terminalName names the terminal f is, "" if it is none. Natively
// /proc/self/fd says; in the sandbox no descriptor is a terminal.
func terminalName(f *os.File) string {
	name, err := os.Readlink("/proc/self/fd/0")
	if err != nil || f.Fd() != 0 {
		return ""
	}
	if len(name) < 8 || name[:5] != "/dev/" || name == "/dev/null" {
		return ""
	}
	return name
}
