// Package fold implements fold: wrap input lines to a width.
package fold

import (
	"bufio"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'b', Long: "bytes"},
		{Short: 'c', Long: "characters"},
		{Short: 's', Long: "spaces"},
		{Short: 'w', Long: "width", Arg: tool.RequiredArg},
	},
	IsOperand: func(a string) bool { return false },
	Help: `Usage: fold [OPTION]... [FILE]...
Wrap input lines in each FILE, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -b, --bytes         count bytes rather than columns
  -c, --characters    count characters rather than columns
  -s, --spaces        break at spaces
  -w, --width=WIDTH   use WIDTH columns instead of 80
      --help        display this help and exit
      --version     output version information and exit
`}

type fold struct {
	width  int
	bytes  bool
	chars  bool
	spaces bool
}

// Main runs fold.
func Main(env *tool.Env) int {
	// Obsolete -WIDTH form.
	args := append([]string(nil), env.Args...)
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			args[i] = "-w" + a[1:]
		}
	}
	sub := *env
	sub.Args = args
	flags, files, code, done := spec.Parse(&sub)
	if done {
		return code
	}
	f := &fold{width: 80}
	for _, fl := range flags {
		switch fl.Name {
		case "b":
			f.bytes = true
		case "c":
			f.chars = true
		case "s":
			f.spaces = true
		case "w":
			n, err := strconv.Atoi(fl.Arg)
			if err != nil || n <= 0 {
				if err == nil {
					env.Errorf("invalid number of columns: %s: Numerical result out of range", tool.Quote(fl.Arg))
					return 1
				}
				env.Errorf("invalid number of columns: %s", tool.Quote(fl.Arg))
				return 1
			}
			f.width = n
		}
	}
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
		data, err := io.ReadAll(r)
		r.Close()
		f.fold(out, data)
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

// advance is the column after c at column col, as GNU fold counts.
func (f *fold) advance(col int, c []byte) int {
	if f.bytes {
		return col + 1
	}
	switch c[0] {
	case '\b':
		return max(col-1, 0)
	case '\r':
		return 0
	case '\t':
		return col + 8 - col%8
	}
	return col + 1
}

func (f *fold) fold(out *bufio.Writer, data []byte) {
	var line []byte // the current output line
	col := 0
	for i := 0; i < len(data); {
		n := 1
		if f.chars && data[i] >= utf8.RuneSelf {
			_, n = utf8.DecodeRune(data[i:])
		}
		c := data[i : i+n]
		i += n
		if c[0] == '\n' {
			out.Write(line)
			out.WriteByte('\n')
			line, col = line[:0], 0
			continue
		}
		next := f.advance(col, c)
		if next > f.width {
			if f.spaces {
				if sp := lastBlank(line); sp >= 0 {
					out.Write(line[:sp+1])
					out.WriteByte('\n')
					rest := append([]byte(nil), line[sp+1:]...)
					line = append(line[:0], rest...)
					col = 0
					for j := 0; j < len(line); j++ {
						col = f.advance(col, line[j:j+1])
					}
					next = f.advance(col, c)
					if next <= f.width {
						line = append(line, c...)
						col = next
						continue
					}
				}
			}
			if len(line) > 0 {
				out.Write(line)
				out.WriteByte('\n')
				line, col = line[:0], 0
				next = f.advance(col, c)
			}
		}
		line = append(line, c...)
		col = next
	}
	out.Write(line)
}

func lastBlank(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == ' ' || b[i] == '\t' {
			return i
		}
	}
	return -1
}
