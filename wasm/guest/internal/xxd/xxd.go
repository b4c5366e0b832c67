// Package xxd implements xxd: make a hex dump (normal, plain, C include,
// bits, little-endian) or turn one back into binary (-r).
package xxd

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "autoskip"},
		{Short: 'b', Long: "bits"},
		{Short: 'C', Long: "capitalize"},
		{Short: 'c', Long: "cols", Arg: tool.RequiredArg},
		{Short: 'd'},
		{Short: 'E', Long: "EBCDIC"},
		{Short: 'e'},
		{Short: 'g', Long: "groupsize", Arg: tool.RequiredArg},
		{Short: 'i', Long: "include"},
		{Short: 'l', Long: "len", Arg: tool.RequiredArg},
		{Short: 'n', Long: "name", Arg: tool.RequiredArg},
		{Short: 'o', Long: "offset", Arg: tool.RequiredArg},
		{Short: 'p', Long: "ps"},
		{Long: "postscript"},
		{Long: "plain"},
		{Short: 'r', Long: "revert"},
		{Short: 's', Long: "seek", Arg: tool.RequiredArg},
		{Short: 'u', Long: "uppercase"},
	},
	Help: `Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -d          show offset in decimal instead of hex.
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -h          print this summary.
    -v          show version: "xxd (wasmsand)".
`}

type config struct {
	cols, group       int
	bits, little      bool
	upper, autoskip   bool
	decimal           bool
	offset            int64
	plain, include    bool
	capitalize        bool
	name              string
	haveCols, haveGrp bool
}

// parseNum reads xxd's numbers: decimal, 0x hex or leading-0 octal.
func parseNum(s string) (int64, bool) {
	v, err := strconv.ParseInt(s, 0, 64)
	return v, err == nil
}

// Main runs xxd.
func Main(env *tool.Env) int {
	// xxd spells its plain mode "-ps" and "-postscript".
	for i, a := range env.Args[1:] {
		switch a {
		case "-ps", "-postscript", "-plain":
			env.Args[i+1] = "-p"
		}
	}
	for _, a := range env.Args[1:] {
		if a == "--" || a == "-" || len(a) < 2 || a[0] != '-' {
			break
		}
		if a == "--help" || a == "-h" || a == "-help" {
			// xxd writes its usage to standard error and exits with 1.
			fmt.Fprint(env.Stderr, spec.Help)
			return 1
		}
	}
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	c := &config{cols: 16, group: 2}
	var seek, length int64 = 0, -1
	revert := false
	for _, f := range flags {
		switch f.Name {
		case "a":
			c.autoskip = !c.autoskip
		case "b":
			c.bits = true
		case "C":
			c.capitalize = true
		case "c", "g", "l", "o", "s":
			v, ok := parseNum(strings.TrimPrefix(f.Arg, "+"))
			if !ok || v < 0 && f.Name != "s" {
				env.Errorf("invalid number %s", tool.Quote(f.Arg))
				return 1
			}
			switch f.Name {
			case "c":
				c.cols, c.haveCols = int(v), true
			case "g":
				c.group, c.haveGrp = int(v), true
			case "l":
				length = v
			case "o":
				c.offset = v
			case "s":
				seek = v
			}
		case "d":
			c.decimal = true
		case "e":
			c.little = true
		case "i":
			c.include = true
		case "n":
			c.name = f.Arg
		case "p", "postscript", "plain":
			c.plain = true
		case "r":
			revert = true
		case "u":
			c.upper = true
		case "E":
			env.Errorf("EBCDIC is not supported")
			return 1
		}
	}
	if len(files) > 2 {
		return env.Usage(1, "extra operand %s", tool.Quote(files[2]))
	}
	in := "-"
	if len(files) > 0 {
		in = files[0]
	}
	r, err := env.Open(in)
	if err != nil {
		env.Errorf("%s: %s", in, tool.Strerror(err))
		return 2
	}
	defer r.Close()
	w := env.Out()
	if len(files) == 2 && files[1] != "-" {
		f, err := createFile(files[1])
		if err != nil {
			env.Errorf("%s: %s", files[1], tool.Strerror(err))
			return 3
		}
		defer f.Close()
		w = bufio.NewWriter(f)
		defer w.Flush()
	}
	if revert {
		return c.revert(env, bufio.NewReader(r), w)
	}
	if seek < 0 {
		env.Errorf("sorry, cannot seek backwards from the end of a stream")
		return 4
	}
	if seek > 0 {
		if n, _ := io.CopyN(io.Discard, r, seek); n < seek {
			env.Errorf("sorry cannot seek")
			return 4
		}
	}
	var src io.Reader = r
	if length >= 0 {
		src = io.LimitReader(r, length)
	}
	br := bufio.NewReaderSize(src, 64<<10)
	switch {
	case c.include:
		return c.cInclude(br, w, in)
	case c.plain:
		return c.plainDump(br, w)
	}
	return c.dump(br, w, seek)
}

func (c *config) hexDigits() string {
	if c.upper {
		return "0123456789ABCDEF"
	}
	return "0123456789abcdef"
}

func (c *config) plainDump(r *bufio.Reader, w *bufio.Writer) int {
	cols := 30
	if c.haveCols {
		cols = c.cols
	}
	hx := c.hexDigits()
	n := 0
	for {
		b, err := r.ReadByte()
		if err != nil {
			break
		}
		w.WriteByte(hx[b>>4])
		w.WriteByte(hx[b&15])
		n++
		if cols > 0 && n%cols == 0 {
			w.WriteByte('\n')
		}
	}
	if cols == 0 || n%cols != 0 {
		w.WriteByte('\n')
	}
	return 0
}

