// Package ln implements ln: make hard or symbolic links between files.
package ln

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'b'},
		{Long: "backup", Arg: tool.OptionalArg},
		{Short: 'f', Long: "force"},
		{Short: 'i', Long: "interactive"},
		{Short: 'L', Long: "logical"},
		{Short: 'n', Long: "no-dereference"},
		{Short: 'P', Long: "physical"},
		{Short: 'r', Long: "relative"},
		{Short: 's', Long: "symbolic"},
		{Short: 'S', Long: "suffix", Arg: tool.RequiredArg},
		{Short: 't', Long: "target-directory", Arg: tool.RequiredArg},
		{Short: 'T', Long: "no-target-directory"},
		{Short: 'v', Long: "verbose"},
	},
	Help: `Usage: ln [OPTION]... [-T] TARGET LINK_NAME
  or:  ln [OPTION]... TARGET
  or:  ln [OPTION]... TARGET... DIRECTORY
  or:  ln [OPTION]... -t DIRECTORY TARGET...
In the 1st form, create a link to TARGET with the name LINK_NAME.
In the 2nd form, create a link to TARGET in the current directory.
In the 3rd and 4th forms, create links to each TARGET in DIRECTORY.
Create hard links by default, symbolic links with --symbolic.
By default, each destination (name of new link) should not already exist.

  -b                          make a backup of each existing destination file
      --backup[=CONTROL]      like -b (only simple backups, suffix ~)
  -f, --force                 remove existing destination files
  -i, --interactive           prompt whether to remove destinations
  -L, --logical               dereference TARGETs that are symbolic links
  -n, --no-dereference        treat LINK_NAME as a normal file if
                                it is a symbolic link to a directory
  -P, --physical              make hard links directly to symbolic links
  -r, --relative              with -s, create links relative to link location
  -s, --symbolic              make symbolic links instead of hard links
  -S, --suffix=SUFFIX         override the usual backup suffix
  -t, --target-directory=DIRECTORY  specify the DIRECTORY in which to create
                                the links
  -T, --no-target-directory   treat LINK_NAME as a normal file always
  -v, --verbose               print name of each linked file
      --help        display this help and exit
      --version     output version information and exit
`}

type options struct {
	symbolic, force, interactive, noDeref, relative, verbose, backup bool
	logical                                                          bool
	suffix                                                           string
}

// Main runs ln.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	o := options{suffix: "~"}
	targetDir, noTargetDir := "", false
	for _, f := range flags {
		switch f.Name {
		case "b", "backup":
			o.backup = true
		case "f":
			o.force, o.interactive = true, false
		case "i":
			o.interactive, o.force = true, false
		case "L":
			o.logical = true
		case "P":
			o.logical = false
		case "n":
			o.noDeref = true
		case "r":
			o.relative = true
		case "s":
			o.symbolic = true
		case "S":
			o.suffix, o.backup = f.Arg, true
		case "t":
			targetDir = f.Arg
		case "T":
			noTargetDir = true
		case "v":
			o.verbose = true
		}
	}
	if o.relative && !o.symbolic {
		env.Errorf("cannot do --relative without --symbolic")
		return 1
	}
	if len(args) == 0 {
		return env.Usage(1, "missing file operand")
	}
	if targetDir != "" {
		if noTargetDir {
			env.Errorf("cannot combine --target-directory and --no-target-directory")
			return 1
		}
		if fi, err := os.Stat(targetDir); err != nil {
			env.Errorf("failed to access %s: %s", tool.Quote(targetDir), tool.Strerror(err))
			return 1
		} else if !fi.IsDir() {
			env.Errorf("target %s is not a directory", tool.Quote(targetDir))
			return 1
		}
		return linkAll(env, &o, args, targetDir)
	}
	if noTargetDir {
		if len(args) == 1 {
			return env.Usage(1, "missing destination file operand after %s", tool.Quote(args[0]))
		}
		if len(args) > 2 {
			return env.Usage(1, "extra operand %s", tool.Quote(args[2]))
		}
		return link(env, &o, args[0], args[1])
	}
	if len(args) == 1 {
		return linkAll(env, &o, args, ".")
	}
	last := args[len(args)-1]
	if isDir(last, o.noDeref) {
		return linkAll(env, &o, args[:len(args)-1], last)
	}
	if len(args) > 2 {
		if _, err := os.Stat(last); err != nil {
			env.Errorf("target %s: %s", tool.Quote(last), tool.Strerror(err))
		} else {
			env.Errorf("target %s is not a directory", tool.Quote(last))
		}
		return 1
	}
	return link(env, &o, args[0], last)
}

