// Package dirname implements dirname: strip the last component from file
// names.
package dirname

import (
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{{Short: 'z', Long: "zero"}},
	Help: `Usage: dirname [OPTION] NAME...
Output each NAME with its last non-slash component and trailing slashes
removed; if NAME contains no /'s, output '.' (meaning the current directory).

  -z, --zero     end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs dirname.
func Main(env *tool.Env) int {
	flags, names, code, done := spec.Parse(env)
	if done {
		return code
	}
	eol := byte('\n')
	if len(flags) > 0 {
		eol = 0
	}
	if len(names) == 0 {
		return env.Usage(1, "missing operand")
	}
	w := env.Out()
	for _, n := range names {
		w.WriteString(Dir(n))
		w.WriteByte(eol)
	}
	return 0
}

// Dir returns name without its last non-slash component and trailing
// slashes, "." when nothing is left, as dirname(1) prints it.
func Dir(name string) string {
	s := strings.TrimRight(name, "/")
	if s == "" {
		if name == "" {
			return "."
		}
		return "/"
	}
	i := strings.LastIndexByte(s, '/')
	if i < 0 {
		return "."
	}
	s = strings.TrimRight(s[:i], "/")
	if s == "" {
		return "/"
	}
	return s
}
