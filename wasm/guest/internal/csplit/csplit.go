// Package csplit implements csplit: split a file into sections at line
// numbers or lines matching regular expressions.
package csplit

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	StopAtOperand: false,
	IsOperand: func(a string) bool {
		// Negative offsets such as /re/-1 are operands, not options.
		return len(a) > 1 && (a[0] == '/' || a[0] == '%')
	},
	Options: []tool.Option{
		{Short: 'b', Long: "suffix-format", Arg: tool.RequiredArg},
		{Short: 'f', Long: "prefix", Arg: tool.RequiredArg},
		{Short: 'k', Long: "keep-files"},
		{Long: "suppress-matched"},
		{Short: 'n', Long: "digits", Arg: tool.RequiredArg},
		{Short: 's', Long: "quiet"},
		{Long: "silent"},
		{Short: 'z', Long: "elide-empty-files"},
	},
	Help: `Usage: csplit [OPTION]... FILE PATTERN...
Output pieces of FILE separated by PATTERN(s) to files 'xx00', 'xx01', ...,
and output byte counts of each piece to standard output.

Read standard input if FILE is -

  -b, --suffix-format=FORMAT  use sprintf FORMAT instead of %02d
  -f, --prefix=PREFIX        use PREFIX instead of 'xx'
  -k, --keep-files           do not remove output files on errors
      --suppress-matched     suppress the lines matching PATTERN
  -n, --digits=DIGITS        use specified number of digits instead of 2
  -s, --quiet, --silent      do not print counts of output file sizes
  -z, --elide-empty-files    suppress empty output files
      --help        display this help and exit
      --version     output version information and exit

Each PATTERN may be:
  INTEGER            copy up to but not including specified line number
  /REGEXP/[OFFSET]   copy up to but not including a matching line
  %REGEXP%[OFFSET]   skip to, but not including a matching line
  {INTEGER}          repeat the previous pattern specified number of times
  {*}                repeat the previous pattern as many times as possible

A line OFFSET is an integer optionally preceded by '+' or '-'
`}

type pattern struct {
	text   string
	line   int // for INTEGER
	re     *posixre.Regexp
	skip   bool // %RE%
	offset int
	repeat int // extra repetitions; -1 for {*}
}

type csplit struct {
	env      *tool.Env
	lines    [][]byte // with terminators
	prefix   string
	format   string
	quiet    bool
	elide    bool
	suppress bool
	created  []string
	count    int
}

func (c *csplit) write(from, to int) error {
	if from > to {
		from = to
	}
	var data []byte
	for _, l := range c.lines[from:to] {
		data = append(data, l...)
	}
	if len(data) == 0 && c.elide {
		return nil
	}
	name := c.prefix + fmt.Sprintf(c.format, c.count)
	c.count++
	if err := os.WriteFile(name, data, 0o666); err != nil {
		return fmt.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
	}
	c.created = append(c.created, name)
	if !c.quiet {
		fmt.Fprintf(c.env.Out(), "%d\n", len(data))
	}
	return nil
}

func parsePatterns(args []string) ([]pattern, string) {
	var ps []pattern
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "{") && strings.HasSuffix(a, "}"):
			if len(ps) == 0 {
				return nil, fmt.Sprintf("%s: invalid pattern", tool.Quote(a))
			}
			body := a[1 : len(a)-1]
			if body == "*" {
				ps[len(ps)-1].repeat = -1
				continue
			}
			n, err := strconv.Atoi(body)
			if err != nil || n < 0 {
				return nil, fmt.Sprintf("%s: integer required between '{' and '}'", tool.Quote(a))
			}
			ps[len(ps)-1].repeat = n
		case len(a) > 0 && (a[0] == '/' || a[0] == '%'):
			end := strings.LastIndexByte(a, a[0])
			if end <= 0 {
				return nil, fmt.Sprintf("%s: closing delimiter '%c' missing", tool.Quote(a), a[0])
			}
			p := pattern{text: a, skip: a[0] == '%'}
			re, err := posixre.Compile([]string{a[1:end]}, posixre.Options{})
			if err != nil {
				return nil, fmt.Sprintf("%s: invalid regular expression: %s", tool.Quote(a), err)
			}
			p.re = re
			if off := a[end+1:]; off != "" {
				n, err := strconv.Atoi(off)
				if err != nil {
					return nil, fmt.Sprintf("%s: invalid pattern", tool.Quote(a))
				}
				p.offset = n
			}
			ps = append(ps, p)
		default:
			n, err := strconv.Atoi(a)
			if err != nil || n < 0 {
				return nil, fmt.Sprintf("%s: invalid pattern", tool.Quote(a))
			}
			if n == 0 {
				return nil, fmt.Sprintf("%s: line number must be greater than zero", tool.Quote(a))
			}
			if len(ps) > 0 && ps[len(ps)-1].re == nil && ps[len(ps)-1].line > n {
				return nil, fmt.Sprintf("line number %s is smaller than preceding line number, %d", tool.Quote(a), ps[len(ps)-1].line)
			}
			ps = append(ps, pattern{text: a, line: n})
		}
	}
	return ps, ""
}

