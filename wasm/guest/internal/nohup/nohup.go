// Package nohup implements nohup: run a command immune to hangups. No
// stream of a sandboxed command is a terminal, so none is redirected and
// the command runs on nohup's own streams, as GNU nohup runs it then.
package nohup

import (
	"os"

	envcmd "github.com/wasmsand/wasmsand/wasm/guest/internal/env"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = &tool.Spec{
	StopAtOperand: true,
	UsageExit:     125,
	Help: `Usage: nohup COMMAND [ARG]...
  or:  nohup OPTION
Run COMMAND, ignoring hangup signals.

      --help        display this help and exit
      --version     output version information and exit

If standard input is a terminal, redirect it from an unreadable file.
If standard output is a terminal, append output to 'nohup.out' if possible,
'$HOME/nohup.out' otherwise.
If standard error is a terminal, redirect it to standard output.
To save output to FILE, use 'nohup COMMAND > FILE'.
`,
}

// Main is the nohup command.
func Main(env *tool.Env) int {
	_, argv, code, done := spec.Parse(env)
	if done {
		return code
	}
	if len(argv) == 0 {
		return env.Usage(125, "missing operand")
	}
	status, err := envcmd.RunCommand(env, argv, os.Environ(), "")
	if err != nil {
		return envcmd.ReportStartError(env, "failed to run command ", argv[0], err)
	}
	return status
}