func isDir(name string, noDeref bool) bool {
	var fi fs.FileInfo
	var err error
	if noDeref {
		fi, err = os.Lstat(name)
	} else {
		fi, err = os.Stat(name)
	}
	return err == nil && fi.IsDir()
}

func linkAll(env *tool.Env, o *options, targets []string, dir string) int {
	status := 0
	for _, t := range targets {
		base := filepath.Base(strings.TrimRight(t, "/"))
		if base == "" || strings.Trim(t, "/") == "" {
			base = "/"
		}
		dest := dir + "/" + base
		if dir == "." {
			dest = base
		} else if strings.HasSuffix(dir, "/") {
			dest = dir + base
		}
		if link(env, o, t, dest) != 0 {
			status = 1
		}
	}
	return status
}

// link makes one link named dest to target.
func link(env *tool.Env, o *options, target, dest string) int {
	if !o.symbolic {
		fi, err := os.Lstat(target)
		if err != nil {
			env.Errorf("failed to access %s: %s", tool.Quote(target), tool.Strerror(err))
			return 1
		}
		if fi.IsDir() {
			env.Errorf("%s: hard link not allowed for directory", tool.QuoteIfNeeded(target))
			return 1
		}
		if o.logical {
			if r, err := filepath.EvalSymlinks(target); err == nil {
				target = r
			}
		}
	}
	if dfi, err := os.Lstat(dest); err == nil {
		if !o.symbolic {
			if tfi, err := os.Stat(target); err == nil && os.SameFile(tfi, dfi) {
				env.Errorf("%s and %s are the same file", tool.Quote(target), tool.Quote(dest))
				return 1
			}
		}
		switch {
		case o.interactive:
			fmt.Fprintf(env.Stderr, "%s: replace %s? ", env.Name(), tool.Quote(dest))
			if !yes(env) {
				return 0
			}
			fallthrough
		case o.force, o.backup:
			if dfi.IsDir() {
				env.Errorf("%s: cannot overwrite directory", tool.Quote(dest))
				return 1
			}
			var err error
			if o.backup {
				err = os.Rename(dest, dest+o.suffix)
			} else {
				err = os.Remove(dest)
			}
			if err != nil {
				env.Errorf("cannot remove %s: %s", tool.Quote(dest), tool.Strerror(err))
				return 1
			}
		}
	}
	var err error
	if o.symbolic {
		value := target
		if o.relative {
			value = relativeTarget(target, dest)
		}
		err = os.Symlink(value, dest)
		if err == nil && o.verbose {
			fmt.Fprintf(env.Out(), "%s -> %s\n", tool.Quote(dest), tool.Quote(value))
		}
		target = value
	} else {
		err = os.Link(target, dest)
		if err == nil && o.verbose {
			fmt.Fprintf(env.Out(), "%s => %s\n", tool.Quote(dest), tool.Quote(target))
		}
	}
	if err != nil {
		if o.symbolic {
			env.Errorf("failed to create symbolic link %s: %s", tool.Quote(dest), tool.Strerror(err))
		} else if os.IsExist(err) {
			env.Errorf("failed to create hard link %s: %s", tool.Quote(dest), tool.Strerror(err))
		} else {
			env.Errorf("failed to create hard link %s => %s: %s", tool.Quote(dest), tool.Quote(target), tool.Strerror(err))
		}
		return 1
	}
	return 0
}

// relativeTarget is target as a path relative to the directory holding
// dest, both made absolute with symlinks in their directories resolved.
func relativeTarget(target, dest string) string {
	at := canonical(target)
	ad := canonical(filepath.Dir(dest))
	rel, err := filepath.Rel(ad, at)
	if err != nil {
		return target
	}
	return rel
}

// canonical resolves p like realpath -m: absolute, symlinks resolved as far
// as they exist.
func canonical(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	dir, base := filepath.Split(abs)
	if dir == abs {
		return abs
	}
	return filepath.Join(canonical(filepath.Clean(dir)), base)
}

// yes reads a line from standard input and reports whether it starts
// with y or Y.
func yes(env *tool.Env) bool {
	var b [1]byte
	answer, first := false, true
	for {
		n, err := env.Stdin.Read(b[:])
		if n == 1 {
			if first {
				answer = b[0] == 'y' || b[0] == 'Y'
				first = false
			}
			if b[0] == '\n' {
				break
			}
		}
		if err != nil {
			break
		}
	}
	return answer
}
