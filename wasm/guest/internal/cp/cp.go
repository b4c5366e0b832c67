// Package cp implements cp: copy files and directory trees. Its Copier is
// also what mv falls back on to move across file systems.
package cp

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "archive"},
		{Short: 'd'},
		{Short: 'f', Long: "force"},
		{Short: 'i', Long: "interactive"},
		{Short: 'H'},
		{Short: 'l', Long: "link"},
		{Short: 'L', Long: "dereference"},
		{Short: 'n', Long: "no-clobber"},
		{Short: 'P', Long: "no-dereference"},
		{Short: 'p'},
		{Long: "preserve", Arg: tool.OptionalArg},
		{Long: "no-preserve", Arg: tool.RequiredArg},
		{Short: 'R', Long: "recursive"},
		{Short: 'r'},
		{Short: 's', Long: "symbolic-link"},
		{Short: 't', Long: "target-directory", Arg: tool.RequiredArg},
		{Short: 'T', Long: "no-target-directory"},
		{Short: 'u', Long: "update", Arg: tool.OptionalArg},
		{Short: 'v', Long: "verbose"},
		{Short: 'x', Long: "one-file-system"},
	},
	Help: `Usage: cp [OPTION]... [-T] SOURCE DEST
  or:  cp [OPTION]... SOURCE... DIRECTORY
  or:  cp [OPTION]... -t DIRECTORY SOURCE...
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.

  -a, --archive                same as -dR --preserve=all
  -d                           same as --no-dereference --preserve=links
  -f, --force                  if an existing destination file cannot be
                                 opened, remove it and try again
  -i, --interactive            prompt before overwrite
  -H                           follow command-line symbolic links in SOURCE
  -l, --link                   hard link files instead of copying
  -L, --dereference            always follow symbolic links in SOURCE
  -n, --no-clobber             do not overwrite an existing file
  -P, --no-dereference         never follow symbolic links in SOURCE
  -p                           same as --preserve=mode,ownership,timestamps
      --preserve[=ATTR_LIST]   preserve the specified attributes
  -R, -r, --recursive          copy directories recursively
  -s, --symbolic-link          make symbolic links instead of copying
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 copy only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help        display this help and exit
      --version     output version information and exit
`}

// Deref says when symbolic links in the source are followed.
type Deref uint8

const (
	DerefDefault Deref = iota // follow unless recursive
	DerefNever
	DerefArgs
	DerefAlways
)

// Copier copies files and trees the way cp does, reporting problems on
// its Env's standard error.
type Copier struct {
	Env        *tool.Env
	Cmd        string // command name for messages
	Recursive  bool
	Force      bool
	NoClobber  bool
	Interact   bool
	Update     bool
	Verbose    bool
	Link       bool
	Symlink    bool
	PreserveMd bool // mode
	PreserveTm bool // timestamps
	Deref      Deref

	in *bufio.Reader
}

// Main runs cp.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	c := &Copier{Env: env}
	target, noTarget := "", false
	for _, f := range flags {
		switch f.Name {
		case "a":
			c.Recursive, c.Deref, c.PreserveMd, c.PreserveTm = true, DerefNever, true, true
		case "d", "P":
			c.Deref = DerefNever
		case "H":
			c.Deref = DerefArgs
		case "L":
			c.Deref = DerefAlways
		case "f":
			c.Force = true
		case "i":
			c.Interact, c.NoClobber = true, false
		case "n":
			c.NoClobber, c.Interact = true, false
		case "l":
			c.Link = true
		case "s":
			c.Symlink = true
		case "p":
			c.PreserveMd, c.PreserveTm = true, true
		case "preserve":
			list := f.Arg
			if list == "" {
				list = "mode,ownership,timestamps"
			}
			for _, a := range strings.Split(list, ",") {
				switch a {
				case "mode":
					c.PreserveMd = true
				case "timestamps":
					c.PreserveTm = true
				case "all":
					c.PreserveMd, c.PreserveTm = true, true
				case "ownership", "links", "context", "xattr":
				default:
					env.Errorf("invalid argument %s for '--preserve'", tool.Quote(a))
					return env.Usage(1, "")
				}
			}
		case "no-preserve":
		case "r", "R":
			c.Recursive = true
		case "t":
			target = f.Arg
		case "T":
			noTarget = true
		case "u":
			c.Update = f.Arg != "none" && f.Arg != "all"
		case "v":
			c.Verbose = true
		}
	}
	srcs, dest, st := Targets(env, args, target, noTarget)
	if st >= 0 {
		return st
	}
	status := 0
	for _, src := range srcs {
		d := dest.For(src)
		if !c.Copy(src, d, true) {
			status = 1
		}
	}
	if _, err := env.Out().Write(nil); err != nil {
		return env.WriteFailed(err)
	}
	return status
}

