// Package ls implements ls: list directory contents, one name per line
// (as GNU ls does when its output is not a terminal) or in long format.
package ls

import (
	"bufio"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	UsageExit: 2,
	Options: []tool.Option{
		{Short: 'a', Long: "all"},
		{Short: 'A', Long: "almost-all"},
		{Short: 'd', Long: "directory"},
		{Short: 'F', Long: "classify", Arg: tool.OptionalArg},
		{Short: 'p'},
		{Long: "indicator-style", Arg: tool.RequiredArg},
		{Short: 'l'},
		{Short: 'g'},
		{Short: 'o'},
		{Short: 'n', Long: "numeric-uid-gid"},
		{Short: '1'},
		{Short: 'C'},
		{Short: 'x'},
		{Short: 'm'},
		{Short: 'w', Long: "width", Arg: tool.RequiredArg},
		{Short: 'T', Long: "tabsize", Arg: tool.RequiredArg},
		{Long: "format", Arg: tool.RequiredArg},
		{Short: 'R', Long: "recursive"},
		{Short: 'r', Long: "reverse"},
		{Short: 't'},
		{Short: 'S'},
		{Short: 'U'},
		{Short: 'f'},
		{Short: 'X'},
		{Short: 'v'},
		{Long: "sort", Arg: tool.RequiredArg},
		{Short: 'h', Long: "human-readable"},
		{Long: "si"},
		{Short: 'i', Long: "inode"},
		{Short: 'L', Long: "dereference"},
		{Short: 'H', Long: "dereference-command-line"},
		{Long: "color", Arg: tool.OptionalArg},
		{Long: "full-time"},
		{Long: "time-style", Arg: tool.RequiredArg},
		{Long: "group-directories-first"},
		{Short: 'G', Long: "no-group"},
		{Short: 'Q', Long: "quote-name"},
		{Short: 'N', Long: "literal"},
		{Short: 'q', Long: "hide-control-chars"},
	},
	Help: `Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -tSUX is specified.

  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -d, --directory            list directories themselves, not their contents
  -F, --classify[=WHEN]      append indicator (one of */=>@|) to entries
  -g                         like -l, but do not list owner
  -G, --no-group             in a long listing, don't print group names
  -h, --human-readable       with -l, print sizes like 1K 234M 2G etc.
  -H, --dereference-command-line  follow symbolic links listed on the command line
  -L, --dereference          show information for the file a symbolic link
                               references rather than for the link itself
  -l                         use a long listing format
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -o                         like -l, but do not list group information
  -p                         append / indicator to directories
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -S                         sort by file size, largest first
  -t                         sort by time, newest first
  -U                         do not sort; list entries in directory order
  -1                         list one file per line
      --full-time            like -l --time-style=full-iso
      --group-directories-first  group directories before files
      --help        display this help and exit
      --version     output version information and exit

Exit status:
 0  if OK,
 1  if minor problems (e.g., cannot access subdirectory),
 2  if serious trouble (e.g., cannot access command-line argument).
`}

type sortBy uint8

const (
	byName sortBy = iota
	byTime
	bySize
	byNone
	byVersion
	byExtension
)

type indicator uint8

const (
	indNone indicator = iota
	indSlash
	indClassify
)

type lister struct {
	env       *tool.Env
	out       *bufio.Writer
	all       bool // -a
	almost    bool // -A
	dirsSelf  bool // -d
	long      bool
	owner     bool
	group     bool
	numeric   bool
	recursive bool
	reverse   bool
	sort      sortBy
	human     bool
	si        bool
	inode     bool
	deref     bool
	derefArgs bool
	timeStyle string // "" for the default, else a strftime format
	dirsFirst bool
	quote     bool
	ind       indicator
	format    layout
	width     int // line width for -C and -x
	tabsize   int
	now       time.Time
	status    int
}

// entry is one file to show.
type entry struct {
	name string // as shown
	path string // to reach it
	info fs.FileInfo
	link string // symlink target
}

