// Package cut implements cut: print selected bytes, characters or fields
// of each line.
package cut

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/wc"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'b', Long: "bytes", Arg: tool.RequiredArg},
		{Short: 'c', Long: "characters", Arg: tool.RequiredArg},
		{Short: 'd', Long: "delimiter", Arg: tool.RequiredArg},
		{Short: 'f', Long: "fields", Arg: tool.RequiredArg},
		{Short: 'n'},
		{Long: "complement"},
		{Short: 's', Long: "only-delimited"},
		{Long: "output-delimiter", Arg: tool.RequiredArg},
		{Short: 'z', Long: "zero-terminated"},
	},
	Help: `Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields;  also print any line
                            that contains no delimiter character, unless
                            the -s option is specified
  -n                      (ignored)
      --complement        complement the set of selected bytes, characters
                            or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter
                            the default is to use the input delimiter
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Use one, and only one of -b, -c or -f.  Each LIST is made up of one
range, or many ranges separated by commas.  Selected input is written
in the same order that it is read, and is written exactly once.
Each range is one of:

  N     N'th byte, character or field, counted from 1
  N-    from N'th byte, character or field, to end of line
  N-M   from N'th to M'th (included) byte, character or field
  -M    from first to M'th (included) byte, character or field
`}

// span is an inclusive 1-based range.
type span struct{ lo, hi int }

type cut struct {
	mode       byte // 'b', 'c' or 'f'
	spans      []span
	complement bool
	delim      []byte
	outDelim   []byte
	outSet     bool
	onlyDelim  bool
	eol        byte
	chars      bool   // -c counts UTF-8 characters
	obuf       []byte // output of a block of lines, reused
}

// selected reports whether position i (1-based) is selected.
func (c *cut) selected(i int) bool {
	in := false
	for _, s := range c.spans {
		if i < s.lo {
			break
		}
		if i <= s.hi {
			in = true
			break
		}
	}
	return in != c.complement
}

func parseList(s string, fields bool) ([]span, string) {
	numbered := "byte/character positions are numbered from 1"
	invalid := "invalid byte/character position "
	if fields {
		numbered = "fields are numbered from 1"
		invalid = "invalid field value "
	}
	if s == "" {
		return nil, numbered
	}
	var spans []span
	for _, part := range strings.Split(s, ",") {
		if part == "" {
			return nil, numbered
		}
		lo, hi := 1, math.MaxInt
		a, b, dash := strings.Cut(part, "-")
		num := func(t string) (int, string) {
			v, err := strconv.Atoi(t)
			if err != nil {
				for _, ch := range t {
					if ch < '0' || ch > '9' {
						return 0, invalid + tool.Quote(t)
					}
				}
				return math.MaxInt, ""
			}
			if v == 0 {
				return 0, numbered
			}
			return v, ""
		}
		var msg string
		switch {
		case !dash:
			if lo, msg = num(a); msg != "" {
				return nil, msg
			}
			hi = lo
		case a == "" && b == "":
			return nil, "invalid range with no endpoint: -"
		default:
			if a != "" {
				if lo, msg = num(a); msg != "" {
					return nil, msg
				}
			}
			if b != "" {
				if hi, msg = num(b); msg != "" {
					return nil, msg
				}
			}
			if hi < lo {
				return nil, "invalid decreasing range"
			}
		}
		spans = append(spans, span{lo, hi})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	merged := spans[:1]
	for _, s := range spans[1:] {
		last := &merged[len(merged)-1]
		if last.hi == math.MaxInt || s.lo <= last.hi+1 {
			last.hi = max(last.hi, s.hi)
		} else {
			merged = append(merged, s)
		}
	}
	return merged, ""
}

func isUTF8(env *tool.Env) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := strings.ToLower(env.Env(k)); v != "" {
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// Main runs cut.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	c := &cut{delim: []byte{'\t'}, eol: '\n'}
	delimSet := false
	for _, f := range flags {
		switch f.Name {
		case "b", "c", "f":
			if c.mode != 0 {
				return env.Usage(1, "only one list may be specified")
			}
			c.mode = f.Name[0]
			spans, msg := parseList(f.Arg, f.Name == "f")
			if msg != "" {
				return env.Usage(1, "%s", msg)
			}
			c.spans = spans
		case "d":
			if utf8.RuneCountInString(f.Arg) > 1 {
				return env.Usage(1, "the delimiter must be a single character")
			}
			c.delim = []byte(f.Arg)
			if f.Arg == "" {
				c.delim = []byte{0}
			}
			delimSet = true
		case "complement":
			c.complement = true
		case "s":
			c.onlyDelim = true
		case "output-delimiter":
			c.outDelim, c.outSet = []byte(f.Arg), true
		case "z":
			c.eol = 0
		}
	}
	if c.mode == 0 {
		return env.Usage(1, "you must specify a list of bytes, characters, or fields")
	}
	if c.mode != 'f' && delimSet {
		return env.Usage(1, "an input delimiter may be specified only when operating on fields")
	}
	if c.mode != 'f' && c.onlyDelim {
		return env.Usage(1, "suppressing non-delimited lines makes sense\n\tonly when operating on fields")
	}
	if !c.outSet {
		c.outDelim = c.delim
	}
	c.chars = c.mode == 'c' && isUTF8(env)
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := env.Out()
	status := 0
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			status = 1
			continue
		}
		err = c.file(out, r)
		r.Close()
		if _, werr := out.Write(nil); werr != nil {
			return env.WriteFailed(werr)
		}
		if err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			status = 1
		}
	}
	return status
}