// Main runs csplit.
func Main(env *tool.Env) int {
	flags, ops, code, done := spec.Parse(env)
	if done {
		return code
	}
	c := &csplit{env: env, prefix: "xx", format: "%02d"}
	keep := false
	for _, f := range flags {
		switch f.Name {
		case "b":
			if strings.Count(f.Arg, "%")-2*strings.Count(f.Arg, "%%") != 1 {
				env.Errorf("invalid format string: %s", tool.Quote(f.Arg))
				return 1
			}
			c.format = f.Arg
		case "f":
			c.prefix = f.Arg
		case "k":
			keep = true
		case "suppress-matched":
			c.suppress = true
		case "n":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 0 {
				env.Errorf("invalid number: %s", tool.Quote(f.Arg))
				return 1
			}
			c.format = "%0" + strconv.Itoa(n) + "d"
		case "s", "silent":
			c.quiet = true
		case "z":
			c.elide = true
		}
	}
	if len(ops) == 0 {
		return env.Usage(1, "missing operand")
	}
	if len(ops) == 1 {
		return env.Usage(1, "missing operand after %s", tool.Quote(ops[0]))
	}
	ps, msg := parsePatterns(ops[1:])
	if msg != "" {
		env.Errorf("%s", msg)
		return 1
	}
	r, err := env.Open(ops[0])
	if err != nil {
		env.Errorf("cannot open %s for reading: %s", tool.Quote(ops[0]), tool.Strerror(err))
		return 1
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		env.Errorf("read error: %s", tool.Strerror(err))
		return 1
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			c.lines = append(c.lines, data)
			break
		}
		c.lines = append(c.lines, data[:i+1])
		data = data[i+1:]
	}
	if err := c.run(ps); err != nil {
		env.Out().Flush()
		env.Errorf("%s", err)
		if !keep {
			for _, n := range c.created {
				os.Remove(n)
			}
		}
		return 1
	}
	if _, err := env.Out().Write(nil); err != nil {
		return env.WriteFailed(err)
	}
	return 0
}

func onRep(rep int) string {
	if rep == 0 {
		return ""
	}
	return fmt.Sprintf(" on repetition %d", rep)
}

func (c *csplit) run(ps []pattern) error {
	start := 0 // first line (0-based) of the current section
	last := 0  // 1-based number of the last line examined
	n := len(c.lines)
	for _, p := range ps {
		for rep := 0; p.repeat < 0 || rep <= p.repeat; rep++ {
			if p.re == nil {
				target := p.line * (rep + 1)
				if target > n {
					if p.repeat < 0 {
						break
					}
					c.write(start, n)
					return fmt.Errorf("%s: line number out of range%s", tool.Quote(p.text), onRep(rep))
				}
				if err := c.write(start, target-1); err != nil {
					return err
				}
				start, last = target-1, target-1
				if c.suppress {
					start++
				}
				continue
			}
			found := -1
			for i := last; i < n; i++ {
				body := bytes.TrimSuffix(c.lines[i], []byte{'\n'})
				if ok, _ := p.re.Match(body); ok {
					found = i
					break
				}
			}
			if found < 0 {
				if p.repeat < 0 && rep > 0 {
					break
				}
				if !p.skip {
					c.write(start, n)
				}
				if p.repeat < 0 {
					return nil
				}
				return fmt.Errorf("%s: match not found%s", tool.Quote(p.text), onRep(rep))
			}
			brk := found + p.offset
			if brk < start || brk > n {
				if !p.skip {
					c.write(start, n)
				}
				return fmt.Errorf("%s: line number out of range", tool.Quote(p.text))
			}
			if !p.skip {
				if err := c.write(start, brk); err != nil {
					return err
				}
			}
			start, last = brk, brk+1
			if c.suppress && p.offset == 0 {
				start++
			}
			if p.repeat < 0 && last >= n {
				break
			}
		}
	}
	return c.write(start, n)
}
