// Package hexdump implements hexdump (and hd): display file contents in
// hexadecimal, decimal, octal or ASCII, in the util-linux layouts selected
// by -b -c -C -d -o -x (default: 2-byte hex words).
package hexdump

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'b', Long: "one-byte-octal"},
		{Short: 'c', Long: "one-byte-char"},
		{Short: 'C', Long: "canonical"},
		{Short: 'd', Long: "two-bytes-decimal"},
		{Short: 'o', Long: "two-bytes-octal"},
		{Short: 'x', Long: "two-bytes-hex"},
		{Short: 'n', Long: "length", Arg: tool.RequiredArg},
		{Short: 's', Long: "skip", Arg: tool.RequiredArg},
		{Short: 'v', Long: "no-squeezing"},
		{Short: 'L', Long: "color", Arg: tool.OptionalArg},
		{Short: 'e', Long: "format", Arg: tool.RequiredArg},
		{Short: 'f', Long: "format-file", Arg: tool.RequiredArg},
	},
	Help: `Usage:
 hexdump [options] <file>...

Display file contents in hexadecimal, decimal, octal, or ascii.

Options:
 -b, --one-byte-octal      one-byte octal display
 -c, --one-byte-char       one-byte character display
 -C, --canonical           canonical hex+ASCII display
 -d, --two-bytes-decimal   two-byte decimal display
 -o, --two-bytes-octal     two-byte octal display
 -x, --two-bytes-hex       two-byte hexadecimal display
 -L, --color[=<mode>]      interpret color formatting specifiers (ignored)
 -n, --length <length>     interpret only length bytes of input
 -s, --skip <offset>       skip offset bytes from the beginning
 -v, --no-squeezing        output identical lines

     --help                display this help
     --version             display version
`}

// layout is one display: the unit size, how each unit prints and how
// wide it is, and the address format.
type layout struct {
	size  int
	field func(b []byte) string
	width int // printed width of one unit, separator included
}

var layouts = map[string]layout{
	"default": {2, func(b []byte) string { return fmt.Sprintf(" %04x", le16(b)) }, 5},
	"x":       {2, func(b []byte) string { return fmt.Sprintf("    %04x", le16(b)) }, 8},
	"d":       {2, func(b []byte) string { return fmt.Sprintf("   %05d", le16(b)) }, 8},
	"o":       {2, func(b []byte) string { return fmt.Sprintf("  %06o", le16(b)) }, 8},
	"b":       {1, func(b []byte) string { return fmt.Sprintf(" %03o", b[0]) }, 4},
	"c":       {1, func(b []byte) string { return charField(b[0]) }, 4},
}

func le16(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }

func charField(c byte) string {
	switch c {
	case 0:
		return "  \\0"
	case '\a':
		return "  \\a"
	case '\b':
		return "  \\b"
	case '\f':
		return "  \\f"
	case '\n':
		return "  \\n"
	case '\r':
		return "  \\r"
	case '\t':
		return "  \\t"
	case '\v':
		return "  \\v"
	}
	if c >= 0x20 && c < 0x7f {
		return "   " + string(rune(c))
	}
	return fmt.Sprintf(" %03o", c)
}

