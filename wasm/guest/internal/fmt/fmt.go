// Package fmt implements fmt: fill and join paragraph lines to a width,
// choosing line breaks by GNU fmt's cost model (lines near the goal
// width, breaks after sentences preferred, widows and orphans avoided).
package fmt

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "crown-margin"},
		{Short: 'p', Long: "prefix", Arg: tool.RequiredArg},
		{Short: 's', Long: "split-only"},
		{Short: 't', Long: "tagged-paragraph"},
		{Short: 'u', Long: "uniform-spacing"},
		{Short: 'w', Long: "width", Arg: tool.RequiredArg},
		{Short: 'g', Long: "goal", Arg: tool.RequiredArg},
	},
	Help: `Usage: fmt [-WIDTH] [OPTION]... [FILE]...
Reformat each paragraph in the FILE(s), writing to standard output.
The option -WIDTH is an abbreviated form of --width=DIGITS.

With no FILE, or when FILE is -, read standard input.

  -c, --crown-margin        preserve indentation of first two lines
  -p, --prefix=STRING       reformat only lines beginning with STRING,
                              reattaching the prefix to reformatted lines
  -s, --split-only          split long lines, but do not refill
  -t, --tagged-paragraph    indentation of first line different from second
  -u, --uniform-spacing     one space between words, two after sentences
  -w, --width=WIDTH         maximum line width (default of 75 columns)
  -g, --goal=WIDTH          goal width (default of 93% of width)
      --help        display this help and exit
      --version     output version information and exit
`}

// Costs, as GNU fmt counts them: the square of an equivalent departure
// from the goal length, times ten.
type cost = int64

func equiv(n int64) cost      { return n * n }
func shortCost(n int64) cost  { return equiv(n * 10) }
func raggedCost(n int64) cost { return shortCost(n) / 2 }

var (
	lineCost      = equiv(70)
	sentenceBonus = equiv(50)
	noBreakCost   = equiv(600)
	parenBonus    = equiv(40)
	punctBonus    = equiv(40)
)

func widowCost(n int) cost  { return equiv(200) / int64(n+2) }
func orphanCost(n int) cost { return equiv(150) / int64(n+2) }

type word struct {
	text                        string
	length                      int
	space                       int // spaces after it
	paren, punct, period, final bool
	// results of the line-breaking pass
	nextBreak  int
	lineLength int
	bestCost   cost
}

type formatter struct {
	width, goal                   int
	crown, tagged, split, uniform bool
	prefix                        string
	out                           *bufio.Writer
}

// Main runs fmt.
func Main(env *tool.Env) int {
	args := append([]string(nil), env.Args...)
	if len(args) > 1 && len(args[1]) > 1 && args[1][0] == '-' && args[1][1] >= '0' && args[1][1] <= '9' {
		args[1] = "-w" + args[1][1:]
	}
	sub := *env
	sub.Args = args
	flags, files, code, done := spec.Parse(&sub)
	if done {
		return code
	}
	f := &formatter{width: 75, goal: -1}
	for _, fl := range flags {
		switch fl.Name {
		case "c":
			f.crown = true
		case "p":
			f.prefix = fl.Arg
		case "s":
			f.split = true
		case "t":
			f.tagged = true
		case "u":
			f.uniform = true
		case "w", "g":
			n, err := strconv.Atoi(fl.Arg)
			if err != nil || n < 0 || n > 2500 {
				if fl.Name == "w" {
					env.Errorf("invalid width: %s", tool.Quote(fl.Arg))
				} else {
					env.Errorf("invalid goal: %s", tool.Quote(fl.Arg))
				}
				return 1
			}
			if fl.Name == "w" {
				f.width = n
			} else {
				f.goal = n
			}
		}
	}
	if f.goal < 0 {
		f.goal = f.width * (2*(100-7) + 1) / 200
	} else if f.goal > f.width {
		env.Errorf("invalid goal width")
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	f.out = env.Out()
	status := 0
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("cannot open %s for reading: %s", tool.Quote(name), tool.Strerror(err))
			status = 1
			continue
		}
		data, err := io.ReadAll(r)
		r.Close()
		f.format(data)
		if _, werr := f.out.Write(nil); werr != nil {
			return env.WriteFailed(werr)
		}
		if err != nil {
			env.Errorf("read error: %s", tool.Strerror(err))
			status = 1
		}
	}
	return status
}

// indentOf measures the leading blanks of s in columns.
func indentOf(s string) (int, int) {
	col, i := 0, 0
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ':
			col++
		case '\t':
			col += 8 - col%8
		default:
			return col, i
		}
	}
	return col, i
}

