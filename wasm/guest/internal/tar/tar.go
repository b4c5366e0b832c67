// Package tar is the tar command: create, extract and list POSIX/GNU tar
// archives (archive/tar), gzip built in, with GNU tar's options, messages
// and its refusal to extract outside the target directory.
package tar

import (
	"archive/tar"
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: tar [OPTION...] [FILE]...
GNU-compatible tar: store, extract and list files in an archive.

Examples:
  tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar.
  tar -tvf archive.tar         # List all files in archive.tar verbosely.
  tar -xf archive.tar          # Extract all files from archive.tar.
  tar -czf a.tar.gz dir        # Create a gzip-compressed archive.

 Main operation mode:
  -c, --create               create a new archive
  -t, --list                 list the contents of an archive
  -x, --extract, --get       extract files from an archive

 Options:
  -C, --directory=DIR        change to directory DIR
  -f, --file=ARCHIVE         use archive file ARCHIVE ("-" is standard
                             input or output, the default)
  -O, --to-stdout            extract files to standard output
      --exclude=PATTERN      exclude files, given as a PATTERN
      --strip-components=NUMBER   strip NUMBER leading components from
                             file names on extraction
  -v, --verbose              verbosely list files processed
  -z, --gzip                 filter the archive through gzip
  -k, --keep-old-files       don't replace existing files when extracting
  -m, --touch                don't extract file modified time
  -p, --preserve-permissions accepted (permissions are always restored)
  -P, --absolute-names       accepted for compatibility; names are still
                             kept inside the target directory
      --help                 give this help list
      --version              print program version
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "create"},
		{Short: 't', Long: "list"},
		{Short: 'x', Long: "extract"},
		{Long: "get"},
		{Short: 'C', Long: "directory", Arg: tool.RequiredArg},
		{Short: 'f', Long: "file", Arg: tool.RequiredArg},
		{Short: 'O', Long: "to-stdout"},
		{Long: "exclude", Arg: tool.RequiredArg},
		{Long: "strip-components", Arg: tool.RequiredArg},
		{Short: 'v', Long: "verbose"},
		{Short: 'z', Long: "gzip"},
		{Long: "gunzip"},
		{Short: 'k', Long: "keep-old-files"},
		{Short: 'm', Long: "touch"},
		{Short: 'p', Long: "preserve-permissions"},
		{Short: 'P', Long: "absolute-names"},
		{Short: 'h', Long: "dereference"},
		{Long: "no-same-owner"},
		{Long: "help"},
		{Long: "version"},
	},
	Help:      help,
	UsageExit: 64,
}

type tarCmd struct {
	env      *tool.Env
	mode     byte // 'c', 'x' or 't'
	file     string
	dir      string
	toStdout bool
	excludes []string
	strip    int
	verbose  int
	gzip     bool
	keepOld  bool
	noMtime  bool
	deref    bool
	absolute bool // -P: store names as given (extraction stays safe)
	status   int
	warned   map[string]bool
	cwd      string // for the absolute names of members
}

