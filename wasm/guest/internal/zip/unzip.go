package zip

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/flate"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const unzipHelp = `Usage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]
  Default action is to extract files in list, except those in xlist, to exdir;
  -p  extract files to pipe, no messages     -l  list files (short format)
  -t  test compressed archive data           -d  extract files into exdir
modifiers:
  -n  never overwrite existing files         -q  quiet mode (-qq => quieter)
  -o  overwrite files WITHOUT prompting      -j  junk paths (do not make directories)
`

type unzipper struct {
	env               *tool.Env
	list, pipe, test  bool
	never, over, junk bool
	quiet             int
	dir               string
	all, none         bool
	in                *bufio.Reader
	status            int
	include, exclude  []string
}

// UnzipMain runs unzip.
func UnzipMain(env *tool.Env) int {
	u := &unzipper{env: env}
	var operands []string
	args := env.Args[1:]
	inExclude := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--help" || a == "-h" {
			return env.Help(unzipHelp)
		}
		if a == "--version" {
			return env.PrintVersion()
		}
		if len(a) > 1 && a[0] == '-' {
			inExclude = false
			for k := 1; k < len(a); k++ {
				switch a[k] {
				case 'l', 'v':
					u.list = true
				case 'p':
					u.pipe = true
				case 't':
					u.test = true
				case 'n':
					u.never = true
				case 'o':
					u.over = true
				case 'j':
					u.junk = true
				case 'q':
					u.quiet++
				case 'a', 'b', 'C', 'L', 'X', 'D', 'K', 'U':
				case 'x':
					inExclude = true
				case 'd':
					if k+1 < len(a) {
						u.dir = a[k+1:]
					} else if i+1 < len(args) {
						i++
						u.dir = args[i]
					} else {
						fmt.Fprintf(env.Stderr, "error:  must specify directory to which to extract with -d option\n")
						return 10
					}
					k = len(a)
				default:
					fmt.Fprintf(env.Stderr, "unzip:  error in option -%c\n", a[k])
					return 10
				}
			}
			continue
		}
		if inExclude {
			u.exclude = append(u.exclude, a)
			continue
		}
		operands = append(operands, a)
	}
	if len(operands) == 0 {
		return env.Help(unzipHelp)
	}
	archive := operands[0]
	u.include = operands[1:]
	r, err := zip.OpenReader(archive)
	if err != nil && !strings.HasSuffix(archive, ".zip") {
		if r2, err2 := zip.OpenReader(archive + ".zip"); err2 == nil {
			r, err, archive = r2, nil, archive+".zip"
		}
	}
	if err != nil {
		if _, serr := os.Stat(archive); serr != nil {
			fmt.Fprintf(env.Stderr, "unzip:  cannot find or open %s, %s.zip or %s.ZIP.\n", archive, archive, archive)
			return 9
		}
		fmt.Fprintf(env.Stderr, "  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n  latter case the central directory and zipfile comment will be found on\n  the last disk(s) of this archive.\nunzip:  cannot find zipfile directory in one of %s or\n        %s.zip, and cannot find %s.ZIP, period.\n", archive, archive, archive)
		return 9
	}
	defer r.Close()
	r.RegisterDecompressor(zip.Deflate, flate.NewReader) // faster than compress/flate
	u.in = bufio.NewReader(env.Stdin)
	out := env.Out()
	if !u.pipe && (u.quiet == 0 || u.list) {
		fmt.Fprintf(out, "Archive:  %s\n", archive)
	}
	switch {
	case u.list:
		u.doList(r.File)
	case u.test:
		u.doTest(r.File, archive)
	default:
		matched := 0
		for _, f := range r.File {
			if !u.selected(f.Name) {
				continue
			}
			matched++
			if err := u.extract(f); err != nil {
				return u.fatal(err)
			}
		}
		for _, inc := range u.include {
			found := false
			for _, f := range r.File {
				if ok := wild(inc, f.Name); ok || f.Name == inc {
					found = true
				}
			}
			if !found {
				fmt.Fprintf(env.Stderr, "caution: filename not matched:  %s\n", inc)
				u.status = 11
			}
		}
	}
	return u.status
}

func (u *unzipper) fatal(err error) int {
	u.env.Out().Flush()
	fmt.Fprintf(u.env.Stderr, "error: %v\n", err)
	return 50
}

func (u *unzipper) selected(name string) bool {
	for _, x := range u.exclude {
		if ok := wild(x, name); ok || x == name {
			return false
		}
	}
	if len(u.include) == 0 {
		return true
	}
	for _, inc := range u.include {
		if ok := wild(inc, name); ok || inc == name {
			return true
		}
	}
	return false
}

func (u *unzipper) doList(files []*zip.File) {
	out := u.env.Out()
	fmt.Fprintf(out, "  Length      Date    Time    Name\n---------  ---------- -----   ----\n")
	var total uint64
	n := 0
	for _, f := range files {
		if !u.selected(f.Name) {
			continue
		}
		fmt.Fprintf(out, "%9d  %s   %s\n", f.UncompressedSize64, f.Modified.Format("2006-01-02 15:04"), f.Name)
		total += f.UncompressedSize64
		n++
	}
	word := "files"
	if n == 1 {
		word = "file"
	}
	fmt.Fprintf(out, "---------                     -------\n%9d                     %d %s\n", total, n, word)
}

func (u *unzipper) doTest(files []*zip.File, archive string) {
	out := u.env.Out()
	bad := 0
	for _, f := range files {
		rc, err := f.Open()
		if err == nil {
			_, err = io.Copy(io.Discard, rc)
			rc.Close()
		}
		if err != nil {
			bad++
			fmt.Fprintf(out, "    testing: %-22s  bad CRC or data\n", f.Name)
			continue
		}
		if u.quiet == 0 {
			fmt.Fprintf(out, "    testing: %-22s   OK\n", f.Name)
		}
	}
	if bad == 0 {
		fmt.Fprintf(out, "No errors detected in compressed data of %s.\n", archive)
		return
	}
	fmt.Fprintf(out, "At least one error was detected in %s.\n", archive)
	u.status = 2
}

// safeName is where an entry goes below the target directory: as Info-ZIP
// does, leading "/" and any ".." components are dropped with a warning.
func (u *unzipper) safeName(name string) string {
	parts := strings.Split(filepath.ToSlash(name), "/")
	kept := parts[:0]
	dropped := false
	for i, p := range parts {
		switch {
		case p == "..":
			dropped = true
		case p == "" && i < len(parts)-1, p == ".":
			if i == 0 && p == "" {
				dropped = true
			}
		default:
			kept = append(kept, p)
		}
	}
	n := strings.Join(kept, "/")
	if dropped {
		u.env.Out().Flush()
		fmt.Fprintf(u.env.Stderr, "warning:  skipped \"../\" path component(s) in %s\n", name)
		if u.status == 0 {
			u.status = 1
		}
	}
	if u.junk {
		n = path.Base(n)
		if strings.HasSuffix(name, "/") {
			return ""
		}
	}
	return n
}

func (u *unzipper) extract(f *zip.File) error {
	out := u.env.Out()
	if u.pipe {
		if f.FileInfo().IsDir() {
			return nil
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		_, err = io.Copy(out, rc)
		return err
	}
	name := u.safeName(f.Name)
	if name == "" || name == "/" {
		return nil
	}
	target := name
	if u.dir != "" {
		target = filepath.Join(u.dir, name)
	}
	mode := f.Mode()
	if mode.IsDir() || strings.HasSuffix(f.Name, "/") {
		if u.quiet == 0 {
			fmt.Fprintf(out, "   creating: %s\n", withSlash(target))
		}
		if err := os.MkdirAll(target, 0o755); err != nil {
			return err
		}
		return nil
	}
	if throughSymlink(u.dir, name) {
		fmt.Fprintf(u.env.Stderr, "error:  cannot create %s\n        not a directory (would follow a symbolic link)\n", target)
		u.status = 1
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(target); err == nil {
		if !u.overwrite(target) {
			return nil
		}
		os.Remove(target)
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	verb := "  inflating"
	if f.Method == zip.Store {
		verb = " extracting"
	}
	if u.quiet == 0 {
		fmt.Fprintf(out, "%s: %-22s \n", verb, target)
	}
	if mode&fs.ModeSymlink != 0 {
		link, err := io.ReadAll(io.LimitReader(rc, 4096))
		if err != nil {
			return err
		}
		if u.quiet == 0 {
			fmt.Fprintf(out, "    linking: %-22s -> %s \n", target, link)
		}
		return os.Symlink(string(link), target)
	}
	w, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("cannot create %s: %s", target, tool.Strerror(err))
	}
	_, err = io.Copy(w, rc)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: write error (disk full?): %s", target, tool.Strerror(err))
	}
	if perm := mode.Perm(); perm != 0 {
		fsx.Chmod(target, perm, false)
	}
	os.Chtimes(target, f.Modified, f.Modified)
	return nil
}

func withSlash(s string) string {
	if strings.HasSuffix(s, "/") {
		return s
	}
	return s + "/"
}

// overwrite decides about an existing file: -o yes, -n no, otherwise ask
// on standard input as Info-ZIP does.
func (u *unzipper) overwrite(target string) bool {
	switch {
	case u.over || u.all:
		return true
	case u.never || u.none:
		return false
	}
	u.env.Out().Flush()
	fmt.Fprintf(u.env.Stderr, "replace %s? [y]es, [n]o, [A]ll, [N]one, [r]ename: ", target)
	line, err := u.in.ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintf(u.env.Stderr, "NULL\n(EOF or read error, treating as \"[N]one\" ...)\n")
		u.none = true
		return false
	}
	switch strings.TrimSpace(line) {
	case "y", "Y", "yes":
		return true
	case "A":
		u.all = true
		return true
	case "N":
		u.none = true
	}
	return false
}

// throughSymlink reports whether a parent directory of name below dir is a
// symbolic link, which a hostile archive could use to escape dir.
func throughSymlink(dir, name string) bool {
	parts := strings.Split(name, "/")
	p := dir
	for _, c := range parts[:len(parts)-1] {
		if p == "" {
			p = c
		} else {
			p = filepath.Join(p, c)
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return false
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// wild matches name against an Info-ZIP wildcard pattern: * and ? match
// any characters, "/" included; [...] is a character class.
func wild(pattern, name string) bool {
	for len(pattern) > 0 {
		switch pattern[0] {
		case '*':
			for i := len(name); i >= 0; i-- {
				if wild(pattern[1:], name[i:]) {
					return true
				}
			}
			return false
		case '?':
			if name == "" {
				return false
			}
			_, size := utf8.DecodeRuneInString(name)
			pattern, name = pattern[1:], name[size:]
		case '[':
			end := strings.IndexByte(pattern[1:], ']')
			if end < 0 || name == "" {
				return pattern == name
			}
			_, size := utf8.DecodeRuneInString(name)
			if ok, _ := path.Match(pattern[:end+2], name[:size]); !ok {
				return false
			}
			pattern, name = pattern[end+2:], name[size:]
		default:
			if name == "" || pattern[0] != name[0] {
				return false
			}
			pattern, name = pattern[1:], name[1:]
		}
	}
	return name == ""
}
