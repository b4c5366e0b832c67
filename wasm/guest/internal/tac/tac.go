// Package tac implements tac: print files with their lines (or other
// records) in reverse order.
package tac

import (
	"bytes"
	"io"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'b', Long: "before"},
		{Short: 'r', Long: "regex"},
		{Short: 's', Long: "separator", Arg: tool.RequiredArg},
	},
	Help: `Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

With no FILE, or when FILE is -, read standard input.

  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs tac.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	sep := "\n"
	before, regex := false, false
	for _, f := range flags {
		switch f.Name {
		case "b":
			before = true
		case "r":
			regex = true
		case "s":
			if f.Arg == "" {
				env.Errorf("separator cannot be empty")
				return 1
			}
			sep = f.Arg
		}
	}
	var re *posixre.Regexp
	if regex {
		var err error
		re, err = posixre.Compile([]string{sep}, posixre.Options{})
		if err != nil {
			env.Errorf("%s", err)
			return 1
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := env.Out()
	status := 0
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("failed to open %s for reading: %s", tool.Quote(name), tool.Strerror(err))
			status = 1
			continue
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			env.Errorf("%s: read error: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			status = 1
			continue
		}
		// Separator spans [s, e).
		var seps [][2]int
		if re != nil {
			re.FindAll(data, func(s, e int) bool {
				seps = append(seps, [2]int{s, e})
				return true
			})
		} else {
			for i := 0; ; {
				j := bytes.Index(data[i:], []byte(sep))
				if j < 0 {
					break
				}
				seps = append(seps, [2]int{i + j, i + j + len(sep)})
				i += j + len(sep)
			}
		}
		// Records: with -b each starts at a separator, else each ends
		// with one.
		var recs [][]byte
		if before {
			start := 0
			for _, s := range seps {
				if s[0] > start || s[0] == 0 && start == 0 {
					if s[0] > 0 {
						recs = append(recs, data[start:s[0]])
					}
				}
				start = s[0]
			}
			recs = append(recs, data[start:])
		} else {
			start := 0
			for _, s := range seps {
				recs = append(recs, data[start:s[1]])
				start = s[1]
			}
			if start < len(data) {
				recs = append(recs, data[start:])
			}
		}
		for i := len(recs) - 1; i >= 0; i-- {
			if len(recs[i]) > 0 {
				out.Write(recs[i])
			}
		}
		if _, err := out.Write(nil); err != nil {
			return env.WriteFailed(err)
		}
	}
	return status
}
