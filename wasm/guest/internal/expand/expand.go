// Package expand implements expand and unexpand: convert tabs to spaces
// and back.
package expand

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Tabs are tab stops: every Size columns past the explicit Stops.
type Tabs struct {
	Stops []int // explicit stops, increasing
	Size  int   // repeat size after the last stop (0: none)
}

// ParseTabs parses a -t list: "N", or "N1,N2,..." with an optional final
// "/N" (repeat) or "+N" (increment) entry.
func ParseTabs(lists []string) (Tabs, string) {
	t := Tabs{Size: 8}
	var stops []int
	tail := 0
	for _, list := range lists {
		for _, s := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
			prefix := byte(0)
			if s[0] == '/' || s[0] == '+' {
				prefix, s = s[0], s[1:]
			}
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				return t, "tab size contains invalid character(s): " + tool.Quote(s)
			}
			if prefix != 0 {
				tail = n
				if prefix == '+' && len(stops) > 0 {
					tail = -n
				}
				continue
			}
			if len(stops) > 0 && n <= stops[len(stops)-1] {
				return t, "tab sizes must be ascending"
			}
			if n == 0 {
				return t, "tab size cannot be 0"
			}
			stops = append(stops, n)
		}
	}
	switch {
	case len(stops) == 0 && tail == 0:
		return Tabs{Size: 8}, ""
	case len(stops) == 1 && tail == 0:
		return Tabs{Size: stops[0]}, ""
	case len(stops) == 0 && tail != 0:
		return Tabs{Size: abs(tail)}, ""
	}
	t.Stops = stops
	t.Size = 0
	if tail > 0 {
		t.Size = tail
	} else if tail < 0 {
		t.Size = -tail // "+N": N past the last stop
	}
	return t, ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Next returns the first tab stop after column col, or -1 if none.
func (t Tabs) Next(col int) int {
	for _, s := range t.Stops {
		if s > col {
			return s
		}
	}
	if t.Size == 0 {
		return -1
	}
	base := 0
	if len(t.Stops) > 0 {
		base = t.Stops[len(t.Stops)-1]
	}
	return base + ((col-base)/t.Size+1)*t.Size
}

var expandSpec = tool.Spec{
	Options: []tool.Option{
		{Short: 'i', Long: "initial"},
		{Short: 't', Long: "tabs", Arg: tool.RequiredArg},
	},
	Help: `Usage: expand [OPTION]... [FILE]...
Convert tabs in each FILE to spaces, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -i, --initial    do not convert tabs after non blanks
  -t, --tabs=N     have tabs N characters apart, not 8
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help        display this help and exit
      --version     output version information and exit
`}

var unexpandSpec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "all"},
		{Long: "first-only"},
		{Short: 't', Long: "tabs", Arg: tool.RequiredArg},
	},
	Help: `Usage: unexpand [OPTION]... [FILE]...
Convert blanks in each FILE to tabs, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -a, --all        convert all blanks, instead of just initial blanks
      --first-only  convert only leading sequences of blanks (overrides -a)
  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)
  -t, --tabs=LIST  use comma separated list of tab positions.
      --help        display this help and exit
      --version     output version information and exit
`}

// obsoleteTabs turns "-N" and "-N,M" arguments into "-tN".
func obsoleteTabs(args []string) []string {
	out := append([]string(nil), args...)
	for i := 1; i < len(out); i++ {
		a := out[i]
		if a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			out[i] = "-t" + a[1:]
		}
	}
	return out
}

func eachFile(env *tool.Env, files []string, fn func(br *bufio.Reader, out *bufio.Writer) error) int {
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
		err = fn(bufio.NewReaderSize(r, 64<<10), out)
		r.Close()
		if _, werr := out.Write(nil); werr != nil {
			return env.WriteFailed(werr)
		}
		if err != nil && err != io.EOF {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			status = 1
		}
	}
	return status
}