// Dest is where sources go: into a directory, or onto one name.
type Dest struct {
	Dir  string // if set, each source goes to Dir/base(source)
	Name string
}

// For gives the destination path of src.
func (d Dest) For(src string) string {
	if d.Dir == "" {
		return d.Name
	}
	base := path.Base(strings.TrimRight(src, "/"))
	if strings.HasSuffix(d.Dir, "/") {
		return d.Dir + base
	}
	return d.Dir + "/" + base
}

// Targets sorts cp/mv operands into sources and a destination, as GNU
// does; st is a status to exit with at once, or -1.
func Targets(env *tool.Env, args []string, target string, noTarget bool) (srcs []string, dest Dest, st int) {
	if target != "" {
		fi, err := os.Stat(target)
		if err != nil {
			env.Errorf("target directory %s: %s", tool.Quote(target), tool.Strerror(err))
			return nil, dest, 1
		}
		if !fi.IsDir() {
			env.Errorf("target %s is not a directory", tool.Quote(target))
			return nil, dest, 1
		}
		if len(args) == 0 {
			return nil, dest, env.Usage(1, "missing file operand")
		}
		return args, Dest{Dir: target}, -1
	}
	switch len(args) {
	case 0:
		return nil, dest, env.Usage(1, "missing file operand")
	case 1:
		return nil, dest, env.Usage(1, "missing destination file operand after %s", tool.Quote(args[0]))
	}
	last := args[len(args)-1]
	srcs = args[:len(args)-1]
	if noTarget {
		if len(srcs) > 1 {
			return nil, dest, env.Usage(1, "extra operand %s", tool.Quote(args[2]))
		}
		return srcs, Dest{Name: last}, -1
	}
	fi, err := os.Stat(last)
	if err == nil && fi.IsDir() {
		return srcs, Dest{Dir: last}, -1
	}
	if len(srcs) > 1 {
		if err == nil {
			err = syscall.ENOTDIR
		}
		env.Errorf("target %s: %s", tool.Quote(last), tool.Strerror(err))
		return nil, dest, 1
	}
	return srcs, Dest{Name: last}, -1
}

func (c *Copier) name() string {
	if c.Cmd != "" {
		return c.Cmd
	}
	return c.Env.Name()
}

func (c *Copier) errorf(format string, a ...any) bool {
	c.Env.Errorf(format, a...)
	return false
}

func (c *Copier) confirm(dst string) bool {
	c.Env.Out().Flush()
	fmt.Fprintf(c.Env.Stderr, "%s: overwrite %s? ", c.name(), tool.Quote(dst))
	if c.in == nil {
		c.in = bufio.NewReader(c.Env.Stdin)
	}
	answer, _ := c.in.ReadString('\n')
	return strings.HasPrefix(strings.TrimSpace(answer), "y") || strings.HasPrefix(strings.TrimSpace(answer), "Y")
}

// Copy copies src to dst; top marks a command-line operand. It reports
// success.
func (c *Copier) Copy(src, dst string, top bool) bool {
	follow := c.Deref == DerefAlways || c.Deref == DerefArgs && top || c.Deref == DerefDefault && !c.Recursive
	var sfi fs.FileInfo
	var err error
	if follow {
		sfi, err = os.Stat(src)
	} else {
		sfi, err = os.Lstat(src)
	}
	if err != nil {
		return c.errorf("cannot stat %s: %s", tool.Quote(src), tool.Strerror(err))
	}
	dfi, derr := os.Stat(dst)
	if derr == nil && os.SameFile(sfi, dfi) && !(sfi.Mode()&fs.ModeSymlink != 0) {
		return c.errorf("%s and %s are the same file", tool.Quote(src), tool.Quote(dst))
	}
	if sfi.IsDir() {
		return c.copyDir(src, dst, sfi, dfi, derr == nil)
	}
	if derr == nil && dfi.IsDir() {
		return c.errorf("cannot overwrite directory %s with non-directory", tool.Quote(dst))
	}
	if _, lerr := os.Lstat(dst); lerr == nil {
		if c.NoClobber {
			return true
		}
		if c.Update && derr == nil && !sfi.ModTime().After(dfi.ModTime()) {
			return true
		}
		if c.Interact && !c.confirm(dst) {
			return true
		}
	}
	switch {
	case c.Symlink:
		if err := c.replace(dst, func() error { return os.Symlink(src, dst) }); err != nil {
			return c.errorf("cannot create symbolic link %s to %s: %s", tool.Quote(dst), tool.Quote(src), tool.Strerror(err))
		}
	case c.Link:
		if err := c.replace(dst, func() error { return os.Link(src, dst) }); err != nil {
			return c.errorf("cannot create hard link %s to %s: %s", tool.Quote(dst), tool.Quote(src), tool.Strerror(err))
		}
	case sfi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return c.errorf("cannot read symbolic link %s: %s", tool.Quote(src), tool.Strerror(err))
		}
		if err := c.replace(dst, func() error { return os.Symlink(target, dst) }); err != nil {
			return c.errorf("cannot create symbolic link %s: %s", tool.Quote(dst), tool.Strerror(err))
		}
	default:
		if !c.copyFile(src, dst, sfi) {
			return false
		}
	}
	c.verbose(src, dst)
	return true
}