// Main runs hexdump.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	var chosen []string

	var skip, length int64 = 0, -1
	verbose := false
	for _, f := range flags {
		switch f.Name {
		case "b", "c", "d", "o", "x":
			chosen = append(chosen, f.Name)
		case "C":

			chosen = append(chosen, "C")
		case "n", "s":
			v, ok := tool.ParseSize(f.Arg)
			if !ok {
				if strings.HasPrefix(f.Arg, "0x") {
					var x int64
					if _, err := fmt.Sscanf(f.Arg, "0x%x", &x); err == nil {
						v, ok = x, true
					}
				}
			}
			if !ok {
				env.Errorf("invalid %s argument: '%s'", map[string]string{"n": "length", "s": "skip"}[f.Name], f.Arg)
				return 1
			}
			if f.Name == "n" {
				length = v
			} else {
				skip = v
			}
		case "v":
			verbose = true
		case "e", "f":
			env.Errorf("custom formats (-%s) are not supported; use -C, -x, -d, -o, -b or -c", f.Name)
			return 1
		}
	}
	if len(chosen) == 0 {
		chosen = []string{"default"}
	}
	in := &multiReader{env: env, names: files}
	if len(files) == 0 {
		in.names = []string{"-"}
	}
	if skip > 0 {
		if n, _ := io.CopyN(io.Discard, in, skip); n < skip && in.failed {
			return 1
		}
	}
	var r io.Reader = in
	if length >= 0 {
		r = io.LimitReader(in, length)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	w := env.Out()
	line := make([]byte, 16)
	prev := make([]byte, 16)
	havePrev, starred := false, false
	addr := skip
	wide := false
	for _, c := range chosen {
		if c == "C" {
			wide = true
		}
	}
	for {
		n, _ := io.ReadFull(br, line)
		if n == 0 {
			break
		}
		if n == 16 && havePrev && !verbose && bytes.Equal(line, prev) {
			if !starred {
				w.WriteString("*\n")
				starred = true
			}
			addr += 16
			continue
		}
		starred = false
		for i := n; i < 16; i++ {
			line[i] = 0
		}
		for _, c := range chosen {
			if c == "C" {
				canonicalLine(w, addr, line, n)
				continue
			}
			l := layouts[c]
			fmt.Fprintf(w, "%07x", addr)
			units := 16 / l.size
			shown := (n + l.size - 1) / l.size
			for i := 0; i < units; i++ {
				if i < shown {
					w.WriteString(l.field(line[i*l.size : (i+1)*l.size]))
				} else {
					w.WriteString(strings.Repeat(" ", l.width))
				}
			}
			w.WriteByte('\n')
		}
		copy(prev, line)
		havePrev = n == 16
		addr += int64(n)
		if n < 16 {
			break
		}
	}
	if addr > 0 || skip > 0 {
		if wide {
			fmt.Fprintf(w, "%08x\n", addr)
		} else {
			fmt.Fprintf(w, "%07x\n", addr)
		}
	}
	if in.failed {
		return 1
	}
	return 0
}

func canonicalLine(w *bufio.Writer, addr int64, line []byte, n int) {
	fmt.Fprintf(w, "%08x ", addr)
	for i := 0; i < 16; i++ {
		if i == 8 {
			w.WriteByte(' ')
		}
		if i < n {
			fmt.Fprintf(w, " %02x", line[i])
		} else {
			w.WriteString("   ")
		}
	}
	w.WriteString("  |")
	for _, c := range line[:n] {
		if c >= 0x20 && c < 0x7f {
			w.WriteByte(c)
		} else {
			w.WriteByte('.')
		}
	}
	w.WriteString("|\n")
}

// multiReader reads the named inputs one after another.
type multiReader struct {
	env    *tool.Env
	names  []string
	cur    io.ReadCloser
	failed bool
}

func (m *multiReader) Read(p []byte) (int, error) {
	for {
		if m.cur == nil {
			if len(m.names) == 0 {
				return 0, io.EOF
			}
			name := m.names[0]
			m.names = m.names[1:]
			r, err := m.env.Open(name)
			if err != nil {
				m.env.Errorf("%s: %s", name, tool.Strerror(err))
				m.failed = true
				continue
			}
			m.cur = r
		}
		n, err := m.cur.Read(p)
		if err == io.EOF {
			m.cur.Close()
			m.cur = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

// Canonical runs hd: hexdump -C.
func Canonical(env *tool.Env) int {
	args := append([]string{env.Args[0], "-C"}, env.Args[1:]...)
	e := *env
	e.Args = args
	return Main(&e)
}
