// Package rm implements rm: remove files and directories.
package rm

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'f', Long: "force"},
		{Short: 'i'},
		{Short: 'I'},
		{Long: "interactive", Arg: tool.OptionalArg},
		{Short: 'r', Long: "recursive"},
		{Short: 'R'},
		{Short: 'd', Long: "dir"},
		{Short: 'v', Long: "verbose"},
		{Long: "preserve-root", Arg: tool.OptionalArg},
		{Long: "no-preserve-root"},
		{Long: "one-file-system"},
	},
	Help: `Usage: rm [OPTION]... [FILE]...
Remove (unlink) the FILE(s).

  -f, --force           ignore nonexistent files and arguments, never prompt
  -i                    prompt before every removal
  -I                    prompt once before removing more than three files, or
                          when removing recursively
  -r, -R, --recursive   remove directories and their contents recursively
  -d, --dir             remove empty directories
  -v, --verbose         explain what is being done
      --no-preserve-root  do not treat '/' specially
      --preserve-root[=all]  do not remove '/' (default)
      --help        display this help and exit
      --version     output version information and exit
`}

type remover struct {
	env       *tool.Env
	force     bool
	prompt    bool
	recursive bool
	dirs      bool
	verbose   bool
	in        *bufio.Reader
}

// Main runs rm.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	r := &remover{env: env}
	preserveRoot := true
	for _, f := range flags {
		switch f.Name {
		case "f":
			r.force, r.prompt = true, false
		case "i":
			r.prompt, r.force = true, false
		case "interactive":
			r.prompt = f.Arg == "" || f.Arg == "always" || f.Arg == "yes"
		case "r", "R":
			r.recursive = true
		case "d":
			r.dirs = true
		case "v":
			r.verbose = true
		case "no-preserve-root":
			preserveRoot = false
		case "preserve-root":
			preserveRoot = true
		}
	}
	if len(files) == 0 {
		if r.force {
			return 0
		}
		return env.Usage(1, "missing operand")
	}
	status := 0
	for _, name := range files {
		base := path.Base(strings.TrimRight(name, "/"))
		if base == "." || base == ".." {
			env.Errorf("refusing to remove '.' or '..' directory: skipping %s", tool.Quote(name))
			status = 1
			continue
		}
		if r.recursive && preserveRoot && path.Clean(name) == "/" {
			env.Errorf("it is dangerous to operate recursively on %s", tool.Quote("/"))
			env.Errorf("use --no-preserve-root to override this failsafe")
			status = 1
			continue
		}
		if !r.remove(name, true) {
			status = 1
		}
	}
	if _, err := env.Out().Write(nil); err != nil {
		return env.WriteFailed(err)
	}
	return status
}

func (r *remover) fail(name string, err error) bool {
	r.env.Errorf("cannot remove %s: %s", tool.Quote(name), tool.Strerror(err))
	return false
}

func (r *remover) confirm(format string, a ...any) bool {
	if !r.prompt {
		return true
	}
	r.env.Out().Flush()
	fmt.Fprintf(r.env.Stderr, "rm: "+format+"? ", a...)
	if r.in == nil {
		r.in = bufio.NewReader(r.env.Stdin)
	}
	answer, _ := r.in.ReadString('\n')
	answer = strings.TrimSpace(answer)
	return strings.HasPrefix(answer, "y") || strings.HasPrefix(answer, "Y")
}

// remove deletes name (recursively if asked); it reports success.
func (r *remover) remove(name string, top bool) bool {
	fi, err := os.Lstat(name)
	if err != nil {
		if r.force && os.IsNotExist(err) {
			return true
		}
		return r.fail(name, err)
	}
	if !fi.IsDir() {
		if !r.confirm("remove %s %s", fileKind(fi), tool.Quote(name)) {
			return true
		}
		if err := os.Remove(name); err != nil {
			if r.force && os.IsNotExist(err) {
				return true
			}
			return r.fail(name, err)
		}
		r.removed("removed %s", name)
		return true
	}
	if !r.recursive {
		if !r.dirs {
			return r.fail(name, syscall.EISDIR)
		}
		if !r.confirm("remove directory %s", tool.Quote(name)) {
			return true
		}
		if err := syscall.Rmdir(name); err != nil {
			return r.fail(name, err)
		}
		r.removed("removed directory %s", name)
		return true
	}
	entries, err := os.ReadDir(name)
	if err != nil {
		return r.fail(name, err)
	}
	if len(entries) > 0 && !r.confirm("descend into directory %s", tool.Quote(name)) {
		return true
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	ok := true
	for _, e := range entries {
		child := strings.TrimSuffix(name, "/") + "/" + e.Name()
		if !r.remove(child, false) {
			ok = false
		}
	}
	if !ok {
		return false
	}
	if !r.confirm("remove directory %s", tool.Quote(name)) {
		return true
	}
	if err := syscall.Rmdir(name); err != nil {
		return r.fail(name, err)
	}
	r.removed("removed directory %s", name)
	return true
}

func (r *remover) removed(format, name string) {
	if r.verbose {
		fmt.Fprintf(r.env.Out(), format+"\n", tool.Quote(name))
	}
}

func fileKind(fi fs.FileInfo) string {
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsRegular() && fi.Size() == 0:
		return "regular empty file"
	case m.IsRegular():
		return "regular file"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	}
	return "file"
}
