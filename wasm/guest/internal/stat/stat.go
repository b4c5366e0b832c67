// Package stat implements stat: display file or file system status, with
// GNU's default layouts and -c/--printf format directives. Its SysInfo is
// shared with du.
package stat

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'L', Long: "dereference"},
		{Short: 'f', Long: "file-system"},
		{Long: "cached", Arg: tool.RequiredArg},
		{Short: 'c', Long: "format", Arg: tool.RequiredArg},
		{Long: "printf", Arg: tool.RequiredArg},
		{Short: 't', Long: "terse"},
	},
	Help: `Usage: stat [OPTION]... FILE...
Display file or file system status.

  -L, --dereference     follow links
  -f, --file-system     display file system status instead of file status
      --cached=MODE     specify how to use cached attributes; (ignored)
  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline;
                          if you want a newline, include \n in FORMAT
  -t, --terse           print the information in terse form
      --help        display this help and exit
      --version     output version information and exit

The valid format sequences for files (without --file-system):

  %a   permission bits in octal
  %A   permission bits and file type in human readable form
  %b   number of blocks allocated (see %B)
  %B   the size in bytes of each block reported by %b
  %d   device number in decimal
  %D   device number in hex
  %f   raw mode in hex
  %F   file type
  %g   group ID of owner
  %G   group name of owner
  %h   number of hard links
  %i   inode number
  %m   mount point
  %n   file name
  %N   quoted file name with dereference if symbolic link
  %o   optimal I/O transfer size hint
  %s   total size, in bytes
  %t   major device type in hex, for character/block device special files
  %T   minor device type in hex, for character/block device special files
  %u   user ID of owner
  %U   user name of owner
  %w   time of file birth, human-readable; - if unknown
  %W   time of file birth, seconds since Epoch; 0 if unknown
  %x   time of last access, human-readable
  %X   time of last access, seconds since Epoch
  %y   time of last data modification, human-readable
  %Y   time of last data modification, seconds since Epoch
  %z   time of last status change, human-readable
  %Z   time of last status change, seconds since Epoch

Valid format sequences for file systems:

  %a   free blocks available to non-superuser
  %b   total data blocks in file system
  %c   total file nodes in file system
  %d   free file nodes in file system
  %f   free blocks in file system
  %i   file system ID in hex
  %l   maximum length of filenames
  %n   file name
  %s   block size (for faster transfers)
  %S   fundamental block size (for block counts)
  %t   file system type in hex
  %T   file system type in human readable form
`}

const (
	defaultFormat = "  File: %Q\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n" +
		"Device: %Hd,%Ld\tInode: %-11i Links: %h\n" +
		"Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n" +
		"Access: %x\nModify: %y\nChange: %z\n Birth: %w\n"
	deviceFormat = "  File: %Q\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n" +
		"Device: %Hd,%Ld\tInode: %-11i Links: %-5h Device type: %Hr,%Lr\n" +
		"Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n" +
		"Access: %x\nModify: %y\nChange: %z\n Birth: %w\n"
	terseFormat   = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"
	fsFormat      = "  File: \"%n\"\n    ID: %-8i Namelen: %-7l Type: %T\nBlock size: %-10s Fundamental block size: %S\nBlocks: Total: %-10b Free: %-10f Available: %a\nInodes: Total: %-10c Free: %d\n"
	fsTerseFormat = "%n %i %l %t %s %S %b %f %a %c %d\n"
)

// Main runs stat.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	follow, fsMode, terse := false, false, false
	format, haveFormat, printf := "", false, false
	for _, f := range flags {
		switch f.Name {
		case "L":
			follow = true
		case "f":
			fsMode = true
		case "c":
			format, haveFormat, printf = f.Arg+"\n", true, false
		case "printf":
			format, haveFormat, printf = f.Arg, true, true
		case "t":
			terse = true
		}
	}
	if len(files) == 0 {
		return env.Usage(1, "missing operand")
	}
	if printf {
		format = unescape(format)
	}
	status := 0
	w := env.Out()
	for _, name := range files {
		if fsMode {
			u, err := fsx.FSUsage(name)
			if err == nil {
				_, err = os.Stat(name)
			}
			if err != nil {
				env.Errorf("cannot read file system information for %s: %s", tool.Quote(name), tool.Strerror(err))
				status = 1
				continue
			}
			f := format
			if !haveFormat {
				f = fsFormat
				if terse {
					f = fsTerseFormat
				}
			}
			w.WriteString(expand(f, func(spec []byte, c byte) string { return fsDirective(spec, c, name, u) }))
			continue
		}
		var fi fs.FileInfo
		var err error
		if follow {
			fi, err = os.Stat(name)
		} else {
			fi, err = os.Lstat(name)
		}
		if err != nil {
			if follow {
				env.Errorf("cannot statx %s: %s", tool.Quote(name), tool.Strerror(err))
			} else {
				env.Errorf("cannot statx %s: %s", tool.Quote(name), tool.Strerror(err))
			}
			status = 1
			continue
		}
		f := format
		if !haveFormat {
			switch {
			case terse:
				f = terseFormat
			case fi.Mode()&fs.ModeDevice != 0:
				f = deviceFormat
			default:
				f = defaultFormat
			}
		}
		fl := &file{name: name, fi: fi, in: SysInfo(fi), follow: follow}
		w.WriteString(expand(f, fl.directive))
	}
	return status
}

