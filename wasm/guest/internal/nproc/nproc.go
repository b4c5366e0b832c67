// Package nproc implements nproc: print the number of processing units.
// A sandbox runs its guests on one thread, so the answer is 1.
package nproc

import (
	"strconv"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Count is the number of processing units reported.
const Count = 1

var spec = tool.Spec{
	Options: []tool.Option{{Long: "all"}, {Long: "ignore", Arg: tool.RequiredArg}},
	Help: `Usage: nproc [OPTION]...
Print the number of processing units available to the current process,
which may be less than the number of online processors

      --all      print the number of installed processors
      --ignore=N  if possible, exclude N processing units
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs nproc.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	if len(args) > 0 {
		return env.Usage(1, "extra operand %s", tool.Quote(args[0]))
	}
	n := Count
	ignore := 0
	all := false
	for _, f := range flags {
		switch f.Name {
		case "all":
			all = true
		case "ignore":
			v, err := strconv.ParseUint(f.Arg, 10, 63)
			if err != nil {
				env.Errorf("invalid number: %s", tool.Quote(f.Arg))
				return 1
			}
			ignore = int(min(v, 1<<31))
		}
	}
	if !all {
		n = max(n-ignore, 1)
	}
	w := env.Out()
	w.WriteString(strconv.Itoa(n))
	w.WriteByte('\n')
	return 0
}