// Main runs tar.
func Main(env *tool.Env) int {
	args := oldStyle(env.Args)
	e2 := *env
	e2.Args = args
	flags, operands, code, done := spec.Parse(&e2)
	if done {
		return code
	}
	t := &tarCmd{env: env, file: "-", warned: map[string]bool{}}
	for _, f := range flags {
		switch f.Name {
		case "c", "t", "x", "get":
			m := f.Name[0]
			if f.Name == "get" {
				m = 'x'
			}
			if t.mode != 0 && t.mode != m {
				env.Errorf("You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option")
				return env.Usage(2, "")
			}
			t.mode = m
		case "C":
			t.dir = f.Arg
		case "f":
			t.file = f.Arg
		case "O":
			t.toStdout = true
		case "exclude":
			t.excludes = append(t.excludes, f.Arg)
		case "strip-components":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 0 {
				env.Errorf("Invalid number of elements: %s", tool.Quote(f.Arg))
				return env.Usage(2, "")
			}
			t.strip = n
		case "v":
			t.verbose++
		case "z", "gunzip":
			t.gzip = true
		case "k":
			t.keepOld = true
		case "m":
			t.noMtime = true
		case "h":
			t.deref = true
		case "P":
			t.absolute = true
		}
	}
	if t.mode == 0 {
		env.Errorf("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
		return env.Usage(2, "")
	}
	var err error
	switch t.mode {
	case 'c':
		if len(operands) == 0 {
			env.Errorf("Cowardly refusing to create an empty archive")
			return env.Usage(2, "")
		}
		err = t.create(operands)
	default:
		err = t.read(operands)
	}
	if err != nil {
		var we writeError
		if errors.As(err, &we) {
			return env.WriteFailed(we.err)
		}
		env.Errorf("%v", err)
		env.Errorf("Error is not recoverable: exiting now")
		return 2
	}
	if t.status != 0 {
		env.Errorf("Exiting with failure status due to previous errors")
	}
	return t.status
}

// oldStyle rewrites tar's traditional first argument ("czf x.tar") into
// separate options, taking option arguments from the following words.
func oldStyle(args []string) []string {
	if len(args) < 2 || args[1] == "" || args[1][0] == '-' {
		return args
	}
	out := []string{args[0]}
	rest := args[2:]
	for _, c := range args[1] {
		switch c {
		case 'f', 'C':
			if len(rest) > 0 {
				out = append(out, "-"+string(c), rest[0])
				rest = rest[1:]
				continue
			}
		}
		out = append(out, "-"+string(c))
	}
	return append(out, rest...)
}

type writeError struct{ err error }

func (e writeError) Error() string { return e.err.Error() }

// fail reports a non-fatal error and marks the exit status.
func (t *tarCmd) fail(format string, a ...any) {
	t.env.Errorf(format, a...)
	t.status = 2
}

func (t *tarCmd) excluded(name string) bool {
	for _, p := range t.excludes {
		p = strings.TrimSuffix(p, "/")
		for n := strings.TrimSuffix(name, "/"); n != "" && n != "."; {
			if ok, _ := path.Match(p, n); ok {
				return true
			}
			if ok, _ := path.Match(p, path.Base(n)); ok {
				return true
			}
			i := strings.LastIndexByte(n, '/')
			if i < 0 {
				break
			}
			n = n[:i]
		}
	}
	return false
}

// --- create ---

func (t *tarCmd) create(operands []string) error {
	var w io.Writer
	if t.file == "-" {
		w = t.env.Out()
	} else {
		f, err := os.Create(t.file)
		if err != nil {
			return fmt.Errorf("%s: Cannot open: %s", t.file, tool.Strerror(err))
		}
		defer f.Close()
		bw := bufio.NewWriterSize(f, 64<<10)
		defer bw.Flush()
		w = bw
	}
	var gz *gzip.Writer
	if t.gzip {
		gz = gzip.NewWriter(w)
		w = gz
	}
	aw := newArchiveWriter(w)
	arch := newArchivePath(t.file)
	if t.file != "-" {
		t.cwd, _ = os.Getwd()
	}
	base := t.dir
	for _, op := range operands {
		src := op
		if base != "" && !filepath.IsAbs(op) {
			src = filepath.Join(base, op)
		}
		if err := t.addTree(aw, src, op, arch); err != nil {
			return err
		}
	}
	if err := aw.Close(); err != nil {
		return writeError{err}
	}
	if gz != nil {
		if err := gz.Close(); err != nil {
			return writeError{err}
		}
	}
	return nil
}

// memberName turns a path given on the command line into a member name as
// GNU tar does: leading slashes and "../" are removed, with a message once.
func (t *tarCmd) memberName(name string) string {
	n := name
	for {
		switch {
		case strings.HasPrefix(n, "/"):
			t.removing("/")
			n = strings.TrimLeft(n, "/")
			continue
		case strings.HasPrefix(n, "../"):
			t.removing("../")
			n = n[3:]
			continue
		case n == "..":
			t.removing("..")
			n = ""
		}
		break
	}
	return n
}

func (t *tarCmd) removing(prefix string) {
	if t.warned[prefix] {
		return
	}
	t.warned[prefix] = true
	t.env.Errorf("Removing leading `%s' from member names", prefix)
}

func (t *tarCmd) addTree(aw *archiveWriter, src, name string, arch *archivePath) error {
	var fi fs.FileInfo
	var err error
	if t.deref {
		fi, err = os.Stat(src)
	} else {
		fi, err = os.Lstat(src)
	}
	if err != nil {
		t.fail("%s: Cannot stat: %s", name, tool.Strerror(err))
		return nil
	}
	mname := filepath.ToSlash(name)
	if !t.absolute {
		mname = t.memberName(mname)
	}
	if t.excluded(mname) {
		return nil
	}
	if fi.Mode().IsRegular() && arch.is(src, t.cwd) {
		t.env.Errorf("%s: file is the archive; not dumped", name)
		return nil
	}
	link := ""
	if fi.Mode()&fs.ModeSymlink != 0 {
		if link, err = os.Readlink(src); err != nil {
			t.fail("%s: Cannot readlink: %s", name, tool.Strerror(err))
			return nil
		}
	}
	hdr, err := tar.FileInfoHeader(fi, link)
	if err != nil {
		t.fail("%s: %v", name, err)
		return nil
	}
	if perm, err := fsx.Perm(src, t.deref); err == nil {
		hdr.Mode = hdr.Mode&^0o7777 | int64(unixBits(perm))
	}
	if runtime.GOOS == "wasip1" {
		// WASI reports no owners; every file belongs to the sandbox user.
		hdr.Uid, hdr.Gid = 1000, 1000
	}
	hdr.Uname, hdr.Gname = owner(hdr.Uid), owner(hdr.Gid)
	hdr.Format = tar.FormatGNU
	hdr.AccessTime, hdr.ChangeTime = time.Time{}, time.Time{}
	hdr.ModTime = hdr.ModTime.Truncate(time.Second)
	if mname != "" {
		hdr.Name = mname
		if fi.IsDir() && !strings.HasSuffix(hdr.Name, "/") {
			hdr.Name += "/"
		}
	}
	if fi.Mode().IsRegular() {
		// Opened before its header is written, as GNU tar does, so a
		// file that cannot be read is left out whole. The descriptor is
		// the system's own: an os.File would cost two more host calls
		// (to learn its kind and to set non-blocking mode) and a
		// finaliser.
		fd, err := syscall.Open(src, syscall.O_RDONLY, 0)
		if err != nil {
			t.fail("%s: Cannot open: %s", name, tool.Strerror(&fs.PathError{Op: "open", Path: src, Err: err}))
			return nil
		}
		if t.verbose > 0 && mname != "" {
			t.verboseLine(hdr)
		}
		if mname == "" {
			// Nothing to archive under an empty name (GNU tar says so
			// only in its messages); the file is not read.
			syscall.Close(fd)
			return nil
		}
		n, rerr, err := aw.writeFile(hdr, fd)
		syscall.Close(fd)
		if err != nil {
			return writeError{err}
		}
		switch {
		case rerr != nil:
			t.fail("%s: Read error at byte %d, while reading %d bytes: %s", name, n, hdr.Size-n, tool.Strerror(rerr))
		case n < hdr.Size:
			t.fail("%s: File shrank by %d bytes; padding with zeros", name, hdr.Size-n)
		}
		return nil
	}
	if mname != "" {
		if t.verbose > 0 {
			t.verboseLine(hdr)
		}
		if err := aw.writeHeader(hdr); err != nil {
			return writeError{err}
		}
	}
	if !fi.IsDir() {
		return nil
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.fail("%s: Cannot open: %s", name, tool.Strerror(err))
		return nil
	}
	// filepath.Join would clean every child's path; the children of a
	// clean path need only the separator.
	dir := filepath.Clean(src)
	if dir != "/" {
		dir += "/"
	}
	for _, e := range entries {
		child := e.Name()
		cname := child
		if name != "." || mname != "" {
			cname = strings.TrimSuffix(name, "/") + "/" + child
		}
		if name == "/" {
			cname = "/" + child
		}
		if err := t.addTree(aw, dir+child, cname, arch); err != nil {
			return err
		}
	}
	return nil
}

// archivePath is the archive being written, which tar must not add to
// itself.
type archivePath struct {
	abs  string // its absolute path, "" when it is standard output
	base string // its last element
}

func newArchivePath(file string) *archivePath {
	if file == "-" {
		return &archivePath{}
	}
	abs, _ := filepath.Abs(file)
	return &archivePath{abs: abs, base: filepath.Base(abs)}
}

// is reports whether the path src names the archive. It compares the last
// elements first, so most files cost no path cleaning.
func (a *archivePath) is(src, cwd string) bool {
	if a.abs == "" || !strings.HasSuffix(src, a.base) {
		return false
	}
	abs := filepath.Clean(src) // filepath.Abs, without a getcwd for each file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, src)
	}
	return abs == a.abs
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func owner(id int) string {
	switch id {
	case 0:
		return "root"
	case 1000:
		return "user"
	}
	return ""
}

func unixBits(m fs.FileMode) uint32 {
	b := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		b |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		b |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		b |= 0o1000
	}
	return b
}