// expand replaces each %[flags][width][.prec]C directive in format with
// what directive returns for it; spec is the text between % and C, which
// directive formats with.
func expand(format string, directive func(spec []byte, c byte) string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0'", format[j]) >= 0 {
			j++
		}
		for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '.') {
			j++
		}
		// %H and %L select the major or minor part of %d and %r.
		if j+1 < len(format) && (format[j] == 'H' || format[j] == 'L') && (format[j+1] == 'd' || format[j+1] == 'r') {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		if format[j] == '%' && j == i+1 {
			b.WriteByte('%')
			i = j
			continue
		}
		b.WriteString(directive([]byte(format[i+1:j]), format[j]))
		i = j
	}
	return b.String()
}

// pad formats s as a %s with the directive's flags, width and precision.
func pad(spec []byte, s string) string {
	t := string(spec)
	flags := t[:len(t)-len(strings.TrimLeft(t, "-+ #0'"))]
	return fmt.Sprintf("%"+strings.Trim(flags, "+ #0'")+strings.TrimLeft(t, "-+ #0'")+"s", s)
}

// num formats v as a %d with the directive's flags and width.
func num(spec []byte, v uint64) string {
	return fmt.Sprintf("%"+strings.ReplaceAll(string(spec), "'", "")+"d", v)
}

func hexnum(spec []byte, v uint64) string {
	return fmt.Sprintf("%"+strings.ReplaceAll(string(spec), "'", "")+"x", v)
}

func octal(spec []byte, v uint64) string {
	return fmt.Sprintf("%"+strings.ReplaceAll(string(spec), "'", "")+"o", v)
}

type file struct {
	name   string
	fi     fs.FileInfo
	in     Info
	follow bool
}

func (f *file) perm() fs.FileMode {
	p, err := fsx.Perm(f.name, f.follow)
	if err != nil {
		return f.fi.Mode().Perm()
	}
	return p
}

// rawMode is the st_mode a Linux stat would report.
func (f *file) rawMode() uint64 {
	m := f.fi.Mode()
	var t uint64
	switch {
	case m.IsDir():
		t = 0o040000
	case m&fs.ModeSymlink != 0:
		t = 0o120000
	case m&fs.ModeNamedPipe != 0:
		t = 0o010000
	case m&fs.ModeSocket != 0:
		t = 0o140000
	case m&fs.ModeCharDevice != 0:
		t = 0o020000
	case m&fs.ModeDevice != 0:
		t = 0o060000
	default:
		t = 0o100000
	}
	return t | unixPerm(f.perm())
}

func unixPerm(p fs.FileMode) uint64 {
	v := uint64(p.Perm())
	if p&fs.ModeSetuid != 0 {
		v |= 0o4000
	}
	if p&fs.ModeSetgid != 0 {
		v |= 0o2000
	}
	if p&fs.ModeSticky != 0 {
		v |= 0o1000
	}
	return v
}

// ModeString is the ls-style "-rwxr-xr-x" text of a raw st_mode.
func ModeString(raw uint64) string {
	var b [10]byte
	switch raw & 0o170000 {
	case 0o040000:
		b[0] = 'd'
	case 0o120000:
		b[0] = 'l'
	case 0o010000:
		b[0] = 'p'
	case 0o140000:
		b[0] = 's'
	case 0o020000:
		b[0] = 'c'
	case 0o060000:
		b[0] = 'b'
	default:
		b[0] = '-'
	}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if raw&(1<<uint(8-i)) != 0 {
			b[1+i] = rwx[i]
		} else {
			b[1+i] = '-'
		}
	}
	special := func(bit uint64, i int, set, unset byte) {
		if raw&bit != 0 {
			if b[i] == 'x' {
				b[i] = set
			} else {
				b[i] = unset
			}
		}
	}
	special(0o4000, 3, 's', 'S')
	special(0o2000, 6, 's', 'S')
	special(0o1000, 9, 't', 'T')
	return string(b[:])
}

func fileType(fi fs.FileInfo) string {
	m := fi.Mode()
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character special file"
	case m&fs.ModeDevice != 0:
		return "block special file"
	case fi.Size() == 0:
		return "regular empty file"
	}
	return "regular file"
}

// UserName and GroupName name the sandbox's ids.
func UserName(uid uint32) string {
	switch uid {
	case 0:
		return "root"
	case 1000:
		return "user"
	}
	return "UNKNOWN"
}

// humanTime is stat's %x/%y/%z layout.
func humanTime(t time.Time) string {
	return t.Local().Format("2006-01-02 15:04:05.000000000 -0700")
}

