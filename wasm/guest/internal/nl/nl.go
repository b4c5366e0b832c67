// Package nl implements nl: number the lines of files, with GNU nl's
// logical pages (header, body and footer sections).
package nl

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'b', Long: "body-numbering", Arg: tool.RequiredArg},
		{Short: 'd', Long: "section-delimiter", Arg: tool.RequiredArg},
		{Short: 'f', Long: "footer-numbering", Arg: tool.RequiredArg},
		{Short: 'h', Long: "header-numbering", Arg: tool.RequiredArg},
		{Short: 'i', Long: "line-increment", Arg: tool.RequiredArg},
		{Short: 'l', Long: "join-blank-lines", Arg: tool.RequiredArg},
		{Short: 'n', Long: "number-format", Arg: tool.RequiredArg},
		{Short: 'p', Long: "no-renumber"},
		{Short: 's', Long: "number-separator", Arg: tool.RequiredArg},
		{Short: 'v', Long: "starting-line-number", Arg: tool.RequiredArg},
		{Short: 'w', Long: "number-width", Arg: tool.RequiredArg},
	},
	Help: `Usage: nl [OPTION]... [FILE]...
Write each FILE to standard output, with line numbers added.

With no FILE, or when FILE is -, read standard input.

  -b, --body-numbering=STYLE      use STYLE for numbering body lines
  -d, --section-delimiter=CC      use CC for logical page delimiters
  -f, --footer-numbering=STYLE    use STYLE for numbering footer lines
  -h, --header-numbering=STYLE    use STYLE for numbering header lines
  -i, --line-increment=NUMBER     line number increment at each line
  -l, --join-blank-lines=NUMBER   group of NUMBER empty lines counted as one
  -n, --number-format=FORMAT      insert line numbers according to FORMAT
  -p, --no-renumber               do not reset line numbers for each section
  -s, --number-separator=STRING   add STRING after (possible) line number
  -v, --starting-line-number=NUMBER  first line number for each section
  -w, --number-width=NUMBER       use NUMBER columns for line numbers
      --help        display this help and exit
      --version     output version information and exit

Default options are: -bt -d'\:' -fn -hn -i1 -l1 -n'rn' -s<TAB> -v1 -w6

CC are two delimiter characters used to construct logical page delimiters;
a missing second character implies ':'.

STYLE is one of:

  a      number all lines
  t      number only nonempty lines
  n      number no lines
  pBRE   number only lines that contain a match for the basic regular
         expression, BRE

FORMAT is one of:

  ln     left justified, no leading zeros
  rn     right justified, no leading zeros
  rz     right justified, leading zeros
`}

// style says which lines of a section get numbers.
type style struct {
	kind byte // 'a', 't', 'n' or 'p'
	re   *posixre.Regexp
}

func parseStyle(s string) (style, bool) {
	switch {
	case s == "a" || s == "t" || s == "n":
		return style{kind: s[0]}, true
	case len(s) > 0 && s[0] == 'p':
		re, err := posixre.Compile([]string{s[1:]}, posixre.Options{})
		if err != nil {
			return style{}, false
		}
		return style{kind: 'p', re: re}, true
	}
	return style{}, false
}

type nl struct {
	styles   [3]style // header, body, footer
	incr     int64
	join     int64
	format   string
	sep      string
	start    int64
	width    int
	renumber bool
	delim    string
	num      int64
	blankRun int64
	section  int
}

// Main runs nl.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	n := &nl{incr: 1, join: 1, format: "rn", sep: "\t", start: 1, width: 6, renumber: true, delim: "\\:", section: 1}
	n.styles = [3]style{{kind: 'n'}, {kind: 't'}, {kind: 'n'}}
	for _, f := range flags {
		switch f.Name {
		case "b", "h", "f":
			st, ok := parseStyle(f.Arg)
			if !ok {
				env.Errorf("invalid %s numbering style: %s", map[string]string{"b": "body", "h": "header", "f": "footer"}[f.Name], tool.Quote(f.Arg))
				return env.Usage(1, "")
			}
			n.styles[map[string]int{"h": 0, "b": 1, "f": 2}[f.Name]] = st
		case "d":
			d := f.Arg
			if len(d) == 1 {
				d += ":"
			}
			n.delim = d
		case "i", "l", "v", "w":
			v, err := strconv.ParseInt(f.Arg, 10, 64)
			what := map[string]string{"i": "line number increment", "l": "line number of blank lines", "v": "starting line number", "w": "line number field width"}[f.Name]
			if err != nil || (f.Name == "w" || f.Name == "l") && v <= 0 {
				env.Errorf("invalid %s: %s", what, tool.Quote(f.Arg))
				return 1
			}
			switch f.Name {
			case "i":
				n.incr = v
			case "l":
				n.join = v
			case "v":
				n.start = v
			case "w":
				n.width = int(v)
			}
		case "n":
			switch f.Arg {
			case "ln", "rn", "rz":
				n.format = f.Arg
			default:
				env.Errorf("invalid line numbering format: %s", tool.Quote(f.Arg))
				return env.Usage(1, "")
			}
		case "p":
			n.renumber = false
		case "s":
			n.sep = f.Arg
		}
	}
	n.num = n.start
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
		err = n.file(out, r)
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

func (n *nl) file(out *bufio.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	d := []byte(n.delim)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 {
			if err == io.EOF {
				return nil
			}
			return err
		}
		body := bytes.TrimSuffix(line, []byte{'\n'})
		// Section delimiters: CCCCCC header, CCCC body, CC footer.
		if len(d) > 0 && len(body) > 0 && len(body)%len(d) == 0 && len(body) <= 3*len(d) && bytes.Equal(body, bytes.Repeat(d, len(body)/len(d))) {
			n.section = 3 - len(body)/len(d)
			if n.renumber {
				n.num = n.start
			}
			out.WriteByte('\n')
			continue
		}
		st := n.styles[n.section]
		number := false
		switch st.kind {
		case 'a':
			if len(body) == 0 {
				n.blankRun++
				if n.blankRun >= n.join {
					number = true
					n.blankRun = 0
				}
			} else {
				number = true
				n.blankRun = 0
			}
		case 't':
			number = len(body) > 0
		case 'p':
			number, _ = st.re.Match(body)
		}
		if number {
			s := strconv.FormatInt(n.num, 10)
			switch n.format {
			case "ln":
				fmt.Fprintf(out, "%-*s", n.width, s)
			case "rn":
				fmt.Fprintf(out, "%*s", n.width, s)
			case "rz":
				if n.num < 0 {
					fmt.Fprintf(out, "-%0*s", n.width-1, s[1:])
				} else {
					fmt.Fprintf(out, "%0*s", n.width, s)
				}
			}
			out.WriteString(n.sep)
			n.num += n.incr
		} else {
			for i := 0; i < n.width+len(n.sep); i++ {
				out.WriteByte(' ')
			}
		}
		out.Write(line)
		if err == io.EOF {
			return nil
		}
	}
}
