// Package rmdir implements rmdir: remove empty directories.
package rmdir

import (
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Long: "ignore-fail-on-non-empty"},
		{Short: 'p', Long: "parents"},
		{Short: 'v', Long: "verbose"},
	},
	Help: `Usage: rmdir [OPTION]... DIRECTORY...
Remove the DIRECTORY(ies), if they are empty.

      --ignore-fail-on-non-empty
                    ignore each failure to remove a non-empty directory
  -p, --parents     remove DIRECTORY and its ancestors; e.g., 'rmdir -p a/b'
                    is similar to 'rmdir a/b a'

  -v, --verbose     output a diagnostic for every directory processed
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs rmdir.
func Main(env *tool.Env) int {
	flags, dirs, code, done := spec.Parse(env)
	if done {
		return code
	}
	var ignoreNonEmpty, parents, verbose bool
	for _, f := range flags {
		switch f.Name {
		case "ignore-fail-on-non-empty":
			ignoreNonEmpty = true
		case "p":
			parents = true
		case "v":
			verbose = true
		}
	}
	if len(dirs) == 0 {
		return env.Usage(1, "missing operand")
	}
	status := 0
	remove := func(d string, parent bool) bool {
		if verbose {
			fmt.Fprintf(env.Out(), "%s: removing directory, %s\n", env.Name(), tool.Quote(d))
		}
		err := rmdir(d)
		if err == nil {
			return true
		}
		if ignoreNonEmpty && (tool.IsErrno(err, syscall.ENOTEMPTY) || tool.IsErrno(err, syscall.EEXIST)) {
			return false
		}
		if parent {
			env.Errorf("failed to remove directory %s: %s", tool.Quote(d), tool.Strerror(err))
		} else {
			env.Errorf("failed to remove %s: %s", tool.Quote(d), tool.Strerror(err))
		}
		status = 1
		return false
	}
	for _, d := range dirs {
		if !remove(d, false) || !parents {
			continue
		}
		p := strings.TrimRight(d, "/")
		for {
			i := strings.LastIndexByte(p, '/')
			if i <= 0 {
				break
			}
			p = strings.TrimRight(p[:i], "/")
			if p == "" || !remove(p, true) {
				break
			}
		}
	}
	return status
}

// rmdir removes an empty directory, failing with ENOTDIR for other files.
func rmdir(d string) error {
	fi, err := os.Lstat(d)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	if err := syscall.Rmdir(d); err != nil {
		return err
	}
	return nil
}