// verboseLine prints a member name (-v) or ls -l style line (-vv, -tv).
func (t *tarCmd) verboseLine(h *tar.Header) {
	w := t.env.Out()
	if t.mode == 'c' && t.file == "-" {
		w = bufio.NewWriter(t.env.Stderr)
		defer w.Flush()
	}
	if t.verbose < 2 && t.mode != 't' || t.mode == 't' && t.verbose == 0 {
		fmt.Fprintf(w, "%s\n", h.Name)
		return
	}
	ug := ownerName(h.Uname, h.Uid) + "/" + ownerName(h.Gname, h.Gid)
	size := strconv.FormatInt(h.Size, 10)
	if h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink || h.Typeflag == tar.TypeDir {
		size = "0"
	}
	pad := 19 - len(ug) - len(size)
	if pad < 1 {
		pad = 1
	}
	fmt.Fprintf(w, "%s %s%s%s %s %s", modeString(h), ug, strings.Repeat(" ", pad), size,
		h.ModTime.UTC().Format("2006-01-02 15:04"), h.Name)
	switch h.Typeflag {
	case tar.TypeSymlink:
		fmt.Fprintf(w, " -> %s", h.Linkname)
	case tar.TypeLink:
		fmt.Fprintf(w, " link to %s", h.Linkname)
	}
	w.WriteByte('\n')
}

func ownerName(name string, id int) string {
	if name != "" {
		return name
	}
	return strconv.Itoa(id)
}

func modeString(h *tar.Header) string {
	var b [10]byte
	switch h.Typeflag {
	case tar.TypeDir:
		b[0] = 'd'
	case tar.TypeSymlink:
		b[0] = 'l'
	case tar.TypeLink:
		b[0] = 'h'
	case tar.TypeChar:
		b[0] = 'c'
	case tar.TypeBlock:
		b[0] = 'b'
	case tar.TypeFifo:
		b[0] = 'p'
	default:
		b[0] = '-'
	}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if h.Mode&(1<<uint(8-i)) != 0 {
			b[i+1] = rwx[i]
		} else {
			b[i+1] = '-'
		}
	}
	if h.Mode&0o4000 != 0 {
		b[3] = map[bool]byte{true: 's', false: 'S'}[b[3] == 'x']
	}
	if h.Mode&0o2000 != 0 {
		b[6] = map[bool]byte{true: 's', false: 'S'}[b[6] == 'x']
	}
	if h.Mode&0o1000 != 0 {
		b[9] = map[bool]byte{true: 't', false: 'T'}[b[9] == 'x']
	}
	return string(b[:])
}
