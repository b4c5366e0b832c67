// Package file implements file: determine file type from the file's
// leading bytes (magic numbers) and, for text, its encoding and line
// terminators, worded as libmagic's file(1) words them.
package file

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'b', Long: "brief"},
		{Short: 'i', Long: "mime"},
		{Long: "mime-type"},
		{Long: "mime-encoding"},
		{Short: 'L', Long: "dereference"},
		{Short: 'h', Long: "no-dereference"},
		{Short: 'N', Long: "no-pad"},
		{Short: 'F', Long: "separator", Arg: tool.RequiredArg},
		{Short: 'f', Long: "files-from", Arg: tool.RequiredArg},
		{Short: '0', Long: "print0"},
		{Short: 'z', Long: "uncompress"},
		{Short: 'E'},
	},
	Help: `Usage: file [OPTION...] [FILE...]
Determine type of FILEs.

  -b, --brief                do not prepend filenames to output lines
  -E                         on filesystem errors, issue an error message
  -F, --separator STRING     use string as separator instead of ':'
  -f, --files-from FILE      read the filenames to be examined from FILE
  -h, --no-dereference       don't follow symlinks (default)
  -i, --mime                 output MIME type strings (--mime-type and
                               --mime-encoding)
      --mime-type            output the MIME type
      --mime-encoding        output the MIME encoding
  -L, --dereference          follow symlinks
  -N, --no-pad               do not pad output
  -0, --print0               terminate filenames with ASCII NUL
      --help                 display this help and exit
      --version              output version information and exit
`}

// Result is what file says about one file: the description and MIME
// type and encoding.
type Result struct {
	Desc, MIME, Encoding string
}

// Main runs file.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	brief, noPad, follow, errs := false, false, false, false
	mimeType, mimeEnc := false, false
	sep := ":"
	for _, f := range flags {
		switch f.Name {
		case "b":
			brief = true
		case "i":
			mimeType, mimeEnc = true, true
		case "mime-type":
			mimeType = true
		case "mime-encoding":
			mimeEnc = true
		case "L":
			follow = true
		case "h":
			follow = false
		case "N":
			noPad = true
		case "F":
			sep = f.Arg
		case "E":
			errs = true
		case "f":
			data, err := readAll(env, f.Arg)
			if err != nil {
				env.Errorf("Cannot open `%s' (%s)", f.Arg, tool.Strerror(err))
				return 1
			}
			for _, l := range strings.Split(string(data), "\n") {
				if l != "" {
					files = append(files, l)
				}
			}
		case "0", "z":
		}
	}
	if len(files) == 0 {
		fmt.Fprintf(env.Stderr, "Usage: file [-bcdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n"+
			"            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n"+
			"            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n"+
			"            <file> ...\n       file -C [-m <magicfiles>]\n       file [--help]\n")
		return 1
	}
	width := 0
	for _, n := range files {
		if n == "-" {
			n = "/dev/stdin"
		}
		width = max(width, len(n)+len(sep))
	}
	w := env.Out()
	status := 0
	for _, name := range files {
		res, err := Identify(env, name, follow)
		if name == "-" {
			name = "/dev/stdin"
		}
		if err != nil {
			if errs {
				env.Errorf("cannot open `%s' (%s)", name, tool.Strerror(err))
				status = 1
				continue
			}
			res = Result{Desc: fmt.Sprintf("cannot open `%s' (%s)", name, tool.Strerror(err))}
		}
		if !brief {
			label := name + sep
			w.WriteString(label)
			if !noPad {
				w.WriteString(strings.Repeat(" ", width-len(label)))
			}
			w.WriteByte(' ')
		}
		switch {
		case mimeType && mimeEnc:
			w.WriteString(res.MIME + "; charset=" + res.Encoding)
		case mimeType:
			w.WriteString(res.MIME)
		case mimeEnc:
			w.WriteString(res.Encoding)
		default:
			w.WriteString(res.Desc)
		}
		w.WriteByte('\n')
	}
	return status
}