// Main runs ls.
func Main(env *tool.Env) int {
	flags, operands, code, done := spec.Parse(env)
	if done {
		return code
	}
	l := &lister{env: env, out: env.Out(), owner: true, group: true, now: time.Now(), width: 80, tabsize: 8}
	if c, err := strconv.Atoi(env.Env("COLUMNS")); err == nil && c > 0 {
		l.width = c
	}
	if t, err := strconv.Atoi(env.Env("TABSIZE")); err == nil && t >= 0 {
		l.tabsize = t
	}
	derefSet := false
	for _, f := range flags {
		switch f.Name {
		case "a":
			l.all, l.almost = true, false
		case "A":
			l.almost, l.all = true, false
		case "d":
			l.dirsSelf = true
		case "F":
			switch f.Arg {
			case "", "always", "yes", "force":
				l.ind = indClassify
			case "never", "no", "none":
				l.ind = indNone
			case "auto", "tty", "if-tty":
			default:
				env.Errorf("invalid argument %s for '--classify'", tool.Quote(f.Arg))
				return env.Usage(2, "")
			}
		case "p":
			l.ind = indSlash
		case "indicator-style":
			switch f.Arg {
			case "none":
				l.ind = indNone
			case "slash":
				l.ind = indSlash
			case "classify", "file-type":
				l.ind = indClassify
			default:
				env.Errorf("invalid argument %s for '--indicator-style'", tool.Quote(f.Arg))
				return env.Usage(2, "")
			}
		case "l":
			l.long = true
		case "g":
			l.long, l.owner = true, false
		case "o":
			l.long, l.group = true, false
		case "G":
			l.group = false
		case "n":
			l.long, l.numeric = true, true
		case "1", "C", "x", "m":
			l.format = map[string]layout{"1": onePerLine, "C": columns, "x": across, "m": commas}[f.Name]
			if f.Name != "1" {
				l.long = false
			}
		case "format":
			switch f.Arg {
			case "long", "verbose":
				l.long = true
			case "single-column":
				l.format, l.long = onePerLine, false
			case "vertical":
				l.format, l.long = columns, false
			case "across", "horizontal":
				l.format, l.long = across, false
			case "commas":
				l.format, l.long = commas, false
			default:
				env.Errorf("invalid argument %s for '--format'", tool.Quote(f.Arg))
				return env.Usage(2, "")
			}
		case "w", "T":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 0 {
				if f.Name == "w" {
					env.Errorf("invalid line width: %s", tool.Quote(f.Arg))
				} else {
					env.Errorf("invalid tab size: %s", tool.Quote(f.Arg))
				}
				return 2
			}
			if f.Name == "w" {
				l.width = n
			} else {
				l.tabsize = n
			}
		case "R":
			l.recursive = true
		case "r":
			l.reverse = true
		case "t":
			l.sort = byTime
		case "S":
			l.sort = bySize
		case "U":
			l.sort = byNone
		case "f":
			l.sort, l.all = byNone, true
		case "X":
			l.sort = byExtension
		case "v":
			l.sort = byVersion
		case "sort":
			m := map[string]sortBy{"none": byNone, "time": byTime, "size": bySize, "name": byName, "version": byVersion, "extension": byExtension}
			s, ok := m[f.Arg]
			if !ok {
				env.Errorf("invalid argument %s for '--sort'", tool.Quote(f.Arg))
				return env.Usage(2, "")
			}
			l.sort = s
		case "h":
			l.human = true
		case "si":
			l.human, l.si = true, true
		case "i":
			l.inode = true
		case "L":
			l.deref, derefSet = true, true
		case "H":
			l.derefArgs, derefSet = true, true
		case "full-time":
			l.long, l.timeStyle = true, "%Y-%m-%d %H:%M:%S.%N %z"
		case "time-style":
			style := strings.TrimPrefix(f.Arg, "posix-")
			switch {
			case style == "full-iso":
				l.timeStyle = "%Y-%m-%d %H:%M:%S.%N %z"
			case style == "long-iso":
				l.timeStyle = "%Y-%m-%d %H:%M"
			case style == "iso":
				l.timeStyle = "iso"
			case style == "locale":
				l.timeStyle = ""
			case strings.HasPrefix(f.Arg, "+"):
				l.timeStyle = f.Arg[1:]
				if i := strings.IndexByte(l.timeStyle, '\n'); i >= 0 {
					l.timeStyle = l.timeStyle[:i]
				}
			default:
				env.Errorf("invalid argument %s for 'time style'", tool.Quote(f.Arg))
				return env.Usage(2, "")
			}
		case "group-directories-first":
			l.dirsFirst = true
		case "Q":
			l.quote = true
		}
	}
	if !derefSet && !l.long && !l.dirsSelf && l.ind != indClassify {
		l.derefArgs = true
	}
	if len(operands) == 0 {
		operands = []string{"."}
	}
	var files, dirs []entry
	for _, op := range operands {
		e, err := l.stat(op, op, l.deref || l.derefArgs)
		if err != nil {
			env.Errorf("cannot access %s: %s", tool.Quote(op), tool.Strerror(err))
			l.status = 2
			continue
		}
		if e.info.IsDir() && !l.dirsSelf {
			dirs = append(dirs, e)
		} else {
			files = append(files, e)
		}
	}
	l.sortEntries(files)
	l.sortEntries(dirs)
	if len(files) > 0 {
		l.print(files, false)
	}
	headers := len(operands) > 1 || l.recursive
	for i, d := range dirs {
		if i > 0 || len(files) > 0 {
			l.out.WriteByte('\n')
		}
		l.listDir(d.path, headers, true)
	}
	if _, err := l.out.Write(nil); err != nil {
		return env.WriteFailed(err)
	}
	return l.status
}