// Expand runs expand.
func Expand(env *tool.Env) int {
	sub := *env
	sub.Args = obsoleteTabs(env.Args)
	flags, files, code, done := expandSpec.Parse(&sub)
	if done {
		return code
	}
	initial := false
	var lists []string
	for _, f := range flags {
		switch f.Name {
		case "i":
			initial = true
		case "t":
			lists = append(lists, f.Arg)
		}
	}
	tabs, msg := ParseTabs(lists)
	if msg != "" {
		env.Errorf("%s", msg)
		return 1
	}
	return eachFile(env, files, func(br *bufio.Reader, out *bufio.Writer) error {
		col := 0
		leading := true
		for {
			r, n, err := br.ReadRune()
			if err != nil {
				return err
			}
			if r == utf8.RuneError && n == 1 {
				br.UnreadRune()
				b, _ := br.ReadByte()
				out.WriteByte(b)
				col++
				leading = false
				continue
			}
			switch {
			case r == '\t' && (!initial || leading):
				next := tabs.Next(col)
				if next < 0 {
					next = col + 1
				}
				for ; col < next; col++ {
					out.WriteByte(' ')
				}
			case r == '\n':
				out.WriteByte('\n')
				col, leading = 0, true
			case r == '\b':
				out.WriteByte('\b')
				col = max(col-1, 0)
			default:
				out.WriteRune(r)
				col++
				if r != ' ' && r != '\t' {
					leading = false
				}
			}
		}
	})
}

// Unexpand runs unexpand.
func Unexpand(env *tool.Env) int {
	sub := *env
	sub.Args = obsoleteTabs(env.Args)
	flags, files, code, done := unexpandSpec.Parse(&sub)
	if done {
		return code
	}
	all, firstOnly := false, false
	var lists []string
	for _, f := range flags {
		switch f.Name {
		case "a":
			all = true
		case "first-only":
			firstOnly = true
		case "t":
			lists = append(lists, f.Arg)
			all = true
		}
	}
	if firstOnly {
		all = false
	}
	tabs, msg := ParseTabs(lists)
	if msg != "" {
		env.Errorf("%s", msg)
		return 1
	}
	return eachFile(env, files, func(br *bufio.Reader, out *bufio.Writer) error {
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				unexpandLine(out, line, tabs, all)
			}
			if err != nil {
				return err
			}
		}
	})
}

// unexpandLine converts runs of blanks that reach a tab stop into tabs,
// leading blanks only unless all.
func unexpandLine(out *bufio.Writer, line []byte, tabs Tabs, all bool) {
	col := 0
	pendStart := -1 // column where the pending run of blanks began
	pend := []byte(nil)
	leading := true
	flushPending := func() {
		out.Write(pend)
		pend = pend[:0]
		pendStart = -1
	}
	for i := 0; i < len(line); {
		c := line[i]
		convert := leading || all
		if (c == ' ' || c == '\t') && convert {
			if pendStart < 0 {
				pendStart = col
			}
			next := col + 1
			if c == '\t' {
				next = tabs.Next(col)
				if next < 0 {
					next = col + 1
				}
			}
			stop := tabs.Next(col)
			pend = append(pend, c)
			if stop >= 0 && next >= stop {
				// The run reaches a tab stop: one tab replaces it, unless
				// it is a single space.
				if len(pend) > 1 || c == '\t' {
					out.WriteByte('\t')
					pend = pend[:0]
					pendStart = -1
				} else {
					flushPending()
				}
			}
			col = next
			i++
			continue
		}
		flushPending()
		if c != ' ' && c != '\t' {
			leading = false
		}
		n := 1
		if c >= utf8.RuneSelf {
			_, n = utf8.DecodeRune(line[i:])
		}
		out.Write(line[i : i+n])
		switch c {
		case '\b':
			col = max(col-1, 0)
		case '\t':
			if nx := tabs.Next(col); nx >= 0 {
				col = nx
			} else {
				col++
			}
		case '\n':
			col = 0
		default:
			col++
		}
		i += n
	}
	flushPending()
}
