package find

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

// printfFormat is a compiled -printf format: literal text and directives.
type printfFormat struct {
	parts []printfPart
}

type printfPart struct {
	lit   string // literal text when verb is 0
	verb  byte
	sub   byte   // the time field letter of %A, %C and %T
	flags string // "-", "0", "+", " ", "#" and width.precision
	stop  bool   // \c: stop printing here
}

// compilePrintf parses a -printf format.
func compilePrintf(s string) (*printfFormat, error) {
	pf := &printfFormat{}
	var lit strings.Builder
	flushLit := func() {
		if lit.Len() > 0 {
			pf.parts = append(pf.parts, printfPart{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			if i+1 >= len(s) {
				lit.WriteByte('\\')
				continue
			}
			i++
			switch e := s[i]; e {
			case 'a':
				lit.WriteByte('\a')
			case 'b':
				lit.WriteByte('\b')
			case 'f':
				lit.WriteByte('\f')
			case 'n':
				lit.WriteByte('\n')
			case 'r':
				lit.WriteByte('\r')
			case 't':
				lit.WriteByte('\t')
			case 'v':
				lit.WriteByte('\v')
			case '\\':
				lit.WriteByte('\\')
			case 'c':
				flushLit()
				pf.parts = append(pf.parts, printfPart{stop: true})
			default:
				if e >= '0' && e <= '7' {
					n, j := 0, i
					for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
						n = n*8 + int(s[j]-'0')
					}
					lit.WriteByte(byte(n))
					i = j - 1
				} else {
					lit.WriteByte('\\')
					lit.WriteByte(e)
				}
			}
		case '%':
			if i+1 >= len(s) {
				lit.WriteByte('%')
				continue
			}
			j := i + 1
			for j < len(s) && strings.IndexByte("-+ #0", s[j]) >= 0 {
				j++
			}
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			if j >= len(s) {
				lit.WriteString(s[i:])
				i = len(s)
				continue
			}
			flags := s[i+1 : j]
			v := s[j]
			if v == '%' {
				lit.WriteByte('%')
				i = j
				continue
			}
			part := printfPart{verb: v, flags: flags}
			switch v {
			case 'A', 'C', 'T', 'B':
				if j+1 >= len(s) {
					return nil, errorf("error: the format directive `%%%c' is reserved for future use", v)
				}
				part.sub = s[j+1]
				j++
			case 'a', 'b', 'c', 'd', 'D', 'f', 'F', 'g', 'G', 'h', 'H', 'i', 'k', 'l', 'm', 'M', 'n', 'p', 'P', 's', 'S', 't', 'u', 'U', 'y', 'Y', 'Z':
			default:
				// Unknown directives print as written, as GNU's do.
				lit.WriteString(s[i : j+1])
				i = j
				continue
			}
			flushLit()
			pf.parts = append(pf.parts, part)
			i = j
		default:
			lit.WriteByte(c)
		}
	}
	flushLit()
	return pf, nil
}

func (pf *printfFormat) format(f *file) string {
	var b strings.Builder
	for _, p := range pf.parts {
		if p.stop {
			break
		}
		if p.verb == 0 {
			b.WriteString(p.lit)
			continue
		}
		v := directive(f, p)
		if p.flags == "" {
			b.WriteString(v)
			continue
		}
		// GNU find formats every directive as a string: only '-', the
		// width and the precision have an effect.
		rest := strings.TrimLeft(p.flags, "-+ #0")
		flags := rest
		if strings.Contains(p.flags[:len(p.flags)-len(rest)], "-") {
			flags = "-" + rest
		}
		fmt.Fprintf(&b, "%"+flags+"s", v)
	}
	return b.String()
}

// directive returns the text of one directive.
func directive(f *file, p printfPart) string {
	fi, err := f.stat()
	switch p.verb {
	case 'p':
		return f.path
	case 'f':
		return f.name()
	case 'h':
		dir := strings.TrimRight(f.path, "/")
		i := strings.LastIndexByte(dir, '/')
		if i < 0 {
			return "."
		}
		if i == 0 {
			return ""
		}
		return dir[:i]
	case 'P':
		rest := strings.TrimPrefix(f.path, f.start)
		return strings.TrimPrefix(rest, "/")
	case 'H':
		return f.start
	case 'd':
		return strconv.Itoa(f.depth)
	case 'y', 'Y':
		var m fs.FileMode
		if p.verb == 'y' {
			if li, err := f.lstatInfo(); err == nil && f.f.follow == followNever {
				m = li.Mode()
			} else if err == nil {
				m = fi.Mode()
			}
		} else {
			si, err := os.Stat(f.path)
			if err != nil {
				return "N"
			}
			m = si.Mode()
		}
		return string(typeChar(m, 'f'))
	case 'l':
		li, err := f.lstatInfo()
		if err != nil || li.Mode()&fs.ModeSymlink == 0 {
			return ""
		}
		t, _ := os.Readlink(f.path)
		return t
	case 'Z':
		return ""
	case 'F':
		return "tmpfs"
	}
	if err != nil {
		return ""
	}
	s := f.sysinfo()
	switch p.verb {
	case 's':
		return strconv.FormatInt(fi.Size(), 10)
	case 'k':
		return strconv.FormatInt((s.blocks+1)/2, 10)
	case 'b':
		return strconv.FormatInt(s.blocks, 10)
	case 'S':
		if fi.Size() == 0 {
			return "1"
		}
		return strconv.FormatFloat(float64(s.blocks*512)/float64(fi.Size()), 'g', 6, 64)
	case 'n':
		return strconv.FormatUint(s.nlink, 10)
	case 'i':
		return strconv.FormatUint(s.ino, 10)
	case 'D':
		return strconv.FormatUint(s.dev, 10)
	case 'U':
		return strconv.FormatUint(uint64(s.uid), 10)
	case 'G':
		return strconv.FormatUint(uint64(s.gid), 10)
	case 'u':
		if n, ok := userName(s.uid); ok {
			return n
		}
		return strconv.FormatUint(uint64(s.uid), 10)
	case 'g':
		if n, ok := groupName(s.gid); ok {
			return n
		}
		return strconv.FormatUint(uint64(s.gid), 10)
	case 'm':
		perm, _ := f.perm()
		return strconv.FormatUint(uint64(perm), 8)
	case 'M':
		perm, _ := f.perm()
		return modeString(fi.Mode(), perm)
	case 'a':
		return ctimeString(s.atime)
	case 'c':
		return ctimeString(s.ctime)
	case 't':
		return ctimeString(fi.ModTime())
	case 'A':
		return timeField(s.atime, p.sub)
	case 'C':
		return timeField(s.ctime, p.sub)
	case 'T':
		return timeField(fi.ModTime(), p.sub)
	case 'B':
		return timeField(s.ctime, p.sub)
	}
	return ""
}

// frac is the ten-digit fraction GNU find prints after seconds.
func frac(t time.Time) string {
	return fmt.Sprintf("%09d0", t.Nanosecond())
}

// ctimeString formats t as ctime(3) does, with the fraction of a second.
func ctimeString(t time.Time) string {
	t = t.In(time.Local)
	return t.Format("Mon Jan _2 15:04:05") + "." + frac(t) + t.Format(" 2006")
}

// timeField formats one field of a time for %A, %C and %T.
func timeField(t time.Time, k byte) string {
	t = t.In(time.Local)
	switch k {
	case '@':
		return strconv.FormatInt(t.Unix(), 10) + "." + frac(t)
	case 'S':
		return t.Format("05") + "." + frac(t)
	case 'T':
		return t.Format("15:04:05") + "." + frac(t)
	case '+':
		return t.Format("2006-01-02+15:04:05") + "." + frac(t)
	case 'k':
		return fmt.Sprintf("%2d", t.Hour())
	case 'l':
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		return fmt.Sprintf("%2d", h)
	case 'X':
		return t.Format("15:04:05") + "." + frac(t)
	case 'x':
		return t.Format("01/02/06")
	case 'c':
		return t.Format("Mon Jan _2 15:04:05 2006")
	case 'h':
		return t.Format("Jan")
	case 'r':
		return t.Format("03:04:05 PM")
	}
	return tool.Strftime("%"+string(k), t)
}

// perm returns the file's permission bits, through fsx because WASI has
// none.
func (f *file) perm() (uint32, bool) {
	m, err := fsx.Perm(f.path, f.following())
	if err != nil {
		return 0, false
	}
	return permBits(m), true
}

// typeChar is the letter ls and find use for a file type.
func typeChar(m fs.FileMode, regular byte) byte {
	switch {
	case m&fs.ModeDir != 0:
		return 'd'
	case m&fs.ModeSymlink != 0:
		return 'l'
	case m&fs.ModeNamedPipe != 0:
		return 'p'
	case m&fs.ModeSocket != 0:
		return 's'
	case m&fs.ModeCharDevice != 0:
		return 'c'
	case m&fs.ModeDevice != 0:
		return 'b'
	}
	return regular
}

// modeString renders type and permission bits as ls -l does.
func modeString(m fs.FileMode, perm uint32) string {
	b := []byte("----------")
	b[0] = typeChar(m, '-')
	const rwx = "rwxrwxrwx"
	for i := range 9 {
		if perm&(1<<(8-i)) != 0 {
			b[i+1] = rwx[i]
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
	special(3, perm&0o4000 != 0, 's', 'S')
	special(6, perm&0o2000 != 0, 's', 'S')
	special(9, perm&0o1000 != 0, 't', 'T')
	return string(b)
}

// lsLine formats a file as -ls does.
func lsLine(f *file) string {
	fi, err := f.stat()
	if err != nil {
		return ""
	}
	s := f.sysinfo()
	perm, _ := f.perm()
	user, ok := userName(s.uid)
	if !ok {
		user = strconv.FormatUint(uint64(s.uid), 10)
	}
	group, ok := groupName(s.gid)
	if !ok {
		group = strconv.FormatUint(uint64(s.gid), 10)
	}
	t := fi.ModTime().In(time.Local)
	date := t.Format("Jan _2 15:04")
	if d := f.f.now.Sub(t); d > 182*24*time.Hour || d < -time.Hour {
		date = t.Format("Jan _2  2006")
	}
	line := fmt.Sprintf("%6d %4d %s %3d %-8s %-8s %8d %s %s", s.ino, (s.blocks+1)/2, modeString(fi.Mode(), perm), s.nlink, user, group, fi.Size(), date, f.path)
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err := os.Readlink(f.path); err == nil {
			line += " -> " + target
		}
	}
	return line + "\n"
}
