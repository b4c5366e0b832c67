// Package which implements which: locate a command on PATH, as Debian's
// which does. A file counts if it is a regular file with an execute bit,
// read through fsx since WASI reports no permission bits.
package which

import (
	"os"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options:   []tool.Option{{Short: 'a'}, {Short: 's'}},
	UsageExit: 2,
	Help: `Usage: which [-as] COMMAND...
Write the full path of each COMMAND found on PATH.

  -a     print all matching pathnames of each argument
  -s     silent mode: only set the exit status
      --help        display this help and exit
      --version     output version information and exit

Exit status: 0 if all COMMANDs were found, 1 if some were not (or none
was given), 2 on an invalid option.
`}

// Main runs which.
func Main(env *tool.Env) int {
	flags, names, code, done := spec.Parse(env)
	if done {
		return code
	}
	all, silent := false, false
	for _, f := range flags {
		switch f.Name {
		case "a":
			all = true
		case "s":
			silent = true
		}
	}
	if len(names) == 0 {
		return 1
	}
	path := env.Env("PATH")
	w := env.Out()
	put := func(s string) {
		if !silent {
			w.WriteString(s)
			w.WriteByte('\n')
		}
	}
	status := 0
	for _, name := range names {
		found := false
		if strings.Contains(name, "/") {
			if IsExecutable(name) {
				put(name)
				found = true
			}
		} else if path != "" {
			for _, dir := range strings.Split(path, ":") {
				if dir == "" {
					dir = "."
				}
				p := dir + "/" + name
				if IsExecutable(p) {
					put(p)
					found = true
					if !all {
						break
					}
				}
			}
		}
		if !found {
			status = 1
		}
	}
	return status
}

// IsExecutable reports whether p is a regular file (following symlinks)
// with an execute bit set.
func IsExecutable(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	perm, err := fsx.Perm(p, true)
	return err == nil && perm&0o111 != 0
}
