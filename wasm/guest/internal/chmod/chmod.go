// Package chmod implements chmod: change file mode bits. WASI has no
// permission bits, so modes are read and set through fsx (the sandbox's
// host functions; os natively).
package chmod

import (
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/stat"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "changes"},
		{Short: 'f', Long: "silent"},
		{Long: "quiet"},
		{Short: 'v', Long: "verbose"},
		{Long: "no-preserve-root"},
		{Long: "preserve-root"},
		{Long: "reference", Arg: tool.RequiredArg},
		{Short: 'R', Long: "recursive"},
	},
	// "-w", "-x", "-rwx" and the like are modes, not options.
	IsOperand: func(a string) bool {
		return len(a) > 1 && strings.Trim(a[1:], "rwxXstugoa,+-=01234567") == "" && a != "--"
	},
	Help: `Usage: chmod [OPTION]... MODE[,MODE]... FILE...
  or:  chmod [OPTION]... OCTAL-MODE FILE...
  or:  chmod [OPTION]... --reference=RFILE FILE...
Change the mode of each FILE to MODE.
With --reference, change the mode of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --no-preserve-root  do not treat '/' specially (the default)
      --preserve-root    fail to operate recursively on '/'
      --reference=RFILE  use RFILE's mode instead of MODE values
  -R, --recursive        change files and directories recursively
      --help        display this help and exit
      --version     output version information and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'.
`}

type config struct {
	changes, quiet, verbose, recursive, preserveRoot bool
	mode                                             string
	ref                                              fs.FileMode
	haveRef                                          bool
}

// Main runs chmod.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	c := &config{}
	refName := ""
	for _, f := range flags {
		switch f.Name {
		case "c":
			c.changes = true
		case "f", "quiet":
			c.quiet = true
		case "v":
			c.verbose = true
		case "R":
			c.recursive = true
		case "preserve-root":
			c.preserveRoot = true
		case "no-preserve-root":
			c.preserveRoot = false
		case "reference":
			refName = f.Arg
		}
	}
	if refName != "" {
		p, err := fsx.Perm(refName, true)
		if err != nil {
			env.Errorf("failed to get attributes of %s: %s", tool.Quote(refName), tool.Strerror(err))
			return 1
		}
		c.ref, c.haveRef = p, true
	} else {
		if len(args) == 0 {
			return env.Usage(1, "missing operand")
		}
		c.mode, args = args[0], args[1:]
		if _, ok := tool.ParseMode(c.mode, 0, false); !ok {
			env.Errorf("invalid mode: %s", tool.Quote(c.mode))
			return env.Usage(1, "")
		}
	}
	if len(args) == 0 {
		if refName != "" || c.mode == "" {
			return env.Usage(1, "missing operand")
		}
		return env.Usage(1, "missing operand after %s", tool.Quote(c.mode))
	}
	status := 0
	for _, name := range args {
		if !c.change(env, name, true) {
			status = 1
		}
	}
	return status
}

// change sets the mode of name (and below it with -R).
func (c *config) change(env *tool.Env, name string, top bool) bool {
	fi, err := os.Lstat(name)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if !top {
			return true // symlinks met in a traversal are skipped
		}
		fi, err = os.Stat(name)
	}
	if err != nil {
		if !c.quiet {
			env.Errorf("cannot access %s: %s", tool.Quote(name), tool.Strerror(err))
		}
		return false
	}
	if c.recursive && c.preserveRoot && top && (name == "/" || strings.Trim(name, "/") == "" && name != "") {
		env.Errorf("it is dangerous to operate recursively on %s", tool.Quote("/"))
		env.Errorf("use --no-preserve-root to override this failsafe")
		return false
	}
	old, err := fsx.Perm(name, true)
	if err != nil {
		if !c.quiet {
			env.Errorf("cannot access %s: %s", tool.Quote(name), tool.Strerror(err))
		}
		return false
	}
	mode := c.ref
	if !c.haveRef {
		mode, _ = tool.ParseMode(c.mode, old, fi.IsDir())
		// Like GNU, octal modes keep a directory's set-id bits unless
		// five or more digits say otherwise.
		if fi.IsDir() && c.mode[0] >= '0' && c.mode[0] <= '7' && len(c.mode) < 5 {
			mode |= old & (fs.ModeSetuid | fs.ModeSetgid)
		}
	}
	ok := true
	if mode != old {
		if err := fsx.Chmod(name, mode, true); err != nil {
			if !c.quiet {
				env.Errorf("changing permissions of %s: %s", tool.Quote(name), tool.Strerror(err))
			}
			ok = false
		}
	}
	if ok && (c.verbose || c.changes && mode != old) {
		oldRaw, newRaw := raw(old), raw(mode)
		if mode != old {
			fmt.Fprintf(env.Out(), "mode of %s changed from %04o (%s) to %04o (%s)\n",
				tool.Quote(name), oldRaw, stat.ModeString(oldRaw)[1:], newRaw, stat.ModeString(newRaw)[1:])
		} else {
			fmt.Fprintf(env.Out(), "mode of %s retained as %04o (%s)\n", tool.Quote(name), oldRaw, stat.ModeString(oldRaw)[1:])
		}
	}
	if c.recursive && fi.IsDir() {
		entries, err := os.ReadDir(name)
		if err != nil {
			if !c.quiet {
				env.Errorf("cannot read directory %s: %s", tool.Quote(name), tool.Strerror(err))
			}
			return false
		}
		for _, e := range entries {
			child := strings.TrimSuffix(name, "/") + "/" + e.Name()
			if !c.change(env, child, false) {
				ok = false
			}
		}
	}
	return ok
}

func raw(m fs.FileMode) uint64 {
	v := uint64(m.Perm())
	if m&fs.ModeSetuid != 0 {
		v |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		v |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		v |= 0o1000
	}
	return v
}
