// Package tail implements tail: print the last (or all from the Nth) lines
// or bytes of files. -f follows a file only until its end: the sandbox has
// no way to wait for a file to grow.
package tail

import (
	"bufio"
	"bytes"
	"io"
	"slices"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "bytes", Arg: tool.RequiredArg},
		{Short: 'n', Long: "lines", Arg: tool.RequiredArg},
		{Short: 'f', Long: "follow", Arg: tool.OptionalArg},
		{Short: 'F'},
		{Long: "retry"},
		{Long: "pid", Arg: tool.RequiredArg},
		{Short: 's', Long: "sleep-interval", Arg: tool.RequiredArg},
		{Long: "max-unchanged-stats", Arg: tool.RequiredArg},
		{Short: 'q', Long: "quiet"},
		{Long: "silent"},
		{Short: 'v', Long: "verbose"},
		{Short: 'z', Long: "zero-terminated"},
	},
	Help: `Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -f, --follow[={name|descriptor}]
                           output appended data as the file grows;
                             in this sandbox, stop at end of file
  -F                       same as --follow=name --retry
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to skip NUM-1 lines at the start
      --pid=PID            accepted for compatibility
  -q, --quiet, --silent    never output headers giving file names
      --retry              keep trying to open a file if it is inaccessible
  -s, --sleep-interval=N   accepted for compatibility
  -v, --verbose            always output headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
`}

type config struct {
	count     int64
	bytes     bool // count bytes, not lines
	fromStart bool // +NUM: start at the NUMth unit
	delim     byte
}

// obsolete rewrites the historical "tail -N[bcl][f]" and "tail +N" forms.
func obsolete(args []string) ([]string, bool) {
	if len(args) < 2 {
		return args, true
	}
	a := args[1]
	if len(a) < 2 || (a[0] != '-' && a[0] != '+') || (a[0] == '+' && len(args) > 2 && args[2] != "--" && false) {
		return args, true
	}
	body := a[1:]
	i := 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
	}
	if a[0] == '-' && i == 0 {
		return args, true
	}
	num, suffix := body[:i], body[i:]
	if num == "" {
		num = "10"
	}
	opt, follow := "-n", false
	for _, c := range suffix {
		switch c {
		case 'b':
			opt = "-c"
			num += "b"
		case 'c':
			opt = "-c"
		case 'l':
		case 'f':
			follow = true
		default:
			if a[0] == '+' {
				return args, true // a file named +x
			}
			return nil, false
		}
	}
	if a[0] == '+' {
		num = "+" + num
	}
	out := []string{args[0], opt, num}
	if follow {
		out = append(out, "-f")
	}
	return append(out, args[2:]...), true
}

// Main runs tail.
func Main(env *tool.Env) int {
	args, ok := obsolete(env.Args)
	if !ok {
		return env.Usage(1, "invalid option -- '%s'", strings.TrimLeft(env.Args[1], "-0123456789")[:1])
	}
	sub := *env
	sub.Args = args
	flags, files, code, done := spec.Parse(&sub)
	if done {
		return code
	}
	cfg := config{count: 10, delim: '\n'}
	verbose, quiet := false, false
	for _, f := range flags {
		switch f.Name {
		case "c", "n":
			a := f.Arg
			cfg.bytes = f.Name == "c"
			cfg.fromStart = strings.HasPrefix(a, "+")
			a = strings.TrimPrefix(strings.TrimPrefix(a, "+"), "-")
			n, ok := tool.ParseSize(a)
			if !ok {
				what := "lines"
				if cfg.bytes {
					what = "bytes"
				}
				env.Errorf("invalid number of %s: %s", what, tool.Quote(f.Arg))
				return 1
			}
			cfg.count = n
		case "q", "silent":
			quiet, verbose = true, false
		case "v":
			verbose, quiet = true, false
		case "z":
			cfg.delim = 0
		case "f":
			switch f.Arg {
			case "", "name", "descriptor":
			default:
				env.Errorf("invalid argument %s for '--follow'", tool.Quote(f.Arg))
				return env.Usage(1, "")
			}
		case "s", "max-unchanged-stats":
			if _, ok := tool.ParseSize(f.Arg); !ok {
				env.Errorf("invalid number of seconds: %s", tool.Quote(f.Arg))
				return 1
			}
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	headers := verbose || len(files) > 1 && !quiet
	out := env.Out()
	status := 0
	first := true
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("cannot open %s for reading: %s", tool.Quote(name), tool.Strerror(err))
			status = 1
			continue
		}
		if headers {
			if !first {
				out.WriteByte('\n')
			}
			shown := name
			if name == "-" {
				shown = "standard input"
			}
			out.WriteString("==> " + shown + " <==\n")
		}
		first = false
		err = cfg.copy(out, r)
		r.Close()
		if _, werr := out.Write(nil); werr != nil {
			return env.WriteFailed(werr)
		}
		if err != nil {
			env.Errorf("error reading %s: %s", tool.Quote(name), tool.Strerror(err))
			status = 1
		}
	}
	return status
}

func (c *config) copy(out *bufio.Writer, r io.Reader) error {
	switch {
	case c.fromStart && c.bytes:
		if c.count > 1 {
			if _, err := io.CopyN(io.Discard, r, c.count-1); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
		_, err := io.Copy(out, r)
		return err
	case c.fromStart:
		br := bufio.NewReaderSize(r, 64<<10)
		for skip := c.count - 1; skip > 0; {
			line, err := br.ReadSlice(c.delim)
			if err == bufio.ErrBufferFull {
				continue
			}
			skip--
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			_ = line
		}
		_, err := io.Copy(out, br)
		return err
	}
	// Keep a window holding the last lines (or bytes) read so far, and
	// drop what falls out of it as the input goes by: an endless input
	// needs no more memory than the tail it asks for.
	var win []byte
	kept := 0 // the window's size after the last trim
	for {
		if cap(win)-len(win) < 16<<10 {
			win = slices.Grow(win, 64<<10)
		}
		n, err := r.Read(win[len(win):cap(win)])
		win = win[:len(win)+n]
		if len(win) > 2*kept+(64<<10) {
			win = win[:copy(win, c.tail(win))]
			kept = len(win)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	out.Write(c.tail(win))
	return nil
}

// tail returns the part of data to print.
func (c *config) tail(data []byte) []byte {
	if c.bytes {
		if int64(len(data)) > c.count {
			return data[int64(len(data))-c.count:]
		}
		return data
	}
	return lastLines(data, c.count, c.delim)
}

// lastLines returns the tail of data holding its last n lines; a final
// line without a delimiter counts as a line.
func lastLines(data []byte, n int64, delim byte) []byte {
	if n == 0 {
		return nil
	}
	end := len(data)
	if end > 0 && data[end-1] == delim {
		end--
	}
	for end > 0 {
		i := bytes.LastIndexByte(data[:end], delim)
		n--
		if n == 0 || i < 0 {
			return data[i+1:]
		}
		end = i
	}
	return data
}
