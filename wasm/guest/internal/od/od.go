// Package od implements od: dump files in octal, hexadecimal, decimal,
// floating point and character formats, with GNU's column layout and
// duplicate-line suppression.
package od

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'A', Long: "address-radix", Arg: tool.RequiredArg},
		{Long: "endian", Arg: tool.RequiredArg},
		{Short: 'j', Long: "skip-bytes", Arg: tool.RequiredArg},
		{Short: 'N', Long: "read-bytes", Arg: tool.RequiredArg},
		{Short: 'S', Long: "strings", Arg: tool.OptionalArg},
		{Short: 't', Long: "format", Arg: tool.RequiredArg},
		{Short: 'v', Long: "output-duplicates"},
		{Short: 'w', Long: "width", Arg: tool.OptionalArg},
		{Long: "traditional"},
		{Short: 'a'}, {Short: 'b'}, {Short: 'c'}, {Short: 'd'}, {Short: 'f'},
		{Short: 'h'}, {Short: 'i'}, {Short: 'l'}, {Short: 'o'}, {Short: 's'}, {Short: 'x'},
	},
	Help: `Usage: od [OPTION]... [FILE]...
Write an unambiguous representation, octal bytes by default,
of FILE to standard output.  With more than one FILE argument,
concatenate them in the listed order to form the input.

With no FILE, or when FILE is -, read standard input.

  -A, --address-radix=RADIX   output format for file offsets; RADIX is one
                                of [doxn], for Decimal, Octal, Hex or None
      --endian={big|little}   swap input bytes according the specified order
  -j, --skip-bytes=BYTES      skip BYTES input bytes first
  -N, --read-bytes=BYTES      limit dump to BYTES input bytes
  -t, --format=TYPE           select output format or formats
  -v, --output-duplicates     do not use * to mark line suppression
  -w[BYTES], --width[=BYTES]  output BYTES bytes per output line;
                                32 is implied when BYTES is not specified
      --help        display this help and exit
      --version     output version information and exit

Traditional format specifications may be intermixed; they accumulate:
  -a   same as -t a,  select named characters, ignoring high-order bit
  -b   same as -t o1, select octal bytes
  -c   same as -t c,  select printable characters or backslash escapes
  -d   same as -t u2, select unsigned decimal 2-byte units
  -f   same as -t fF, select floats
  -i   same as -t dI, select decimal ints
  -l   same as -t dL, select decimal longs
  -o   same as -t o2, select octal 2-byte units
  -s   same as -t d2, select decimal 2-byte units
  -x   same as -t x2, select hexadecimal 2-byte units

TYPE is made up of one or more of these specifications:
  a          named character, ignoring high-order bit
  c          printable character or backslash escape
  d[SIZE]    signed decimal, SIZE bytes per integer
  f[SIZE]    floating point, SIZE bytes per float
  o[SIZE]    octal, SIZE bytes per integer
  u[SIZE]    unsigned decimal, SIZE bytes per integer
  x[SIZE]    hexadecimal, SIZE bytes per integer

SIZE is a number.  For TYPE in [doux], SIZE may also be C for
sizeof(char), S for sizeof(short), I for sizeof(int) or L for
sizeof(long).  If TYPE is f, SIZE may also be F for sizeof(float), D
for sizeof(double) or L for sizeof(long double).

Adding a z suffix to any type displays printable characters at the end
of each output line.

BYTES is hex with 0x or 0X prefix, and may have a multiplier suffix.
`}

// format is one output type.
type format struct {
	kind  byte // a c d o u x f
	size  int
	width int  // digits of the widest value
	z     bool // show printable characters after the line
	pad   int  // extra spaces spread over the line to align columns
}

var intWidths = map[byte][9]int{
	'd': {1: 4, 2: 6, 4: 11, 8: 20},
	'o': {1: 3, 2: 6, 4: 11, 8: 22},
	'u': {1: 3, 2: 5, 4: 10, 8: 20},
	'x': {1: 2, 2: 4, 4: 8, 8: 16},
}

