// Package printenv implements printenv: print all or part of the
// environment.
package printenv

import (
	"os"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options:   []tool.Option{{Short: '0', Long: "null"}},
	UsageExit: 2,
	Help: `Usage: printenv [OPTION]... [VARIABLE]...
Print the values of the specified environment VARIABLE(s).
If no VARIABLE is specified, print name and value pairs for them all.

  -0, --null     end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs printenv. It reads the process environment (os.Environ).
func Main(env *tool.Env) int {
	flags, names, code, done := spec.Parse(env)
	if done {
		return code
	}
	eol := byte('\n')
	if len(flags) > 0 {
		eol = 0
	}
	w := env.Out()
	environ := os.Environ()
	if len(names) == 0 {
		for _, kv := range environ {
			w.WriteString(kv)
			w.WriteByte(eol)
		}
		return 0
	}
	status := 0
	for _, n := range names {
		found := false
		if !strings.Contains(n, "=") {
			for _, kv := range environ {
				if k, v, _ := strings.Cut(kv, "="); k == n {
					w.WriteString(v)
					w.WriteByte(eol)
					found = true
				}
			}
		}
		if !found {
			status = 1
		}
	}
	return status
}