func readAll(env *tool.Env, name string) ([]byte, error) {
	r, err := env.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// sniffSize is how much of a file is examined.
const sniffSize = 64 << 10

// Identify examines one file ("-" is standard input).
func Identify(env *tool.Env, name string, follow bool) (Result, error) {
	if name != "-" {
		var fi fs.FileInfo
		var err error
		if follow {
			fi, err = os.Stat(name)
		} else {
			fi, err = os.Lstat(name)
		}
		if err != nil {
			return Result{}, err
		}
		m := fi.Mode()
		switch {
		case m&fs.ModeSymlink != 0:
			t, _ := os.Readlink(name)
			if _, err := os.Stat(name); err != nil {
				return Result{"broken symbolic link to " + t, "inode/symlink", "binary"}, nil
			}
			return Result{"symbolic link to " + t, "inode/symlink", "binary"}, nil
		case m.IsDir():
			return Result{"directory", "inode/directory", "binary"}, nil
		case m&fs.ModeNamedPipe != 0:
			return Result{"fifo (named pipe)", "inode/fifo", "binary"}, nil
		case m&fs.ModeCharDevice != 0:
			return Result{"character special", "inode/chardevice", "binary"}, nil
		case m&fs.ModeSocket != 0:
			return Result{"socket", "inode/socket", "binary"}, nil
		}
	}
	r, err := env.Open(name)
	if err != nil {
		return Result{}, err
	}
	defer r.Close()
	buf := make([]byte, sniffSize)
	n, err := io.ReadFull(r, buf)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return Result{}, err
	}
	return Sniff(buf[:n]), nil
}

// Sniff identifies data by its content.
func Sniff(b []byte) Result {
	if len(b) == 0 {
		return Result{"empty", "inode/x-empty", "binary"}
	}
	if r, ok := magic(b); ok {
		return r
	}
	return text(b)
}

func magic(b []byte) (Result, bool) {
	bin := func(desc, mime string) (Result, bool) { return Result{desc, mime, "binary"}, true }
	switch {
	case bytes.HasPrefix(b, []byte("\x7fELF")) && len(b) >= 20:
		return bin(elf(b), "application/x-executable")
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		d := "PNG image data"
		if len(b) >= 29 && string(b[12:16]) == "IHDR" {
			colors := map[byte]string{0: "grayscale", 2: "RGB", 3: "colormap", 4: "gray+alpha", 6: "RGBA"}
			il := "non-interlaced"
			if b[28] == 1 {
				il = "interlaced"
			}
			d += fmt.Sprintf(", %d x %d, %d-bit", binary.BigEndian.Uint32(b[16:]), binary.BigEndian.Uint32(b[20:]), b[24])
			if b[25] == 3 {
				d += " colormap"
			} else {
				d += "/color " + colors[b[25]]
			}
			d += ", " + il
		}
		return bin(d, "image/png")
	case bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a")):
		d := "GIF image data, version " + string(b[3:6])
		if len(b) >= 10 {
			d += fmt.Sprintf(", %d x %d", binary.LittleEndian.Uint16(b[6:]), binary.LittleEndian.Uint16(b[8:]))
		}
		return bin(d, "image/gif")
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		d := "JPEG image data"
		if len(b) >= 18 && string(b[6:11]) == "JFIF\x00" {
			d += fmt.Sprintf(", JFIF standard %d.%02d", b[11], b[12])
		} else if len(b) >= 12 && string(b[6:10]) == "Exif" {
			d += ", Exif standard"
		}
		return bin(d, "image/jpeg")
	case bytes.HasPrefix(b, []byte("%PDF-")):
		v := b[5:]
		if i := bytes.IndexAny(v, "\r\n \t"); i >= 0 {
			v = v[:i]
		}
		return bin("PDF document, version "+string(v), "application/pdf")
	case bytes.HasPrefix(b, []byte("\x1f\x8b")):
		return bin(gzipDesc(b), "application/gzip")
	case bytes.HasPrefix(b, []byte("PK\x03\x04")) && len(b) >= 10:
		methods := map[uint16]string{0: "store", 8: "deflate", 9: "deflate64", 12: "bzip2", 14: "lzma"}
		ver := binary.LittleEndian.Uint16(b[4:])
		m := binary.LittleEndian.Uint16(b[8:])
		name, ok := methods[m]
		if !ok {
			name = fmt.Sprint(m)
		}
		return bin(fmt.Sprintf("Zip archive data, at least v%d.%d to extract, compression method=%s", ver/10, ver%10, name), "application/zip")
	case bytes.HasPrefix(b, []byte("PK\x05\x06")):
		return bin("Zip archive data (empty)", "application/zip")
	case len(b) >= 262 && string(b[257:263]) == "ustar\x00":
		return bin("POSIX tar archive", "application/x-tar")
	case len(b) >= 265 && string(b[257:265]) == "ustar  \x00":
		return bin("POSIX tar archive (GNU)", "application/x-tar")
	case bytes.HasPrefix(b, []byte("\x00asm")) && len(b) >= 8:
		v := binary.LittleEndian.Uint32(b[4:])
		d := fmt.Sprintf("WebAssembly (wasm) binary module version %#x", v)
		if v == 1 {
			d += " (MVP)"
		}
		return bin(d, "application/wasm")
	case bytes.HasPrefix(b, []byte("BZh")) && len(b) > 3 && b[3] >= '1' && b[3] <= '9':
		return bin(fmt.Sprintf("bzip2 compressed data, block size = %c00k", b[3]), "application/x-bzip2")
	case bytes.HasPrefix(b, []byte("\xfd7zXZ\x00")):
		return bin("XZ compressed data, checksum CRC64", "application/x-xz")
	case bytes.HasPrefix(b, []byte("(\xb5/\xfd")):
		return bin("Zstandard compressed data (v0.8+), Dictionary ID: None", "application/zstd")
	case bytes.HasPrefix(b, []byte("7z\xbc\xaf\x27\x1c")):
		return bin(fmt.Sprintf("7-zip archive data, version %d.%d", b[6], b[7]), "application/x-7z-compressed")
	case bytes.HasPrefix(b, []byte("SQLite format 3\x00")):
		return bin("SQLite 3.x database", "application/vnd.sqlite3")
	case bytes.HasPrefix(b, []byte("BM")) && len(b) >= 26 && binary.LittleEndian.Uint32(b[14:]) >= 12:
		return bin(fmt.Sprintf("PC bitmap, Windows 3.x format, %d x %d", int32(binary.LittleEndian.Uint32(b[18:])), int32(binary.LittleEndian.Uint32(b[22:]))), "image/bmp")
	case bytes.HasPrefix(b, []byte("RIFF")) && len(b) >= 12 && string(b[8:12]) == "WEBP":
		return bin("RIFF (little-endian) data, Web/P image", "image/webp")
	case bytes.HasPrefix(b, []byte("OggS")):
		return bin("Ogg data", "audio/ogg")
	case bytes.HasPrefix(b, []byte("\xca\xfe\xba\xbe")):
		return bin("compiled Java class data", "application/x-java-applet")
	}
	return Result{}, false
}