func parseType(s string) ([]format, error) {
	var out []format
	for i := 0; i < len(s); {
		f := format{kind: s[i]}
		i++
		switch f.kind {
		case 'a', 'c':
			f.size, f.width = 1, 3
		case 'd', 'o', 'u', 'x', 'f':
			f.size = 4
			if f.kind == 'f' {
				f.size = 8
			}
			if i < len(s) {
				switch c := s[i]; {
				case c >= '0' && c <= '9':
					j := i
					for j < len(s) && s[j] >= '0' && s[j] <= '9' {
						j++
					}
					n, _ := strconv.Atoi(s[i:j])
					f.size = n
					i = j
				case f.kind != 'f' && strings.IndexByte("CSIL", c) >= 0:
					f.size = map[byte]int{'C': 1, 'S': 2, 'I': 4, 'L': 8}[c]
					i++
				case f.kind == 'f' && strings.IndexByte("FDL", c) >= 0:
					f.size = map[byte]int{'F': 4, 'D': 8, 'L': 16}[c]
					i++
				}
			}
			if f.kind == 'f' {
				switch f.size {
				case 4:
					f.width = 15
				case 8:
					f.width = 24
				default:
					return nil, fmt.Errorf("invalid type string %s;\nthis system doesn't provide a %d-byte floating point type", tool.Quote(s), f.size)
				}
			} else {
				if f.size > 8 || f.size <= 0 || intWidths[f.kind][f.size] == 0 {
					return nil, fmt.Errorf("invalid type string %s;\nthis system doesn't provide a %d-byte integral type", tool.Quote(s), f.size)
				}
				f.width = intWidths[f.kind][f.size]
			}
		default:
			return nil, fmt.Errorf("invalid character '%c' in type string %s", f.kind, tool.Quote(s))
		}
		if i < len(s) && s[i] == 'z' {
			f.z = true
			i++
		}
		out = append(out, f)
	}
	return out, nil
}

// parseBytes reads a byte count: decimal, 0x hex or 0 octal, with an
// optional multiplier suffix.
func parseBytes(s string) (int64, bool) {
	base, body := 10, s
	switch {
	case strings.HasPrefix(s, "0x"), strings.HasPrefix(s, "0X"):
		base, body = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, body = 8, s[1:]
	}
	i := 0
	for i < len(body) && strings.IndexByte("0123456789abcdefABCDEF"[:base+max(0, base-10)], body[i]) >= 0 {
		i++
	}
	if i == 0 {
		return 0, false
	}
	v, err := strconv.ParseInt(body[:i], base, 64)
	if err != nil {
		return 0, false
	}
	if i == len(body) {
		return v, true
	}
	m, ok := tool.ParseSize("1" + body[i:])
	if !ok {
		return 0, false
	}
	return v * m, true
}