func (l *lister) stat(name, path string, follow bool) (entry, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return entry{}, err
	}
	e := entry{name: name, path: path, info: fi}
	if fi.Mode()&fs.ModeSymlink != 0 {
		e.link, _ = os.Readlink(path)
		if follow {
			if tfi, err := os.Stat(path); err == nil {
				e.info = tfi
				e.link = ""
			}
		}
	}
	return e, nil
}

func (l *lister) listDir(dir string, header, top bool) {
	des, err := os.ReadDir(dir)
	if header {
		l.out.WriteString(dir + ":\n")
	}
	if err != nil {
		l.env.Errorf("cannot open directory %s: %s", tool.Quote(dir), tool.Strerror(err))
		if top {
			l.status = 2
		} else if l.status == 0 {
			l.status = 1
		}
		return
	}
	join := func(name string) string {
		if strings.HasSuffix(dir, "/") {
			return dir + name
		}
		return dir + "/" + name
	}
	var entries []entry
	if l.all {
		for _, n := range []string{".", ".."} {
			if e, err := l.stat(n, join(n), false); err == nil {
				entries = append(entries, e)
			}
		}
	}
	for _, de := range des {
		n := de.Name()
		if n[0] == '.' && !l.all && !l.almost {
			continue
		}
		e, err := l.stat(n, join(n), l.deref)
		if err != nil {
			l.env.Errorf("cannot access %s: %s", tool.Quote(join(n)), tool.Strerror(err))
			l.status = max(l.status, 1)
			continue
		}
		entries = append(entries, e)
	}
	l.sortEntries(entries)
	if l.long {
		var total int64
		for _, e := range entries {
			_, b := sysInfo(e.info)
			total += b
		}
		if l.human {
			l.out.WriteString("total " + l.humanSize(total*1024) + "\n")
		} else {
			l.out.WriteString("total " + strconv.FormatInt(total, 10) + "\n")
		}
	}
	l.print(entries, true)
	if !l.recursive {
		return
	}
	for _, e := range entries {
		if e.info.IsDir() && e.name != "." && e.name != ".." && e.info.Mode()&fs.ModeSymlink == 0 {
			l.out.WriteByte('\n')
			l.listDir(e.path, true, false)
		}
	}
}

