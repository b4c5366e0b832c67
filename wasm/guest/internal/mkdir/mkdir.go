// Package mkdir implements mkdir: make directories.
package mkdir

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'm', Long: "mode", Arg: tool.RequiredArg},
		{Short: 'p', Long: "parents"},
		{Short: 'v', Long: "verbose"},
		{Short: 'Z'},
		{Long: "context", Arg: tool.OptionalArg},
	},
	Help: `Usage: mkdir [OPTION]... DIRECTORY...
Create the DIRECTORY(ies), if they do not already exist.

  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask
  -p, --parents     no error if existing, make parent directories as needed,
                    with their file modes unaffected by any -m option.
  -v, --verbose     print a message for each created directory
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs mkdir.
func Main(env *tool.Env) int {
	flags, dirs, code, done := spec.Parse(env)
	if done {
		return code
	}
	parents, verbose := false, false
	var mode fs.FileMode
	haveMode := false
	for _, f := range flags {
		switch f.Name {
		case "m":
			m, ok := tool.ParseMode(f.Arg, 0o777&^tool.Umask, true)
			if !ok {
				env.Errorf("invalid mode %s", tool.Quote(f.Arg))
				return 1
			}
			mode, haveMode = m, true
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
	created := func(dir string) {
		if verbose {
			fmt.Fprintf(env.Out(), "mkdir: created directory %s\n", tool.Quote(dir))
		}
	}
	for _, dir := range dirs {
		if parents {
			if err := mkdirAll(dir, created); err != nil {
				env.Errorf("cannot create directory %s: %s", tool.Quote(dir), tool.Strerror(err))
				status = 1
				continue
			}
		} else {
			if err := os.Mkdir(dir, 0o777); err != nil {
				env.Errorf("cannot create directory %s: %s", tool.Quote(dir), tool.Strerror(err))
				status = 1
				continue
			}
			created(dir)
		}
		if haveMode {
			if err := os.Chmod(dir, mode); err != nil && !tool.IsErrno(err, syscall.ENOSYS) && !tool.IsErrno(err, syscall.ENOTSUP) {
				env.Errorf("cannot set permissions of %s: %s", tool.Quote(dir), tool.Strerror(err))
				status = 1
			}
		}
	}
	return status
}

// mkdirAll creates dir and its missing parents, calling created for each
// directory it makes, in order.
func mkdirAll(dir string, created func(string)) error {
	var prefixes []string
	for i := 1; i <= len(dir); i++ {
		if i == len(dir) || dir[i] == '/' {
			p := dir[:i]
			if strings.Trim(p, "/") != "" {
				prefixes = append(prefixes, p)
			}
		}
	}
	for i, p := range prefixes {
		if i+1 < len(prefixes) && (strings.HasSuffix(p, "/") || p == prefixes[i+1]) {
			continue
		}
		err := os.Mkdir(p, 0o777)
		if err == nil {
			created(p)
			continue
		}
		if fi, serr := os.Stat(p); serr == nil && fi.IsDir() {
			continue
		}
		return err
	}
	return nil
}