// Main runs od.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	var formats []format
	radix, addrWidth := 8, 7
	var skip, limit int64 = 0, -1
	width := 16
	verbose := false
	big := false
	add := func(t string) bool {
		fs, err := parseType(t)
		if err != nil {
			env.Errorf("%s", err.Error())
			return false
		}
		formats = append(formats, fs...)
		return true
	}
	traditional := map[string]string{"a": "a", "b": "o1", "c": "c", "d": "u2", "f": "fF", "h": "x2",
		"i": "dI", "l": "dL", "o": "o2", "s": "d2", "x": "x2"}
	for _, f := range flags {
		if t, ok := traditional[f.Name]; ok {
			add(t)
			continue
		}
		switch f.Name {
		case "A":
			switch f.Arg {
			case "d":
				radix, addrWidth = 10, 7
			case "o":
				radix, addrWidth = 8, 7
			case "x":
				radix, addrWidth = 16, 6
			case "n":
				radix, addrWidth = 0, 0
			default:
				env.Errorf("invalid output address radix '%s'; it must be one character from [doxn]", f.Arg)
				return 1
			}
		case "endian":
			switch f.Arg {
			case "big":
				big = true
			case "little":
				big = false
			default:
				env.Errorf("invalid argument %s for '--endian'", tool.Quote(f.Arg))
				return 1
			}
		case "j":
			v, ok := parseBytes(f.Arg)
			if !ok {
				env.Errorf("invalid skip-bytes argument %s", tool.Quote(f.Arg))
				return 1
			}
			skip = v
		case "N":
			v, ok := parseBytes(f.Arg)
			if !ok {
				env.Errorf("invalid read-bytes argument %s", tool.Quote(f.Arg))
				return 1
			}
			limit = v
		case "t":
			if !add(f.Arg) {
				return 1
			}
		case "v":
			verbose = true
		case "w":
			width = 32
			if f.HasArg {
				v, ok := parseBytes(f.Arg)
				if !ok || v <= 0 {
					env.Errorf("invalid -w argument %s", tool.Quote(f.Arg))
					return 1
				}
				width = int(v)
			}
		case "S", "traditional":
			env.Errorf("option --%s is not supported", f.Name)
			return 1
		}
	}
	if len(formats) == 0 {
		formats, _ = parseType("o2")
	}
	// Line width must be a multiple of every size; columns are aligned
	// to the widest format.
	l := 1
	for _, f := range formats {
		l = lcm(l, f.size)
	}
	if width%l != 0 {
		env.Errorf("warning: invalid width %d; using %d instead", width, l)
		width = l
	}
	maxw := 0
	for _, f := range formats {
		maxw = max(maxw, width/f.size*(f.width+1))
	}
	for i := range formats {
		formats[i].pad = maxw - width/formats[i].size*(formats[i].width+1)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	in := &multiReader{env: env, names: files}
	status := 0
	if skip > 0 {
		n, _ := io.CopyN(io.Discard, in, skip)
		if n < skip {
			env.Errorf("cannot skip past end of combined input")
			return 1
		}
	}
	var r io.Reader = in
	if limit >= 0 {
		r = io.LimitReader(in, limit)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	w := env.Out()
	line := make([]byte, width)
	prev := make([]byte, width)
	havePrev, starred := false, false
	addr := skip
	for {
		n, err := io.ReadFull(br, line)
		if n == 0 {
			if err != nil && err != io.EOF {
				status = 1
			}
			break
		}
		if n == width && havePrev && !verbose && bytes.Equal(line, prev) {
			if !starred {
				w.WriteString("*\n")
				starred = true
			}
			addr += int64(n)
			continue
		}
		starred = false
		for i := n; i < width; i++ {
			line[i] = 0
		}
		for i, f := range formats {
			if i == 0 {
				writeAddr(w, addr, radix, addrWidth)
			} else if radix != 0 {
				w.WriteString(strings.Repeat(" ", addrWidth))
			}
			f.write(w, line, n, width, big)
		}
		copy(prev, line)
		havePrev = n == width
		addr += int64(n)
		if n < width {
			break
		}
	}
	if radix != 0 && !(in.failed && addr == skip) {
		writeAddr(w, addr, radix, addrWidth)
		w.WriteByte('\n')
	}
	if in.failed {
		status = 1
	}
	return status
}

func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

func writeAddr(w *bufio.Writer, addr int64, radix, width int) {
	if radix == 0 {
		return
	}
	s := strconv.FormatInt(addr, radix)
	for n := len(s); n < width; n++ {
		w.WriteByte('0')
	}
	w.WriteString(s)
}

var names = [...]string{"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
	"dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp"}

// write prints one line of f for the first n bytes of line.
func (f *format) write(w *bufio.Writer, line []byte, n, width int, big bool) {
	fields := width / f.size
	shown := (n + f.size - 1) / f.size
	padLeft := f.pad
	for i := 0; i < shown; i++ {
		nextPad := f.pad * (fields - i - 1) / fields
		fw := padLeft - nextPad + f.width
		padLeft = nextPad
		v := f.text(line[i*f.size:(i+1)*f.size], big)
		w.WriteByte(' ')
		for k := len(v); k < fw; k++ {
			w.WriteByte(' ')
		}
		w.WriteString(v)
	}
	if f.z {
		for i := shown; i < fields; i++ {
			nextPad := f.pad * (fields - i - 1) / fields
			fw := padLeft - nextPad + f.width
			padLeft = nextPad
			w.WriteString(strings.Repeat(" ", fw+1))
		}
		w.WriteString("  >")
		for _, c := range line[:n] {
			if c >= 0x20 && c < 0x7f {
				w.WriteByte(c)
			} else {
				w.WriteByte('.')
			}
		}
		w.WriteByte('<')
	}
	w.WriteByte('\n')
}

func (f *format) text(b []byte, big bool) string {
	switch f.kind {
	case 'a':
		c := b[0] & 0x7f
		switch {
		case c <= ' ':
			return names[c]
		case c == 0x7f:
			return "del"
		}
		return string(rune(c))
	case 'c':
		c := b[0]
		switch c {
		case 0:
			return `\0`
		case '\a':
			return `\a`
		case '\b':
			return `\b`
		case '\f':
			return `\f`
		case '\n':
			return `\n`
		case '\r':
			return `\r`
		case '\t':
			return `\t`
		case '\v':
			return `\v`
		}
		if c >= 0x20 && c < 0x7f {
			return string(rune(c))
		}
		return fmt.Sprintf("%03o", c)
	}
	var u uint64
	switch f.size {
	case 1:
		u = uint64(b[0])
	case 2:
		if big {
			u = uint64(binary.BigEndian.Uint16(b))
		} else {
			u = uint64(binary.LittleEndian.Uint16(b))
		}
	case 4:
		if big {
			u = uint64(binary.BigEndian.Uint32(b))
		} else {
			u = uint64(binary.LittleEndian.Uint32(b))
		}
	case 8:
		if big {
			u = binary.BigEndian.Uint64(b)
		} else {
			u = binary.LittleEndian.Uint64(b)
		}
	}
	switch f.kind {
	case 'd':
		shift := 64 - 8*uint(f.size)
		return strconv.FormatInt(int64(u<<shift)>>shift, 10)
	case 'u':
		return strconv.FormatUint(u, 10)
	case 'x':
		s := strconv.FormatUint(u, 16)
		return strings.Repeat("0", f.width-len(s)) + s
	case 'o':
		s := strconv.FormatUint(u, 8)
		return strings.Repeat("0", f.width-len(s)) + s
	}
	// 'f': the shortest %g precision that reads back the same value.
	if f.size == 4 {
		v := math.Float32frombits(uint32(u))
		p0 := 6
		if math.Abs(float64(v)) < 0x1p-126 {
			p0 = 1 // subnormals need fewer digits, as in gnulib's ftoastr
		}
		for p := p0; p < 9; p++ {
			s := strconv.FormatFloat(float64(v), 'g', p, 32)
			if x, err := strconv.ParseFloat(s, 32); err == nil && float32(x) == v {
				return cFloat(s)
			}
		}
		return cFloat(strconv.FormatFloat(float64(v), 'g', 9, 32))
	}
	v := math.Float64frombits(u)
	p0 := 15
	if math.Abs(v) < 0x1p-1022 {
		p0 = 1
	}
	for p := p0; p < 17; p++ {
		s := strconv.FormatFloat(v, 'g', p, 64)
		if x, err := strconv.ParseFloat(s, 64); err == nil && x == v {
			return cFloat(s)
		}
	}
	return cFloat(strconv.FormatFloat(v, 'g', 17, 64))
}

// cFloat rewrites Go's %g exponent ("e+22") in C's style (at least two
// digits) and names infinities and NaNs as C does.
func cFloat(s string) string {
	switch s {
	case "+Inf":
		return "inf"
	case "-Inf":
		return "-inf"
	case "NaN":
		return "nan"
	}
	if i := strings.IndexByte(s, 'e'); i >= 0 && len(s)-i == 3 {
		s = s[:i+2] + "0" + s[i+2:]
	}
	return s
}

// multiReader reads the named inputs one after another, reporting the
// ones that cannot be opened.
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
				m.env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
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
