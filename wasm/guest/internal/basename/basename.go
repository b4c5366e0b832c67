// Package basename implements basename: strip directory and suffix from
// file names.
package basename

import (
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "multiple"},
		{Short: 's', Long: "suffix", Arg: tool.RequiredArg},
		{Short: 'z', Long: "zero"},
	},
	Help: `Usage: basename NAME [SUFFIX]
  or:  basename OPTION... NAME...
Print NAME with any leading directory components removed.
If specified, also remove a trailing SUFFIX.

  -a, --multiple       support multiple arguments and treat each as a NAME
  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a
  -z, --zero           end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs basename.
func Main(env *tool.Env) int {
	flags, names, code, done := spec.Parse(env)
	if done {
		return code
	}
	multiple, suffix, eol := false, "", byte('\n')
	for _, f := range flags {
		switch f.Name {
		case "a":
			multiple = true
		case "s":
			multiple, suffix = true, f.Arg
		case "z":
			eol = 0
		}
	}
	if len(names) == 0 {
		return env.Usage(1, "missing operand")
	}
	if !multiple {
		if len(names) > 2 {
			return env.Usage(1, "extra operand %s", tool.Quote(names[2]))
		}
		if len(names) == 2 {
			suffix = names[1]
		}
		names = names[:1]
	}
	w := env.Out()
	for _, n := range names {
		w.WriteString(Base(n, suffix))
		w.WriteByte(eol)
	}
	return 0
}

// Base returns the last element of name as basename(1) prints it: trailing
// slashes are ignored, "/" stays "/", and suffix is removed unless it is
// the whole element.
func Base(name, suffix string) string {
	if name == "" {
		return ""
	}
	s := strings.TrimRight(name, "/")
	if s == "" {
		return "/"
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	if suffix != "" && len(suffix) < len(s) && strings.HasSuffix(s, suffix) {
		s = s[:len(s)-len(suffix)]
	}
	return s
}
