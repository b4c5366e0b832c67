// Package cmp implements the cmp command: compare two files byte by byte,
// as GNU diffutils' cmp does.
package cmp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

Mandatory arguments to long options are mandatory for short options too.
  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output
      --help                 display this help and exit
  -v, --version              output version information and exit

SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'b', Long: "print-bytes"},
		{Short: 'i', Long: "ignore-initial", Arg: tool.RequiredArg},
		{Short: 'l', Long: "verbose"},
		{Short: 'n', Long: "bytes", Arg: tool.RequiredArg},
		{Short: 's', Long: "quiet"},
		{Long: "silent"},
		{Short: 'v'},
	},
	Help:      help,
	UsageExit: 2,
}

// usage reports a command-line mistake the way cmp does: both lines carry
// the "cmp: " prefix.
func usage(env *tool.Env, format string, a ...any) int {
	if format != "" {
		env.Errorf(format, a...)
	}
	env.Errorf("Try '%s --help' for more information.", env.Name())
	return 2
}

// parse parses the command line with spec; a mistake is reported the
// diffutils way, with the "name: " prefix on the "Try" line too.
func parse(env *tool.Env, spec *tool.Spec) (flags []tool.Flag, ops []string, code int, done bool) {
	var msg bytes.Buffer
	sub := *env
	sub.Stderr = &msg
	flags, ops, code, done = spec.Parse(&sub)
	if !done {
		return flags, ops, 0, false
	}
	if code == 0 {
		sub.Out().Flush() // --help or --version
		return nil, nil, 0, true
	}
	for _, l := range strings.SplitAfter(msg.String(), "\n") {
		if strings.HasPrefix(l, "Try ") {
			l = env.Name() + ": " + l
		}
		io.WriteString(env.Stderr, l)
	}
	return nil, nil, code, true
}

// parseSkip parses a SKIP or LIMIT value with GNU's suffixes.
func parseSkip(s string) (int64, bool) {
	if s == "" || s[0] == '-' {
		return 0, false
	}
	return tool.ParseSize(s)
}

type mode int

const (
	modeFirst mode = iota // report the first difference
	modeAll               // -l: list every difference
	modeQuiet             // -s: status only
)

// Main runs cmp.
func Main(env *tool.Env) int {
	flags, ops, code, done := parse(env, &spec)
	if done {
		return code
	}
	m := modeFirst
	printBytes := false
	var skip [2]int64
	limit := int64(-1)
	for _, f := range flags {
		switch f.Name {
		case "b":
			printBytes = true
		case "l":
			m = modeAll
		case "v":
			return env.PrintVersion()
		case "s", "silent":
			m = modeQuiet
		case "i":
			a, b, two := strings.Cut(f.Arg, ":")
			v1, ok1 := parseSkip(a)
			v2 := v1
			ok2 := true
			if two {
				v2, ok2 = parseSkip(b)
			}
			if !ok1 || !ok2 {
				return usage(env, "invalid --ignore-initial value %s", tool.Quote(f.Arg))
			}
			skip = [2]int64{v1, v2}
		case "n":
			v, ok := parseSkip(f.Arg)
			if !ok {
				return usage(env, "invalid --bytes value %s", tool.Quote(f.Arg))
			}
			limit = v
		}
	}
	switch {
	case len(ops) == 0:
		return usage(env, "missing operand after %s", tool.Quote(env.Name()))
	case len(ops) > 4:
		return usage(env, "extra operand %s", tool.Quote(ops[4]))
	}
	for i := 2; i < len(ops); i++ {
		v, ok := parseSkip(ops[i])
		if !ok {
			return usage(env, "invalid --ignore-initial value %s", tool.Quote(ops[i]))
		}
		skip[i-2] = v
	}
	names := [2]string{ops[0], "-"}
	if len(ops) > 1 {
		names[1] = ops[1]
	}
	c := &comparer{env: env, mode: m, printBytes: printBytes, names: names, skip: skip, limit: limit}
	return c.run()
}

type comparer struct {
	env        *tool.Env
	mode       mode
	printBytes bool
	names      [2]string
	skip       [2]int64
	limit      int64

	lastNewline bool // the last equal byte compared was a newline
}

func (c *comparer) run() int {
	env := c.env
	var files [2]io.Reader
	var sizes [2]int64
	var infos [2]os.FileInfo
	for i, name := range c.names {
		sizes[i] = -1
		if name == "-" {
			files[i] = env.Stdin
			if f, ok := env.Stdin.(*os.File); ok {
				if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
					sizes[i] = fi.Size()
					infos[i] = fi
				}
			}
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			return 2
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil {
			if fi.IsDir() {
				env.Errorf("%s: Is a directory", name)
				return 2
			}
			if fi.Mode().IsRegular() {
				sizes[i] = fi.Size()
				infos[i] = fi
			}
		}
		files[i] = f
	}
	if c.names[0] == c.names[1] && c.skip[0] == c.skip[1] && infos[0] != nil {
		return 0
	}
	if infos[0] != nil && infos[1] != nil && os.SameFile(infos[0], infos[1]) && c.skip[0] == c.skip[1] {
		return 0
	}
	var rd [2]*bufio.Reader
	for i := range files {
		if err := skipBytes(files[i], c.skip[i]); err != nil {
			env.Errorf("%s: %s", c.names[i], tool.Strerror(err))
			return 2
		}
		rd[i] = bufio.NewReaderSize(files[i], 64<<10)
	}
	width := 1
	if c.mode == modeAll {
		max := int64(1<<63 - 1)
		if c.limit >= 0 {
			max = c.limit
		}
		for i := range sizes {
			if sizes[i] >= 0 {
				if n := sizes[i] - c.skip[i]; n < max {
					max = n
				}
			}
		}
		for max /= 10; max != 0; max /= 10 {
			width++
		}
	}
	return c.compare(rd, width)
}