func (c *config) cInclude(r *bufio.Reader, w *bufio.Writer, in string) int {
	cols := 12
	if c.haveCols {
		cols = c.cols
	}
	name := c.name
	if name == "" && in != "-" {
		var b strings.Builder
		for i, ch := range []byte(in) {
			switch {
			case ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' && i > 0:
				if c.capitalize && ch >= 'a' && ch <= 'z' {
					ch -= 'a' - 'A'
				}
				b.WriteByte(ch)
			case ch >= '0' && ch <= '9':
				b.WriteString("__")
				b.WriteByte(ch)
			default:
				b.WriteByte('_')
			}
		}
		name = b.String()
	}
	if name != "" {
		fmt.Fprintf(w, "unsigned char %s[] = {\n", name)
	}
	hx := c.hexDigits()
	n := 0
	for {
		b, err := r.ReadByte()
		if err != nil {
			break
		}
		switch {
		case n == 0:
			w.WriteString("  ")
		case n%cols == 0:
			w.WriteString(",\n  ")
		default:
			w.WriteString(", ")
		}
		w.WriteString("0x")
		w.WriteByte(hx[b>>4])
		w.WriteByte(hx[b&15])
		n++
	}
	if n > 0 {
		w.WriteByte('\n')
	}
	if name != "" {
		lenName := name + "_len"
		if c.capitalize {
			lenName = name + "_LEN"
		}
		fmt.Fprintf(w, "};\nunsigned int %s = %d;\n", lenName, n)
	}
	return 0
}

func (c *config) dump(r *bufio.Reader, w *bufio.Writer, seek int64) int {
	cols, group := c.cols, c.group
	if c.bits {
		if !c.haveCols {
			cols = 6
		}
		if !c.haveGrp {
			group = 1
		}
	} else if c.little && !c.haveGrp {
		group = 4
	}
	if cols <= 0 {
		cols = 16
	}
	if group <= 0 {
		group = cols
	}
	per := 2
	if c.bits {
		per = 8
	}
	groups := (cols + group - 1) / group
	hexWidth := cols*per + groups
	hx := c.hexDigits()
	line := make([]byte, cols)
	addr := seek + c.offset
	skipping := false
	var lastLine []byte
	lastAddr := int64(-1)
	out := make([]byte, 0, hexWidth+cols+32)
	for {
		n, _ := io.ReadFull(r, line)
		if n == 0 {
			break
		}
		zero := n == cols
		for _, b := range line[:n] {
			if b != 0 {
				zero = false
				break
			}
		}
		out = out[:0]
		if c.decimal {
			out = append(out, fmt.Sprintf("%08d: ", addr)...)
		} else {
			out = append(out, fmt.Sprintf("%08x: ", addr)...)
		}
		start := len(out)
		for g := 0; g*group < cols; g++ {
			lo, hi := g*group, min((g+1)*group, cols)
			for i := lo; i < hi; i++ {
				j := i
				if c.little {
					j = hi - 1 - (i - lo)
				}
				if j >= n {
					for k := 0; k < per; k++ {
						out = append(out, ' ')
					}
					continue
				}
				b := line[j]
				if c.bits {
					for k := 7; k >= 0; k-- {
						out = append(out, '0'+(b>>uint(k))&1)
					}
				} else {
					out = append(out, hx[b>>4], hx[b&15])
				}
			}
			if hi <= n || c.little {
				out = append(out, ' ')
			}
		}
		for len(out)-start < hexWidth {
			out = append(out, ' ')
		}
		out = append(out, ' ')
		for _, b := range line[:n] {
			if b >= 0x20 && b < 0x7f {
				out = append(out, b)
			} else {
				out = append(out, '.')
			}
		}
		out = append(out, '\n')
		if c.autoskip && zero {
			if skipping {
				lastLine = append(lastLine[:0], out...)
				lastAddr = addr
				addr += int64(n)
				continue
			}
			skipping = true
			w.Write(out)
			addr += int64(n)
			lastAddr = -1
			continue
		}
		if skipping && lastAddr >= 0 {
			w.WriteString("*\n")
		}
		skipping, lastAddr = false, -1
		w.Write(out)
		addr += int64(n)
	}
	if skipping && lastAddr >= 0 {
		w.WriteString("*\n")
		w.Write(lastLine)
	}
	return 0
}

func hexVal(b byte) int {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0')
	case b >= 'a' && b <= 'f':
		return int(b-'a') + 10
	case b >= 'A' && b <= 'F':
		return int(b-'A') + 10
	}
	return -1
}

// revert turns a normal or plain hex dump back into bytes; addresses in a
// normal dump that skip ahead are filled with zero bytes.
func (c *config) revert(env *tool.Env, r *bufio.Reader, w *bufio.Writer) int {
	var pos int64
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		data := line
		if !c.plain {
			colon := strings.IndexByte(line, ':')
			if colon < 0 {
				continue
			}
			addr, err := strconv.ParseInt(strings.TrimSpace(line[:colon]), 16, 64)
			if err != nil {
				continue
			}
			addr -= c.offset
			for pos < addr {
				w.WriteByte(0)
				pos++
			}
			data = line[colon+1:]
			// The text column starts after two spaces.
			if i := strings.Index(strings.TrimLeft(data, " "), "  "); i >= 0 {
				lead := len(data) - len(strings.TrimLeft(data, " "))
				data = data[:lead+i]
			}
		}
		hi := -1
		for i := 0; i < len(data); i++ {
			v := hexVal(data[i])
			if v < 0 {
				hi = -1
				continue
			}
			if hi < 0 {
				hi = v
				continue
			}
			w.WriteByte(byte(hi<<4 | v))
			pos++
			hi = -1
		}
	}
	return 0
}
