// Package tree implements tree: list directories as an indented tree, as
// tree 2.1 prints it when its output is not a terminal.
package tree

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// UpstreamVersion is the tree release whose output tree follows.
const UpstreamVersion = "2.1.0"

const usage = `usage: tree [-adfilprsDFh] [-L level] [-P pattern] [-I pattern]
	[--noreport] [--dirsfirst] [--filesfirst] [--prune] [--matchdirs]
	[--ignore-case] [--charset=X] [--] [directory ...]
`

const help = usage + `  ------- Listing options -------
  -a            All files are listed.
  -d            List directories only.
  -l            Follow symbolic links like directories.
  -f            Print the full path prefix for each file.
  -L level      Descend only level directories deep.
  -P pattern    List only those files that match the pattern given.
  -I pattern    Do not list files that match the given pattern.
  --ignore-case Ignore case when pattern matching.
  --matchdirs   Include directory names in -P pattern matching.
  --prune       Prune empty directories from the output.
  --noreport    Turn off file/directory count at end of tree listing.
  ------- File options -------
  -p            Print the protections for each file.
  -s            Print the size in bytes of each file.
  -h            Print the size in a more human readable way.
  -D            Print the date of last modification.
  -F            Appends '/', '=', '*', '@', '|' or '>' as per ls -F.
  ------- Sorting options -------
  -r            Sort files in reverse alphanumeric order.
  --dirsfirst   List directories before files.
  --filesfirst  List files before directories.
  ------- Graphics options -------
  -i            Don't print indentation lines.
  -n            Turn colorization off always (the default here).
  ------- Miscellaneous options -------
  --version     Print version and exit.
  --help        Print usage and this help message and exit.
  --            Options processing terminator.
`

type options struct {
	all, dirsOnly, follow, fullPath, noIndent bool
	perms, size, human, date, classify        bool
	noReport, dirsFirst, filesFirst, reverse  bool
	prune, matchDirs, ignoreCase              bool
	level                                     int  // 0: unlimited
	unicode                                   bool // line drawing in UTF-8, not ASCII
	include, exclude                          []string
}

type counts struct{ dirs, files int }