// skipBytes discards n bytes of r, seeking when it can.
func skipBytes(r io.Reader, n int64) error {
	if n == 0 {
		return nil
	}
	if s, ok := r.(io.Seeker); ok {
		if _, err := s.Seek(n, io.SeekCurrent); err == nil {
			return nil
		}
	}
	_, err := io.CopyN(io.Discard, r, n)
	if err == io.EOF {
		return nil
	}
	return err
}

func (c *comparer) compare(rd [2]*bufio.Reader, width int) int {
	env := c.env
	w := env.Out()
	var offset int64 // bytes compared and equal or listed so far
	var line int64 = 1
	differ := false
	remaining := c.limit
	for remaining != 0 {
		b0, err0 := rd[0].Peek(rd[0].Buffered())
		if len(b0) == 0 {
			b0, err0 = rd[0].Peek(1)
		}
		b1, err1 := rd[1].Peek(rd[1].Buffered())
		if len(b1) == 0 {
			b1, err1 = rd[1].Peek(1)
		}
		for _, e := range [2]error{err0, err1} {
			if e != nil && e != io.EOF && e != bufio.ErrBufferFull {
				i := 0
				if e == err1 {
					i = 1
				}
				w.Flush()
				env.Errorf("%s: %s", c.names[i], tool.Strerror(e))
				return 2
			}
		}
		if len(b0) == 0 || len(b1) == 0 {
			if len(b0) == 0 && len(b1) == 0 {
				break
			}
			short := 0
			if len(b1) == 0 {
				short = 1
			}
			if c.mode != modeQuiet {
				w.Flush()
				switch {
				case offset == 0:
					env.Errorf("EOF on %s which is empty", c.names[short])
				case c.mode == modeAll:
					env.Errorf("EOF on %s after byte %d", c.names[short], offset)
				case c.lastNewline:
					env.Errorf("EOF on %s after byte %d, line %d", c.names[short], offset, line-1)
				default:
					env.Errorf("EOF on %s after byte %d, in line %d", c.names[short], offset, line)
				}
			}
			return 1
		}
		n := min(len(b0), len(b1))
		if remaining > 0 && int64(n) > remaining {
			n = int(remaining)
		}
		b0, b1 = b0[:n], b1[:n]
		for i := 0; i < n; {
			j := i + commonPrefix(b0[i:], b1[i:])
			if c.mode != modeAll {
				line += int64(bytes.Count(b0[i:j], nl))
			}
			if j > i {
				c.lastNewline = b0[j-1] == '\n'
			}
			if j == n {
				break
			}
			differ = true
			pos := offset + int64(j) + 1
			switch c.mode {
			case modeQuiet:
				return 1
			case modeFirst:
				unit := "byte"
				if !hardLocale(env) && !c.printBytes {
					unit = "char" // GNU cmp's untranslated wording
				}
				fmt.Fprintf(w, "%s %s differ: %s %d, line %d", c.names[0], c.names[1], unit, pos, line)
				if c.printBytes {
					fmt.Fprintf(w, " is %3o %s %3o %s", b0[j], printable(b0[j]), b1[j], printable(b1[j]))
				}
				w.WriteByte('\n')
				return 1
			}
			w.WriteString(pad(strconv.FormatInt(pos, 10), width))
			if c.printBytes {
				fmt.Fprintf(w, " %3o %-4s %3o %s\n", b0[j], printable(b0[j]), b1[j], printable(b1[j]))
			} else {
				fmt.Fprintf(w, " %3o %3o\n", b0[j], b1[j])
			}
			c.lastNewline = b0[j] == '\n'
			i = j + 1
		}
		offset += int64(n)
		if remaining > 0 {
			remaining -= int64(n)
		}
		rd[0].Discard(n)
		rd[1].Discard(n)
	}
	if differ {
		return 1
	}
	return 0
}

var nl = []byte{'\n'}

// hardLocale reports whether messages are in a locale other than C (or
// POSIX), as the environment says.
func hardLocale(env *tool.Env) bool {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := env.Env(k); v != "" {
			return v != "C" && v != "POSIX"
		}
	}
	return false
}

// commonPrefix returns the length of the common prefix of a and b, which
// have equal lengths, comparing large blocks first.
func commonPrefix(a, b []byte) int {
	i := 0
	for _, block := range [...]int{4096, 64} {
		for ; i+block <= len(a); i += block {
			if !bytes.Equal(a[i:i+block], b[i:i+block]) {
				break
			}
		}
	}
	for ; i < len(a) && a[i] == b[i]; i++ {
	}
	return i
}

func pad(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}

// printable renders a byte as cmp -b does: control characters as ^X,
// bytes above 127 as M- followed by the rendering of the low seven bits.
func printable(c byte) string {
	var b []byte
	if c >= 0x80 {
		b = append(b, 'M', '-')
		c -= 0x80
	}
	switch {
	case c < 32:
		b = append(b, '^', c+64)
	case c == 127:
		b = append(b, '^', '?')
	default:
		b = append(b, c)
	}
	return string(b)
}
