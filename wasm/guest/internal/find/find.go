// Package find implements the find command: walk directory trees and
// evaluate an expression of tests and actions on every file, as GNU
// findutils' find does. Directories are read in the order the file system
// gives, which for the sandbox's VFS (and here natively, through
// os.ReadDir) is sorted by name.
package find

import (
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]

default path is the current directory; default expression is -print
expression may consist of: operators, options, tests, and actions:

operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

positional options (always true):
      -daystart -follow -regextype

normal options (always true, specified before other expressions):
      -depth -files0-from FILE -maxdepth LEVELS -mindepth LEVELS
       -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race

tests (N can be +N or -N or N):
      -amin N -anewer FILE -atime N -cmin N -cnewer FILE -ctime N
      -empty -false -gid N -group NAME -ilname PATTERN -iname PATTERN
      -inum N -ipath PATTERN -iregex PATTERN -iwholename PATTERN
      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -nogroup -nouser -path PATTERN -perm [-/]MODE -regex PATTERN
      -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -used N -user NAME -xtype [bcdpfls]

actions: -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print
      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;
      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;

Directories are read in name order (the sandbox's file system order).
`

// follow says which symbolic links find follows.
type follow int

const (
	followNever  follow = iota // -P
	followArgs                 // -H: only command-line arguments
	followAlways               // -L
)

// finder is the state of one find run.
type finder struct {
	env      *tool.Env
	follow   follow
	depth    bool // -depth: directories after their contents
	maxDepth int
	minDepth int
	xdev     bool
	expr     node
	status   int
	quit     bool
	now      time.Time
	execs    []*execNode // -exec ... + batches to flush at the end
	files    map[string]*os.File
	listings []*listing // the directories being walked, by depth
}

// file is the file being examined. Its path and base name are valid while
// find is in its directory (see listing): clone them to keep them longer.
type file struct {
	path string // as printed
	// base is the base name, a suffix of path, for files found in a
	// directory ("" for starting points, whose names baseName finds).
	base  string
	start string // the starting point it was found under
	depth int
	// typ is the type from the directory entry (before stat).
	typ     fs.FileMode
	info    fs.FileInfo // per the follow mode; nil until needed
	infoErr error
	lstat   fs.FileInfo
	sys     *sysStat
	prune   bool
	f       *finder
}

// sysStat holds what fs.FileInfo does not.
type sysStat struct {
	dev, ino, nlink uint64
	uid, gid        uint32
	blocks          int64
	atime, ctime    time.Time
}

func (f *file) following() bool {
	return f.f.follow == followAlways || (f.f.follow == followArgs && f.depth == 0)
}

// stat returns the file's status, following links as the options say (a
// dangling link is reported as itself).
func (f *file) stat() (fs.FileInfo, error) {
	if f.info == nil && f.infoErr == nil {
		if f.following() {
			f.info, f.infoErr = os.Stat(f.path)
			if f.infoErr != nil {
				if li, err := os.Lstat(f.path); err == nil {
					f.info, f.infoErr = li, nil
				}
			}
		} else {
			f.info, f.infoErr = f.lstatInfo()
		}
	}
	return f.info, f.infoErr
}

func (f *file) lstatInfo() (fs.FileInfo, error) {
	if f.lstat == nil {
		li, err := os.Lstat(f.path)
		if err != nil {
			return nil, err
		}
		f.lstat = li
	}
	return f.lstat, nil
}

func (f *file) sysinfo() *sysStat {
	if f.sys == nil {
		s := sysStat{}
		if fi, err := f.stat(); err == nil {
			s = sysInfo(fi)
		}
		f.sys = &s
	}
	return f.sys
}

// mode returns the file's type bits, from the directory entry when it
// suffices.
func (f *file) mode() fs.FileMode {
	if f.info == nil && (f.typ&fs.ModeSymlink == 0 || !f.following()) && f.typ != fs.ModeIrregular {
		return f.typ
	}
	fi, err := f.stat()
	if err != nil {
		return f.typ
	}
	return fi.Mode().Type()
}

// name is the file's base name as find sees it.
func (f *file) name() string {
	if f.base != "" {
		return f.base
	}
	return baseName(f.path)
}

func baseName(p string) string {
	if p == "/" {
		return "/"
	}
	p = strings.TrimRight(p, "/")
	if p == "" {
		return "/"
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// Main runs find.
func Main(env *tool.Env) int {
	args := env.Args[1:]
	fd := &finder{env: env, maxDepth: -1, now: time.Now(), files: map[string]*os.File{}}
	quoteUTF8 = utf8Locale(env)
	// Leading -H, -L, -P, -D and -O options.
	for len(args) > 0 {
		a := args[0]
		if a == "--help" {
			return env.Help(help)
		}
		if a == "--version" {
			return env.PrintVersion()
		}
		if a == "--" {
			args = args[1:]
			break
		}
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "HLP") != "" {
			if strings.HasPrefix(a, "-O") {
				args = args[1:]
				continue
			}
			if a == "-D" && len(args) > 1 {
				args = args[2:]
				continue
			}
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'H':
				fd.follow = followArgs
			case 'L':
				fd.follow = followAlways
			case 'P':
				fd.follow = followNever
			}
		}
		args = args[1:]
	}
	var starts []string
	for len(args) > 0 && !isExprStart(args[0]) {
		starts = append(starts, args[0])
		args = args[1:]
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	p := &parser{f: fd, args: args}
	expr, err := p.parse()
	if err != nil {
		env.Errorf("%s", err.Error())
		return 1
	}
	fd.expr = expr
	for _, s := range starts {
		if fd.quit {
			break
		}
		if s == "" {
			env.Errorf("'': No such file or directory")
			fd.status = 1
			continue
		}
		fd.walk(&file{path: s, start: s, depth: 0, typ: fs.ModeIrregular, f: fd}, nil)
	}
	fd.flushAll()
	for _, f := range fd.files {
		f.Close()
	}
	return fd.status
}

// isExprStart reports whether a command-line argument begins the
// expression rather than naming a starting point.
func isExprStart(a string) bool {
	if a == "(" || a == "!" || a == ")" || a == "," {
		return true
	}
	return len(a) > 1 && a[0] == '-'
}

func (fd *finder) errorf(format string, a ...any) {
	fd.env.Errorf(format, a...)
	fd.status = 1
}

// quoteUTF8 is set when the locale is a UTF-8 one: file names in messages
// are then quoted ‘name’, as GNU tools do there.
var quoteUTF8 bool

// quote quotes a file name for a message the way find does.
func quote(s string) string {
	q := tool.Quote(s)
	if quoteUTF8 && strings.HasPrefix(q, "'") && strings.HasSuffix(q, "'") && !strings.Contains(q[1:len(q)-1], "'") {
		return "\u2018" + q[1:len(q)-1] + "\u2019"
	}
	return q
}

// utf8Locale reports whether the environment selects a UTF-8 locale for
// messages.
func utf8Locale(env *tool.Env) bool {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := env.Env(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// walk visits f and, for a directory, what it holds. ancestors are the
// directories above it, for loop detection when following links.
func (fd *finder) walk(f *file, ancestors []fs.FileInfo) {
	// The directory entry's type is enough to walk by; the file is
	// stat'ed only when a test needs it, at the top, or to follow links.
	var fi fs.FileInfo
	if f.depth == 0 || f.typ == fs.ModeIrregular || f.typ&fs.ModeSymlink != 0 && f.following() {
		var err error
		if fi, err = f.stat(); err != nil {
			fd.errorf("%s: %s", quote(f.path), tool.Strerror(err))
			return
		}
		f.typ = fi.Mode().Type()
	}
	isDir := f.typ&fs.ModeDir != 0
	if isDir && fd.follow != followNever || isDir && fd.xdev {
		if fi == nil {
			var err error
			if fi, err = f.stat(); err != nil {
				fd.errorf("%s: %s", quote(f.path), tool.Strerror(err))
				return
			}
		}
		for _, a := range ancestors {
			if os.SameFile(a, fi) {
				fd.errorf("File system loop detected; %s is part of the same file system loop as %s.", quote(f.path), quote(f.start))
				return
			}
		}
	}
	visit := f.depth >= fd.minDepth
	if !fd.depth && visit {
		fd.eval(f)
		if fd.quit {
			return
		}
	}
	if isDir && !f.prune && (fd.maxDepth < 0 || f.depth < fd.maxDepth) {
		l := fd.listingAt(f.depth)
		if err := readDir(f.path, l); err != nil {
			fd.errorf("%s: %s", quote(f.path), tool.Strerror(err))
		}
		anc := ancestors
		if fi != nil {
			anc = append(ancestors, fi)
		}
		kids := fd.children(f, l)
		for i := range kids {
			child := &kids[i]
			if fd.xdev {
				if ci, err := child.stat(); err == nil && sysInfo(ci).dev != sysInfo(fi).dev {
					continue
				}
			}
			fd.walk(child, anc)
			if fd.quit {
				return
			}
		}
	}
	if fd.depth && visit {
		fd.eval(f)
	}
	fd.flushDir(f.path)
}

func (fd *finder) eval(f *file) {
	fd.expr.eval(f)
}
