// Package realpath implements realpath: print the resolved absolute file
// name. Its Canonicalize is shared with readlink.
package realpath

import (
	"path/filepath"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'e', Long: "canonicalize-existing"},
		{Short: 'm', Long: "canonicalize-missing"},
		{Short: 'L', Long: "logical"},
		{Short: 'P', Long: "physical"},
		{Short: 'q', Long: "quiet"},
		{Long: "relative-to", Arg: tool.RequiredArg},
		{Long: "relative-base", Arg: tool.RequiredArg},
		{Short: 's', Long: "strip"},
		{Long: "no-symlinks"},
		{Short: 'z', Long: "zero"},
	},
	Help: `Usage: realpath [OPTION]... FILE...
Print the resolved absolute file name;
all but the last component must exist

  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -L, --logical                resolve '..' components before symlinks
  -P, --physical               resolve symlinks as encountered (default)
  -q, --quiet                  suppress most error messages
      --relative-to=DIR        print the resolved path relative to DIR
      --relative-base=DIR      print absolute paths unless paths below DIR
  -s, --strip, --no-symlinks   don't expand symlinks
  -z, --zero                   end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs realpath.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	mode, physical, quiet, eol := AllButLast, true, false, byte('\n')
	logical := false
	var relTo, relBase string
	for _, f := range flags {
		switch f.Name {
		case "e":
			mode = Existing
		case "m":
			mode = Missing
		case "L":
			logical = true
		case "P":
			logical = false
		case "q":
			quiet = true
		case "relative-to":
			relTo = f.Arg
		case "relative-base":
			relBase = f.Arg
		case "s", "no-symlinks":
			physical = false
		case "z":
			eol = 0
		}
	}
	if len(files) == 0 {
		return env.Usage(1, "missing operand")
	}
	resolve := func(p string) (string, error) {
		if logical && physical {
			// Apply ".." textually first, then resolve links.
			abs, err := filepath.Abs(p)
			if err != nil {
				return "", err
			}
			p = abs
		}
		return Canonicalize(p, mode, physical)
	}
	if relTo != "" {
		r, err := resolve(relTo)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(relTo), tool.Strerror(err))
			return 1
		}
		relTo = r
	}
	if relBase != "" {
		r, err := resolve(relBase)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(relBase), tool.Strerror(err))
			return 1
		}
		relBase = r
		if relTo == "" {
			relTo = relBase
		} else if !under(relTo, relBase) {
			relTo, relBase = "", ""
		}
	}
	status := 0
	w := env.Out()
	for _, f := range files {
		r, err := resolve(f)
		if err != nil {
			if !quiet {
				env.Errorf("%s: %s", tool.QuoteIfNeeded(f), tool.Strerror(err))
			}
			status = 1
			continue
		}
		if relTo != "" && (relBase == "" || under(r, relBase)) {
			if rel, err := filepath.Rel(relTo, r); err == nil {
				r = rel
			}
		}
		w.WriteString(r)
		w.WriteByte(eol)
	}
	return status
}

// under reports whether path p is dir or below it.
func under(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