func (l *lister) sortEntries(es []entry) {
	if l.sort == byNone {
		return
	}
	cmp := func(a, b entry) int {
		switch l.sort {
		case byTime:
			if c := b.info.ModTime().Compare(a.info.ModTime()); c != 0 {
				return c
			}
		case bySize:
			if c := b.info.Size() - a.info.Size(); c != 0 {
				if c < 0 {
					return -1
				}
				return 1
			}
		case byExtension:
			if c := strings.Compare(ext(a.name), ext(b.name)); c != 0 {
				return c
			}
		case byVersion:
			if c := versionCompare(a.name, b.name); c != 0 {
				return c
			}
		}
		return strings.Compare(a.name, b.name)
	}
	if l.reverse {
		slices.SortStableFunc(es, func(a, b entry) int { return cmp(b, a) })
	} else {
		slices.SortStableFunc(es, cmp)
	}
	if l.dirsFirst {
		slices.SortStableFunc(es, func(a, b entry) int {
			ad, bd := a.info.IsDir(), b.info.IsDir()
			switch {
			case ad && !bd:
				return -1
			case bd && !ad:
				return 1
			}
			return 0
		})
	}
}

func ext(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[i:]
	}
	return ""
}

// versionCompare is a natural order: digit runs compare by value.
func versionCompare(a, b string) int {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			i, j := 0, 0
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := strings.TrimLeft(a[:i], "0"), strings.TrimLeft(b[:j], "0")
			if len(na) != len(nb) {
				return len(na) - len(nb)
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (l *lister) suffix(e entry) string {
	m := e.info.Mode()
	if l.ind == indClassify && m.IsRegular() {
		m = l.mode(e)
	}
	switch {
	case l.ind == indNone:
		return ""
	case m.IsDir():
		return "/"
	case l.ind == indSlash:
		return ""
	case m&fs.ModeSymlink != 0:
		if l.long {
			return ""
		}
		return "@"
	case m&fs.ModeNamedPipe != 0:
		return "|"
	case m&fs.ModeSocket != 0:
		return "="
	case m.IsRegular() && m&0o111 != 0:
		return "*"
	}
	return ""
}

func (l *lister) displayName(name string) string {
	if l.quote {
		return strconv.Quote(name)
	}
	return name
}

func (l *lister) print(es []entry, inDir bool) {
	if !l.long && l.format != onePerLine {
		l.printGrid(es)
		return
	}
	if !l.long {
		for _, e := range es {
			if l.inode {
				ino := inode(e.info)
				l.out.WriteString(strconv.FormatUint(ino, 10) + " ")
			}
			l.out.WriteString(l.displayName(e.name))
			l.out.WriteString(l.suffix(e))
			l.out.WriteByte('\n')
		}
		return
	}
	type row struct {
		ino, mode, links, owner, group, size, date string
	}
	rows := make([]row, len(es))
	var w row
	widen := func(cur *string, s string) {
		if len(s) > len(*cur) {
			*cur = strings.Repeat(" ", len(s))
		}
	}
	for i, e := range es {
		nlink, _ := sysInfo(e.info)
		r := row{
			mode:  modeString(l.mode(e)),
			links: strconv.FormatInt(nlink, 10),
			owner: "user",
			group: "user",
			date:  l.date(e.info.ModTime()),
		}
		if l.numeric {
			r.owner, r.group = "1000", "1000"
		}
		if l.inode {
			r.ino = strconv.FormatUint(inode(e.info), 10)
		}
		if l.human {
			r.size = l.humanSize(e.info.Size())
		} else {
			r.size = strconv.FormatInt(e.info.Size(), 10)
		}
		rows[i] = r
		widen(&w.ino, r.ino)
		widen(&w.links, r.links)
		widen(&w.owner, r.owner)
		widen(&w.group, r.group)
		widen(&w.size, r.size)
	}
	pad := func(s, width string, right bool) string {
		if n := len(width) - len(s); n > 0 {
			if right {
				return strings.Repeat(" ", n) + s
			}
			return s + strings.Repeat(" ", n)
		}
		return s
	}
	for i, e := range es {
		r := rows[i]
		var b strings.Builder
		if l.inode {
			b.WriteString(pad(r.ino, w.ino, true) + " ")
		}
		b.WriteString(r.mode + " " + pad(r.links, w.links, true) + " ")
		if l.owner {
			b.WriteString(pad(r.owner, w.owner, false) + " ")
		}
		if l.group {
			b.WriteString(pad(r.group, w.group, false) + " ")
		}
		b.WriteString(pad(r.size, w.size, true) + " " + r.date + " ")
		b.WriteString(l.displayName(e.name))
		if e.link != "" {
			b.WriteString(" -> " + l.displayName(e.link))
		}
		b.WriteString(l.suffix(e))
		b.WriteByte('\n')
		l.out.WriteString(b.String())
	}
}

func inode(fi fs.FileInfo) uint64 {
	return inodeOf(fi)
}

const sixMonths = 31556952 / 2 * time.Second

func (l *lister) date(t time.Time) string {
	recent := t.After(l.now.Add(-sixMonths)) && !t.After(l.now)
	switch l.timeStyle {
	case "":
	case "iso":
		if recent {
			return t.Format("01-02 15:04")
		}
		return t.Format("2006-01-02 ")
	default:
		return tool.Strftime(l.timeStyle, t)
	}
	if recent {
		return t.Format("Jan _2 15:04")
	}
	return t.Format("Jan _2  2006")
}

func (l *lister) humanSize(n int64) string {
	base := 1024.0
	if l.si {
		base = 1000
	}
	if float64(n) < base {
		return strconv.FormatInt(n, 10)
	}
	const units = "KMGTPEZY"
	v, u := float64(n), -1
	for v >= base && u < len(units)-1 {
		v /= base
		u++
	}
	unit := string(units[u])
	if l.si && u == 0 {
		unit = "k"
	}
	if v < 10 {
		c := math.Ceil(v*10) / 10
		if c < 10 {
			return strconv.FormatFloat(c, 'f', 1, 64) + unit
		}
		v = c
	}
	c := math.Ceil(v)
	if c >= base && u+1 < len(units) {
		return "1.0" + string(units[u+1])
	}
	return strconv.FormatInt(int64(c), 10) + unit
}

// modeString renders a mode as ls -l does: type letter and rwx triplets.
func modeString(m fs.FileMode) string {
	b := []byte("?rwxrwxrwx")
	switch {
	case m.IsDir():
		b[0] = 'd'
	case m&fs.ModeSymlink != 0:
		b[0] = 'l'
	case m&fs.ModeNamedPipe != 0:
		b[0] = 'p'
	case m&fs.ModeSocket != 0:
		b[0] = 's'
	case m&fs.ModeCharDevice != 0:
		b[0] = 'c'
	case m&fs.ModeDevice != 0:
		b[0] = 'b'
	default:
		b[0] = '-'
	}
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) == 0 {
			b[i+1] = '-'
		}
	}
	special := func(pos int, set bool, lower, upper byte) {
		if !set {
			return
		}
		if b[pos] == 'x' {
			b[pos] = lower
		} else {
			b[pos] = upper
		}
	}
	special(3, m&fs.ModeSetuid != 0, 's', 'S')
	special(6, m&fs.ModeSetgid != 0, 's', 'S')
	special(9, m&fs.ModeSticky != 0, 't', 'T')
	return string(b)
}

// estimateBlocks guesses 1024-byte blocks from the size, in 4 KiB units.
func estimateBlocks(fi fs.FileInfo) int64 {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return 0
	}
	return (fi.Size() + 4095) / 4096 * 4
}