// replace runs create, removing an existing dst first if it is in the way.
func (c *Copier) replace(dst string, create func() error) error {
	err := create()
	if err != nil && tool.IsErrno(err, syscall.EEXIST) {
		if rerr := os.Remove(dst); rerr != nil {
			return rerr
		}
		err = create()
	}
	return err
}

func (c *Copier) verbose(src, dst string) {
	if c.Verbose {
		fmt.Fprintf(c.Env.Out(), "%s -> %s\n", tool.Quote(src), tool.Quote(dst))
	}
}

func (c *Copier) copyFile(src, dst string, sfi fs.FileInfo) bool {
	in, err := os.Open(src)
	if err != nil {
		return c.errorf("cannot open %s for reading: %s", tool.Quote(src), tool.Strerror(err))
	}
	defer in.Close()
	perm := sfi.Mode().Perm()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil && c.Force {
		os.Remove(dst)
		out, err = os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	}
	if err != nil {
		return c.errorf("cannot create regular file %s: %s", tool.Quote(dst), tool.Strerror(err))
	}
	buf := make([]byte, 64<<10)
	_, err = io.CopyBuffer(struct{ io.Writer }{out}, struct{ io.Reader }{in}, buf)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return c.errorf("error copying %s to %s: %s", tool.Quote(src), tool.Quote(dst), tool.Strerror(err))
	}
	c.preserve(dst, sfi)
	return true
}

func (c *Copier) preserve(dst string, sfi fs.FileInfo) {
	if c.PreserveMd {
		if err := os.Chmod(dst, sfi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)); err != nil &&
			!tool.IsErrno(err, syscall.ENOSYS) && !tool.IsErrno(err, syscall.ENOTSUP) {
			c.Env.Errorf("preserving permissions for %s: %s", tool.Quote(dst), tool.Strerror(err))
		}
	}
	if c.PreserveTm {
		t := sfi.ModTime()
		if err := os.Chtimes(dst, t, t); err != nil {
			c.Env.Errorf("preserving times for %s: %s", tool.Quote(dst), tool.Strerror(err))
		}
	}
}

func (c *Copier) copyDir(src, dst string, sfi, dfi fs.FileInfo, exists bool) bool {
	if !c.Recursive {
		return c.errorf("-r not specified; omitting directory %s", tool.Quote(src))
	}
	if exists && !dfi.IsDir() {
		return c.errorf("cannot overwrite non-directory %s with directory %s", tool.Quote(dst), tool.Quote(src))
	}
	if inside(src, dst) {
		return c.errorf("cannot copy a directory, %s, into itself, %s", tool.Quote(src), tool.Quote(dst))
	}
	if !exists {
		if err := os.Mkdir(dst, sfi.Mode().Perm()|0o700); err != nil {
			return c.errorf("cannot create directory %s: %s", tool.Quote(dst), tool.Strerror(err))
		}
		c.verbose(src, dst)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return c.errorf("cannot access %s: %s", tool.Quote(src), tool.Strerror(err))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	ok := true
	for _, e := range entries {
		if !c.Copy(joinPath(src, e.Name()), joinPath(dst, e.Name()), false) {
			ok = false
		}
	}
	c.preserve(dst, sfi)
	return ok
}

func joinPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// inside reports whether dst is src or lies below it.
func inside(src, dst string) bool {
	as, err1 := filepath.Abs(src)
	ad, err2 := filepath.Abs(dst)
	if err1 != nil || err2 != nil {
		return false
	}
	return ad == as || strings.HasPrefix(ad, strings.TrimSuffix(as, "/")+"/")
}

// Inside reports whether dst is src or lies below it, by absolute paths.
func Inside(src, dst string) bool { return inside(src, dst) }