func (c *cut) file(out *bufio.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	{
		// Whole buffers of lines at a time, into one output buffer: under
		// wasm the calls of a line-by-line loop cost more than the work.
		// What is left (a line longer than the buffer, a last line
		// without its end) goes to the loop below.
		for {
			buf, err := br.Peek(max(br.Buffered(), 1))
			end := bytes.LastIndexByte(buf, c.eol) + 1
			if end == 0 {
				if err != nil || len(buf) >= br.Size() {
					break
				}
				if _, err := br.Peek(len(buf) + 1); err != nil {
					break
				}
				continue
			}
			o := c.obuf[:0]
			if c.mode == 'f' {
				for b := buf[:end]; len(b) > 0; {
					i := bytes.IndexByte(b, c.eol)
					o = c.fields(o, b[:i])
					b = b[i+1:]
				}
			} else {
				for b := buf[:end]; len(b) > 0; {
					i := bytes.IndexByte(b, c.eol)
					o = c.positions(o, b[:i])
					b = b[i+1:]
				}
			}
			c.obuf = o
			if _, err := out.Write(o); err != nil {
				return err
			}
			br.Discard(end)
		}
	}
	var long []byte
	for {
		line, err := br.ReadSlice(c.eol)
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice(c.eol)
				long = append(long, line...)
			}
			line = long
		}
		if len(line) == 0 {
			if err == io.EOF {
				return nil
			}
			return err
		}
		body := line
		if body[len(body)-1] == c.eol {
			body = body[:len(body)-1]
		}
		if c.mode == 'f' {
			c.obuf = c.fields(c.obuf[:0], body)
		} else {
			c.obuf = c.positions(c.obuf[:0], body)
		}
		out.Write(c.obuf)
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// positions appends to o the selected bytes or characters of the line b
// (without its end) and the line's end.
func (c *cut) positions(o, b []byte) []byte {
	if (!c.chars || wc.IsASCII(b)) && !c.complement {
		// Bytes (or characters of one byte): the merged spans are
		// apart, so each is one slice.
		for k, s := range c.spans {
			if s.lo > len(b) {
				break
			}
			if k > 0 && c.outSet {
				o = append(o, c.outDelim...)
			}
			o = append(o, b[s.lo-1:min(s.hi, len(b))]...)
		}
		return append(o, c.eol)
	}
	prev := false // the previous position was selected
	first := true
	for i, pos := 0, 1; i < len(b); pos++ {
		n := 1
		if c.chars && b[i] >= utf8.RuneSelf {
			_, n = utf8.DecodeRune(b[i:])
		}
		if c.selected(pos) {
			if !prev && !first && c.outSet {
				o = append(o, c.outDelim...)
			}
			o = append(o, b[i:i+n]...)
			prev, first = true, false
		} else {
			prev = false
		}
		i += n
	}
	return append(o, c.eol)
}

// fields appends to o the selected fields of the line b (without its end)
// and the line's end.
func (c *cut) fields(o, b []byte) []byte {
	i := c.index(b)
	if i < 0 {
		if !c.onlyDelim {
			o = append(o, b...)
			o = append(o, c.eol)
		}
		return o
	}
	// Past the last selected field nothing more is printed.
	last := math.MaxInt
	if !c.complement {
		last = c.spans[len(c.spans)-1].hi
	}
	first := true
	for n := 1; n <= last; n++ {
		field := b
		if i >= 0 {
			field = b[:i]
		}
		if c.selected(n) {
			if !first {
				o = append(o, c.outDelim...)
			}
			o = append(o, field...)
			first = false
		}
		if i < 0 {
			break
		}
		b = b[i+len(c.delim):]
		i = c.index(b)
	}
	return append(o, c.eol)
}

// index finds the delimiter in b.
func (c *cut) index(b []byte) int {
	if len(c.delim) == 1 {
		return bytes.IndexByte(b, c.delim[0])
	}
	return bytes.Index(b, c.delim)
}