func elf(b []byte) string {
	class := map[byte]string{1: "32-bit", 2: "64-bit"}[b[4]]
	order := binary.ByteOrder(binary.LittleEndian)
	end := "LSB"
	if b[5] == 2 {
		order, end = binary.BigEndian, "MSB"
	}
	types := map[uint16]string{1: "relocatable", 2: "executable", 3: "shared object", 4: "core file"}
	machines := map[uint16]string{3: "Intel 80386", 40: "ARM", 62: "x86-64", 183: "ARM aarch64", 243: "UCB RISC-V", 8: "MIPS", 20: "PowerPC", 21: "64-bit PowerPC or cisco 7500"}
	t := types[order.Uint16(b[16:])]
	if t == "" {
		t = "unknown type"
	}
	d := fmt.Sprintf("ELF %s %s %s", class, end, t)
	if m, ok := machines[order.Uint16(b[18:])]; ok {
		d += ", " + m
	}
	if len(b) >= 24 {
		d += fmt.Sprintf(", version %d", b[6])
		if b[7] == 0 {
			d += " (SYSV)"
		} else if b[7] == 3 {
			d += " (GNU/Linux)"
		}
	}
	return d
}

func gzipDesc(b []byte) string {
	d := "gzip compressed data"
	if len(b) < 10 {
		return d
	}
	flags := b[3]
	rest := b[10:]
	if flags&4 != 0 && len(rest) >= 2 { // FEXTRA
		n := int(binary.LittleEndian.Uint16(rest))
		if 2+n <= len(rest) {
			rest = rest[2+n:]
		}
	}
	if flags&8 != 0 { // FNAME
		if i := bytes.IndexByte(rest, 0); i >= 0 {
			d += fmt.Sprintf(", was \"%s\"", rest[:i])
		}
	}
	if mt := binary.LittleEndian.Uint32(b[4:]); mt != 0 {
		d += ", last modified: " + time.Unix(int64(mt), 0).UTC().Format("Mon Jan _2 15:04:05 2006")
	}
	switch b[8] {
	case 2:
		d += ", max compression"
	case 4:
		d += ", max speed"
	}
	oses := map[byte]string{0: "FAT filesystem (MS-DOS, OS/2, NT)", 3: "Unix", 7: "Macintosh", 11: "NTFS filesystem (NT)"}
	if os, ok := oses[b[9]]; ok {
		d += ", from " + os
	}
	return d
}

var interpreters = map[string]string{
	"sh": "POSIX shell script", "bash": "Bourne-Again shell script", "zsh": "Paul Falstad's zsh script",
	"dash": "POSIX shell script", "ksh": "Korn shell script", "python": "Python script",
	"python2": "Python script", "python3": "Python script", "perl": "Perl script text executable",
	"ruby": "Ruby script", "node": "Node.js script executable", "awk": "awk or perl script",
	"tclsh": "Tcl script", "php": "PHP script",
}

