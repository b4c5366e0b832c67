// Package nice implements nice: run a command with an adjusted niceness,
// or print the niceness. The sandbox runs every command at niceness 0 and
// has no scheduler priorities to change, so nice checks its adjustment as
// GNU nice does and runs the command as it is.
package nice

import (
	"os"
	"strconv"
	"strings"

	envcmd "github.com/wasmsand/wasmsand/wasm/guest/internal/env"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{{Short: 'n', Long: "adjustment", Arg: tool.RequiredArg}},
	Help: `Usage: nice [OPTION] [COMMAND [ARG]...]
Run COMMAND with an adjusted niceness, which affects process scheduling.
With no COMMAND, print the current niceness.  Niceness values range from
-20 (most favorable to the process) to 19 (least favorable to the process).

Mandatory arguments to long options are mandatory for short options too.
  -n, --adjustment=N   add integer N to the niceness (default 10)
      --help        display this help and exit
      --version     output version information and exit

NOTE: your shell may have its own version of nice, which usually supersedes
the version described here.  Please refer to your shell's documentation
for details about the options it supports.
`,
	UsageExit:     125,
	StopAtOperand: true,
}

// Main runs nice.
func Main(env *tool.Env) int {
	args := env.Args
	// The obsolete form: nice -N COMMAND or nice --N COMMAND.
	adj := ""
	if len(args) > 1 {
		a := args[1]
		if len(a) > 1 && a[0] == '-' && (isNum(a[1:]) || len(a) > 2 && a[1] == '-' && isNum(a[2:]) && a[2] != '-' && a[2] != '+') {
			adj = strings.TrimPrefix(a[1:], "-")
			if strings.HasPrefix(a, "--") {
				adj = "-" + a[2:]
			}
			env.Args = append([]string{args[0]}, args[2:]...)
		}
	}
	flags, cmd, code, done := spec.Parse(env)
	if done {
		return code
	}
	for _, f := range flags {
		adj = f.Arg
	}
	if adj != "" {
		if _, err := strconv.ParseInt(strings.TrimPrefix(adj, "+"), 10, 64); err != nil {
			env.Errorf("invalid adjustment %s", tool.Quote(adj))
			return 125
		}
	}
	if len(cmd) == 0 {
		if adj != "" {
			return env.Usage(125, "a command must be given with an adjustment")
		}
		env.Out().WriteString("0\n")
		return 0
	}
	status, err := envcmd.RunCommand(env, cmd, os.Environ(), "")
	if err != nil {
		return envcmd.ReportStartError(env, "", cmd[0], err)
	}
	return status
}

func isNum(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