// Main is the tree command.
func Main(env *tool.Env) int {
	o := &options{unicode: utf8Locale(env)}
	var roots []string
	args := env.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			roots = append(roots, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			roots = append(roots, a)
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			switch name {
			case "help":
				fmt.Fprint(env.Out(), help)
				return 0
			case "version":
				fmt.Fprintf(env.Out(), "tree v%s (wasmsand %s)\n", UpstreamVersion, tool.Version)
				return 0
			case "noreport":
				o.noReport = true
			case "dirsfirst":
				o.dirsFirst = true
			case "filesfirst":
				o.filesFirst = true
			case "prune":
				o.prune = true
			case "matchdirs":
				o.matchDirs = true
			case "ignore-case":
				o.ignoreCase = true
			case "charset":
				if !hasVal && i+1 < len(args) {
					i++
					val = args[i]
				}
				v := strings.ToLower(val)
				o.unicode = v == "utf-8" || v == "utf8"
			case "filelimit", "sort", "timefmt":
				if !hasVal && i+1 < len(args) {
					i++
				}
				_ = val
			case "si", "du", "inodes", "device", "nolinks", "metafirst", "gitignore":
			default:
				fmt.Fprintf(env.Stderr, "tree: Invalid argument `%s'.\n%s", a, usage)
				return 1
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			value := func() (string, bool) {
				if j+1 < len(a) {
					v := a[j+1:]
					j = len(a)
					return v, true
				}
				if i+1 < len(args) {
					i++
					return args[i], true
				}
				return "", false
			}
			switch c {
			case 'a':
				o.all = true
			case 'd':
				o.dirsOnly = true
			case 'l':
				o.follow = true
			case 'f':
				o.fullPath = true
			case 'i':
				o.noIndent = true
			case 'p':
				o.perms = true
			case 's':
				o.size = true
			case 'h':
				o.human, o.size = true, false
			case 'D':
				o.date = true
			case 'F':
				o.classify = true
			case 'r':
				o.reverse = true
			case 'n', 'N', 'q', 'A', 'C', 'S', 'U', 'v':
			case 'L':
				v, ok := value()
				if !ok {
					fmt.Fprintf(env.Stderr, "tree: Missing argument to -L option.\n")
					return 1
				}
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 {
					fmt.Fprintf(env.Stderr, "tree: Invalid level, must be greater than 0.\n")
					return 1
				}
				o.level = n
			case 'P', 'I':
				v, ok := value()
				if !ok {
					fmt.Fprintf(env.Stderr, "tree: Missing argument to -%c option.\n", c)
					return 1
				}
				if c == 'P' {
					o.include = append(o.include, v)
				} else {
					o.exclude = append(o.exclude, v)
				}
			default:
				fmt.Fprintf(env.Stderr, "tree: Invalid argument -`%c'.\n%s", c, usage)
				return 1
			}
		}
	}
	if o.human {
		o.size = false
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	out := env.Out()
	var total counts
	status := 0
	for _, r := range roots {
		fi, err := os.Stat(r)
		if err != nil || !fi.IsDir() {
			// tree 2.1 says so of a file too, and counts it as one.
			fmt.Fprintf(out, "%s  [error opening dir]\n", r)
			if err != nil {
				status = 2
			} else {
				total.files++
			}
			continue
		}
		w := &walker{o: o, out: out, c: &total}
		if o.fullPath {
			r = strings.TrimSuffix(r, "/")
		}
		total.dirs++
		w.line(r, r, "", fi, "")
		w.dir(r, "", 1)
	}
	if !o.noReport {
		fmt.Fprintln(out)
		if o.dirsOnly {
			fmt.Fprintln(out, plural(total.dirs, "directory", "directories"))
		} else {
			fmt.Fprintf(out, "%s, %s\n", plural(total.dirs, "directory", "directories"), plural(total.files, "file", "files"))
		}
	}
	return status
}

// utf8Locale reports whether the locale's charset is UTF-8, as the C
// library decides it from LC_ALL, LC_CTYPE and LANG.
func utf8Locale(env *tool.Env) bool {
	loc := env.Env("LC_ALL")
	if loc == "" {
		loc = env.Env("LC_CTYPE")
	}
	if loc == "" {
		loc = env.Env("LANG")
	}
	loc = strings.ToLower(loc)
	return strings.Contains(loc, "utf-8") || strings.Contains(loc, "utf8")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

type walker struct {
	o       *options
	out     interface{ WriteString(string) (int, error) }
	c       *counts
	visited []fs.FileInfo // directories listed, for -l's loop check
}

// seen reports whether dir was listed already, and records it.
func (w *walker) seen(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil {
		return false
	}
	for _, v := range w.visited {
		if os.SameFile(v, fi) {
			return true
		}
	}
	w.visited = append(w.visited, fi)
	return false
}

type item struct {
	name  string
	info  fs.FileInfo // lstat
	isDir bool        // a directory, or a link to one followed by -l
	link  string
	tinfo fs.FileInfo // the link target's stat
}

// matches reports whether name matches a "|"-separated list of globs.
func (w *walker) matches(pats []string, name string) bool {
	if w.o.ignoreCase {
		name = strings.ToLower(name)
	}
	for _, p := range pats {
		for _, alt := range strings.Split(p, "|") {
			if w.o.ignoreCase {
				alt = strings.ToLower(alt)
			}
			if ok, _ := path.Match(alt, name); ok {
				return true
			}
		}
	}
	return false
}

// entries lists a directory's entries to show, sorted.
func (w *walker) entries(dir string) ([]item, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var items []item
	for _, de := range des {
		name := de.Name()
		if !w.o.all && strings.HasPrefix(name, ".") {
			continue
		}
		full := dir + "/" + name
		info, err := os.Lstat(full)
		if err != nil {
			continue
		}
		it := item{name: name, info: info}
		if info.Mode()&fs.ModeSymlink != 0 {
			it.link, _ = os.Readlink(full)
			if ti, err := os.Stat(full); err == nil {
				it.tinfo = ti
				it.isDir = ti.IsDir()
			}
		} else {
			it.isDir = info.IsDir()
		}
		if len(w.o.exclude) > 0 && w.matches(w.o.exclude, name) {
			continue
		}
		if w.o.dirsOnly && !it.isDir {
			continue
		}
		realDir := it.isDir && (it.link == "" || w.o.follow)
		if len(w.o.include) > 0 && (!realDir || w.o.matchDirs) && !w.matches(w.o.include, name) {
			continue
		}
		items = append(items, it)
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if w.o.dirsFirst && a.isDir != b.isDir {
			return a.isDir
		}
		if w.o.filesFirst && a.isDir != b.isDir {
			return !a.isDir
		}
		if w.o.reverse {
			return a.name > b.name
		}
		return a.name < b.name
	})
	return items, nil
}

// dir lists the contents of dir at depth, each line after prefix.
func (w *walker) dir(dir, prefix string, depth int) {
	if w.o.level > 0 && depth > w.o.level {
		return
	}
	if w.o.follow {
		w.seen(dir)
	}
	items, err := w.entries(dir)
	if err != nil {
		return
	}
	if w.o.prune {
		var kept []item
		for _, it := range items {
			if it.isDir && (it.link == "" || w.o.follow) && w.empty(dir+"/"+it.name, depth+1) {
				continue
			}
			kept = append(kept, it)
		}
		items = kept
	}
	for i, it := range items {
		last := i == len(items)-1
		// In UTF-8, tree's vertical line is followed by two no-break
		// spaces; in any other charset it draws with ASCII.
		branch, next := "|-- ", "|   "
		if last {
			branch, next = "`-- ", "    "
		}
		if w.o.unicode {
			branch, next = "├── ", "│\u00a0\u00a0 "
			if last {
				branch, next = "└── ", "    "
			}
		}
		if w.o.noIndent {
			branch, next = "", ""
		}
		full := strings.TrimSuffix(dir, "/") + "/" + it.name
		shown := it.name
		if w.o.fullPath {
			shown = full
		}
		info := it.info
		link := it.link
		descend := it.isDir && (it.link == "" || w.o.follow)
		if descend && it.link != "" && w.seen(full) {
			link += "  [recursive, not followed]"
			descend = false
		}
		w.line(full, shown, prefix+branch, info, link)
		if it.isDir {
			w.c.dirs++
			if descend {
				w.dir(full, prefix+next, depth+1)
			}
		} else {
			w.c.files++
		}
	}
}

// empty reports whether a directory shows nothing (for --prune).
func (w *walker) empty(dir string, depth int) bool {
	if w.o.level > 0 && depth > w.o.level {
		return true
	}
	items, err := w.entries(dir)
	if err != nil {
		return true
	}
	for _, it := range items {
		if !it.isDir || !w.empty(dir+"/"+it.name, depth+1) {
			return false
		}
	}
	return true
}

// line prints one entry.
func (w *walker) line(full, shown, prefix string, info fs.FileInfo, link string) {
	var meta []string
	if w.o.perms {
		meta = append(meta, modeString(info.Mode()))
	}
	if w.o.size {
		meta = append(meta, fmt.Sprintf("%11d", info.Size()))
	}
	if w.o.human {
		meta = append(meta, human(info.Size()))
	}
	if w.o.date {
		meta = append(meta, info.ModTime().Format("Jan _2 15:04"))
	}
	var b strings.Builder
	b.WriteString(prefix)
	if len(meta) > 0 {
		b.WriteString("[" + strings.Join(meta, " ") + "]  ")
	}
	b.WriteString(shown)
	if link != "" {
		b.WriteString(" -> " + link)
		if w.o.classify {
			if ti, err := os.Stat(full); err == nil {
				b.WriteString(classify(ti.Mode()))
			}
		}
	} else if w.o.classify {
		b.WriteString(classify(info.Mode()))
	}
	b.WriteByte('\n')
	w.out.WriteString(b.String())
}

func classify(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "/"
	case m&fs.ModeSymlink != 0:
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

// human formats a size as tree -h does: bytes below 1024, then one
// decimal below 10 of a unit, none above.
func human(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%4d", n)
	}
	units := "KMGTPE"
	f := float64(n)
	i := -1
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if f < 9.95 {
		return fmt.Sprintf("%3.1f%c", f, units[i])
	}
	return fmt.Sprintf("%3.0f%c", f, units[i])
}

func modeString(m fs.FileMode) string {
	var b [10]byte
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
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) != 0 {
			b[i+1] = rwx[i]
		} else {
			b[i+1] = '-'
		}
	}
	if m&fs.ModeSetuid != 0 {
		b[3] = map[bool]byte{true: 's', false: 'S'}[b[3] == 'x']
	}
	if m&fs.ModeSetgid != 0 {
		b[6] = map[bool]byte{true: 's', false: 'S'}[b[6] == 'x']
	}
	if m&fs.ModeSticky != 0 {
		b[9] = map[bool]byte{true: 't', false: 'T'}[b[9] == 'x']
	}
	return string(b[:])
}