// text classifies data that matched no magic number.
func text(b []byte) Result {
	enc, mime, ok := encoding(b)
	if !ok {
		return Result{"data", "application/octet-stream", "binary"}
	}
	desc := enc
	kind := ""
	executable := false
	if bytes.HasPrefix(b, []byte("#!")) {
		line := b[2:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(string(line))
		if len(fields) > 0 {
			interp := path.Base(fields[0])
			arg := interp
			if interp == "env" && len(fields) > 1 {
				arg = fields[1]
			}
			if k, ok := interpreters[arg]; ok {
				kind = k
				if strings.HasSuffix(k, "executable") {
					return Result{k + ", " + desc, "text/x-script", mime}
				}
			} else {
				kind = "a " + strings.Join(fields, " ") + " script"
				if interp == "env" {
					kind = "a " + strings.Join(fields[1:], " ") + " script"
				}
			}
			executable = true
		}
	} else {
		trimmed := bytes.TrimLeft(b, " \t\r\n")
		switch {
		case hasPrefixFold(trimmed, "<!doctype html") || hasPrefixFold(trimmed, "<html"):
			kind, mime = "HTML document", "text/html"
		case bytes.HasPrefix(trimmed, []byte("<?xml version=\"")):
			v := trimmed[len("<?xml version=\""):]
			if i := bytes.IndexByte(v, '"'); i >= 0 {
				kind, mime = "XML "+string(v[:i])+" document", "text/xml"
			}
		}
	}
	if kind == "" && isJSON(b) {
		return Result{"JSON text data", "application/json", mime}
	}
	desc += lineInfo(b)
	if executable {
		desc += " executable"
	}
	if kind != "" {
		desc = kind + ", " + desc
	}
	if mime == "" {
		mime = "text/plain"
	}
	if kind != "" && strings.HasSuffix(kind, "script") {
		mime = "text/x-shellscript"
	}
	return Result{desc, mimeOr(mime), charset(enc)}
}

func mimeOr(m string) string {
	if m == "us-ascii" || m == "utf-8" || m == "iso-8859-1" {
		return "text/plain"
	}
	return m
}

func charset(enc string) string {
	switch enc {
	case "ASCII text":
		return "us-ascii"
	case "Unicode text, UTF-8 text":
		return "utf-8"
	case "ISO-8859 text":
		return "iso-8859-1"
	}
	return "binary"
}

func hasPrefixFold(b []byte, p string) bool {
	return len(b) >= len(p) && strings.EqualFold(string(b[:len(p)]), p)
}

// encoding says whether b is text and how it is encoded.
func encoding(b []byte) (desc, mime string, ok bool) {
	ascii, valid := true, utf8.Valid(b)
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
		}
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\b' && c != 0x1b && c != '\a' && c != '\v' || c == 0x7f {
			return "", "", false
		}
	}
	switch {
	case ascii:
		return "ASCII text", "text/plain", true
	case valid:
		return "Unicode text, UTF-8 text", "text/plain", true
	}
	for _, c := range b {
		if c >= 0x80 && c < 0xa0 {
			return "", "", false
		}
	}
	return "ISO-8859 text", "text/plain", true
}

// lineInfo describes line terminators and lengths, as ", with CRLF line
// terminators".
func lineInfo(b []byte) string {
	var crlf, lf, cr int
	longest, cur := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				crlf++
				i++
			} else {
				cr++
			}
			longest, cur = max(longest, cur), 0
		case '\n':
			lf++
			longest, cur = max(longest, cur), 0
		default:
			cur++
		}
	}
	longest = max(longest, cur)
	var parts []string
	if longest > 300 {
		parts = append(parts, fmt.Sprintf("with very long lines (%d)", longest))
	}
	var terms []string
	if crlf > 0 {
		terms = append(terms, "CRLF")
	}
	if cr > 0 {
		terms = append(terms, "CR")
	}
	if lf > 0 && len(terms) > 0 {
		terms = append(terms, "LF")
	}
	switch {
	case crlf+lf+cr == 0:
		parts = append(parts, "with no line terminators")
	case len(terms) > 0:
		parts = append(parts, "with "+strings.Join(terms, ", ")+" line terminators")
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

// isJSON reports whether b is a JSON object or array (file's JSON test
// needs structure, not a bare scalar).
func isJSON(b []byte) bool {
	t := bytes.TrimSpace(b)
	if len(t) < 2 || !(t[0] == '{' && t[len(t)-1] == '}' || t[0] == '[' && t[len(t)-1] == ']') {
		return false
	}
	return validJSON(t)
}