func (f *formatter) format(data []byte) {
	text := string(data)
	lines := strings.SplitAfter(text, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	for i := 0; i < len(lines); {
		raw := strings.TrimSuffix(lines[i], "\n")
		if f.prefix != "" && !strings.HasPrefix(strings.TrimLeft(raw, " \t"), f.prefix) {
			f.out.WriteString(lines[i])
			i++
			continue
		}
		body := raw
		if f.prefix != "" {
			body = strings.TrimPrefix(strings.TrimLeft(raw, " \t"), f.prefix)
		}
		if strings.TrimSpace(body) == "" {
			f.out.WriteString(raw)
			f.out.WriteByte('\n')
			i++
			continue
		}
		firstIndent, _ := indentOf(body)
		para := []string{body}
		j := i + 1
		otherIndent := firstIndent
		if !f.split {
			for ; j < len(lines); j++ {
				next := strings.TrimSuffix(lines[j], "\n")
				if f.prefix != "" {
					t := strings.TrimLeft(next, " \t")
					if !strings.HasPrefix(t, f.prefix) {
						break
					}
					next = strings.TrimPrefix(t, f.prefix)
				}
				if strings.TrimSpace(next) == "" {
					break
				}
				ind, _ := indentOf(next)
				if j == i+1 && (f.crown || f.tagged) {
					if f.tagged && ind == firstIndent {
						break
					}
					otherIndent = ind
				} else if ind != otherIndent {
					break
				}
				para = append(para, next)
			}
		}
		f.paragraph(para, firstIndent, otherIndent)
		i = j
	}
}

func isPeriod(c byte) bool { return c == '.' || c == '?' || c == '!' }
func isClose(c byte) bool  { return c == ')' || c == ']' || c == '}' || c == '\'' || c == '"' }
func isOpen(c byte) bool {
	return c == '(' || c == '[' || c == '{' || c == '`' || c == '\'' || c == '"'
}
func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
}

func (f *formatter) words(para []string) []word {
	var ws []word
	for _, line := range para {
		s := line
		for len(s) > 0 {
			s = strings.TrimLeft(s, " \t")
			if s == "" {
				break
			}
			end := strings.IndexAny(s, " \t")
			if end < 0 {
				end = len(s)
			}
			w := word{text: s[:end], length: utf8.RuneCountInString(s[:end])}
			s = s[end:]
			spaces := 0
			for spaces < len(s) && (s[spaces] == ' ' || s[spaces] == '\t') {
				spaces++
			}
			t := w.text
			w.paren = isOpen(t[0])
			w.punct = isPunct(t[len(t)-1])
			k := len(t)
			for k > 1 && isClose(t[k-1]) {
				k--
			}
			w.period = isPeriod(t[k-1])
			atEnd := spaces == len(s)
			w.final = atEnd && w.period || spaces > 1 && w.period
			switch {
			case atEnd:
				w.space = 1
				if w.final {
					w.space = 2
				}
			case f.uniform:
				w.space = 1
				if w.final {
					w.space = 2
				}
			default:
				w.space = spaces
			}
			ws = append(ws, w)
		}
	}
	return ws
}

func (f *formatter) paragraph(para []string, firstIndent, otherIndent int) {
	ws := f.words(para)
	// GNU fmt writes indentation with tabs when the input used them.
	tabs := false
	for _, l := range para {
		_, k := indentOf(l)
		tabs = tabs || strings.Contains(l[:k], "\t")
	}
	n := len(ws)
	ws = append(ws, word{length: f.width}) // sentinel
	ws[n].bestCost = 0
	for start := n - 1; start >= 0; start-- {
		best := cost(1<<62 - 1)
		ln := otherIndent
		if start == 0 {
			ln = firstIndent
		}
		ln += ws[start].length
		w := start
		for {
			w++
			c := f.lineCost(ws, n, w, ln) + ws[w].bestCost
			if c < best {
				best = c
				ws[start].nextBreak = w
				ws[start].lineLength = ln
			}
			if w == n {
				break
			}
			ln += ws[w-1].space + ws[w].length
			if ln >= f.width {
				break
			}
		}
		ws[start].bestCost = best + f.baseCost(ws, start)
	}
	indent := firstIndent
	for i := 0; i < n; {
		if f.prefix != "" {
			f.out.WriteString(f.prefix)
		}
		if tabs {
			f.out.WriteString(strings.Repeat("\t", indent/8) + strings.Repeat(" ", indent%8))
		} else {
			f.out.WriteString(strings.Repeat(" ", indent))
		}
		end := ws[i].nextBreak
		for k := i; k < end; k++ {
			f.out.WriteString(ws[k].text)
			if k < end-1 {
				f.out.WriteString(strings.Repeat(" ", ws[k].space))
			}
		}
		f.out.WriteByte('\n')
		i = end
		indent = otherIndent
	}
}

func (f *formatter) lineCost(ws []word, n, next, ln int) cost {
	if next == n {
		return 0
	}
	c := shortCost(int64(f.goal - ln))
	if ws[next].nextBreak != n {
		c += raggedCost(int64(ln - ws[next].lineLength))
	}
	return c
}

func (f *formatter) baseCost(ws []word, this int) cost {
	c := lineCost
	if this > 0 {
		prev := &ws[this-1]
		switch {
		case prev.period:
			if prev.final {
				c -= sentenceBonus
			} else {
				c += noBreakCost
			}
		case prev.punct:
			c -= punctBonus
		case this > 1 && ws[this-2].final:
			c += widowCost(prev.length)
		}
	}
	if ws[this].paren {
		c -= parenBonus
	} else if ws[this].final {
		c += orphanCost(ws[this].length)
	}
	return c
}
