// Package readlink implements readlink: print the value of a symbolic link
// or a canonical file name.
package readlink

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/realpath"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'f', Long: "canonicalize"},
		{Short: 'e', Long: "canonicalize-existing"},
		{Short: 'm', Long: "canonicalize-missing"},
		{Short: 'n', Long: "no-newline"},
		{Short: 'q', Long: "quiet"},
		{Short: 's', Long: "silent"},
		{Short: 'v', Long: "verbose"},
		{Short: 'z', Long: "zero"},
	},
	Help: `Usage: readlink [OPTION]... FILE...
Print value of a symbolic link or canonical file name

  -f, --canonicalize            canonicalize by following every symlink in
                                every component of the given name recursively;
                                all but the last component must exist
  -e, --canonicalize-existing   canonicalize by following every symlink in
                                every component of the given name recursively,
                                all components must exist
  -m, --canonicalize-missing    canonicalize by following every symlink in
                                every component of the given name recursively,
                                without requirements on components existence
  -n, --no-newline              do not output the trailing delimiter
  -q, --quiet
  -s, --silent                  suppress most error messages (on by default)
  -v, --verbose                 report error messages
  -z, --zero                    end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs readlink.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	canon, mode := false, realpath.AllButLast
	noNewline, verbose, eol := false, false, byte('\n')
	for _, f := range flags {
		switch f.Name {
		case "f":
			canon, mode = true, realpath.AllButLast
		case "e":
			canon, mode = true, realpath.Existing
		case "m":
			canon, mode = true, realpath.Missing
		case "n":
			noNewline = true
		case "q", "s":
			verbose = false
		case "v":
			verbose = true
		case "z":
			eol = 0
		}
	}
	if len(files) == 0 {
		return env.Usage(1, "missing operand")
	}
	if noNewline && len(files) > 1 {
		env.Errorf("ignoring --no-newline with multiple arguments")
		noNewline = false
	}
	status := 0
	w := env.Out()
	for _, f := range files {
		var v string
		var err error
		if canon {
			v, err = realpath.Canonicalize(f, mode, true)
		} else {
			v, err = os.Readlink(f)
		}
		if err != nil {
			if verbose {
				env.Errorf("%s: %s", tool.QuoteIfNeeded(f), tool.Strerror(err))
			}
			status = 1
			continue
		}
		w.WriteString(v)
		if !noNewline {
			w.WriteByte(eol)
		}
	}
	return status
}