// epoch formats seconds since the Epoch, with a fraction if the
// directive has a precision.
func epoch(spec []byte, t time.Time) string {
	s := string(spec)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		prec := 9
		if p, err := strconv.Atoi(s[i+1:]); err == nil {
			prec = min(p, 9)
		}
		frac := fmt.Sprintf("%09d", t.Nanosecond())[:prec]
		v := strconv.FormatInt(t.Unix(), 10)
		if prec > 0 {
			v += "." + frac
		}
		return pad([]byte(s[:i]), v)
	}
	return pad(spec, strconv.FormatInt(t.Unix(), 10))
}

func (f *file) directive(spec []byte, c byte) string {
	in := &f.in
	if n := len(spec); n > 0 && (spec[n-1] == 'H' || spec[n-1] == 'L') {
		sel, rest := spec[n-1], spec[:n-1]
		dev := in.Dev
		if c == 'r' {
			dev = in.Rdev
		}
		if sel == 'H' {
			return num(rest, major(dev))
		}
		return num(rest, minor(dev))
	}
	switch c {
	case 'a':
		return octal(spec, unixPerm(f.perm()))
	case 'A':
		return pad(spec, ModeString(f.rawMode()))
	case 'b':
		return num(spec, uint64(in.Blocks))
	case 'B':
		return num(spec, 512)
	case 'C':
		return pad(spec, "?")
	case 'd':
		return num(spec, in.Dev)
	case 'D':
		return hexnum(spec, in.Dev)
	case 'f':
		return hexnum(spec, f.rawMode())
	case 'F':
		return pad(spec, fileType(f.fi))
	case 'g':
		return num(spec, uint64(in.GID))
	case 'G':
		return pad(spec, UserName(in.GID))
	case 'h':
		return num(spec, in.Nlink)
	case 'i':
		return num(spec, in.Ino)
	case 'm':
		return pad(spec, "/")
	case 'n':
		return pad(spec, f.name)
	case 'N':
		s := tool.Quote(f.name)
		if f.fi.Mode()&fs.ModeSymlink != 0 {
			if t, err := os.Readlink(f.name); err == nil {
				s += " -> " + tool.Quote(t)
			}
		}
		return pad(spec, s)
	case 'Q': // the default layouts' name: quoted only if needed
		s := tool.QuoteIfNeeded(f.name)
		if f.fi.Mode()&fs.ModeSymlink != 0 {
			if t, err := os.Readlink(f.name); err == nil {
				s += " -> " + tool.QuoteIfNeeded(t)
			}
		}
		return s
	case 'o':
		return num(spec, uint64(in.BlockSize))
	case 's':
		return num(spec, uint64(f.fi.Size()))
	case 'r':
		return num(spec, in.Rdev)
	case 'R':
		return hexnum(spec, in.Rdev)
	case 't':
		return hexnum(spec, major(in.Rdev))
	case 'T':
		return hexnum(spec, minor(in.Rdev))
	case 'u':
		return num(spec, uint64(in.UID))
	case 'U':
		return pad(spec, UserName(in.UID))
	case 'w':
		return pad(spec, "-")
	case 'W':
		return epoch(spec, time.Unix(0, 0))
	case 'x':
		return pad(spec, humanTime(in.Atime))
	case 'X':
		return epoch(spec, in.Atime)
	case 'y':
		return pad(spec, humanTime(f.fi.ModTime()))
	case 'Y':
		return epoch(spec, f.fi.ModTime())
	case 'z':
		return pad(spec, humanTime(in.Ctime))
	case 'Z':
		return epoch(spec, in.Ctime)
	}
	return "?"
}

func major(dev uint64) uint64 { return (dev>>8)&0xfff | (dev>>32)&^0xfff }
func minor(dev uint64) uint64 { return dev&0xff | (dev>>12)&^0xff }

// fsBlock is the block size file-system figures are counted in.
const fsBlock = 4096

func fsDirective(spec []byte, c byte, name string, u fsx.Usage) string {
	total := u.MaxBytes / fsBlock
	free := (u.MaxBytes - min(u.UsedBytes, u.MaxBytes)) / fsBlock
	switch c {
	case 'a', 'f':
		return num(spec, free)
	case 'b':
		return num(spec, total)
	case 'c':
		return num(spec, u.MaxInodes)
	case 'd':
		return num(spec, u.MaxInodes-min(u.UsedInodes, u.MaxInodes))
	case 'i':
		return hexnum(spec, 0)
	case 'l':
		return num(spec, 255)
	case 'n':
		return pad(spec, name)
	case 's', 'S':
		return num(spec, fsBlock)
	case 't':
		return hexnum(spec, 0x01021994) // TMPFS_MAGIC
	case 'T':
		return pad(spec, "tmpfs")
	}
	return "?"
}

// unescape interprets --printf's backslash escapes.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '"', '\\':
			b.WriteByte(s[i])
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			if j == i+1 {
				b.WriteString(`\x`)
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			b.WriteByte(byte(v))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
