// Package head implements head: print the first (or all but the last)
// lines or bytes of files.
package head

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "bytes", Arg: tool.RequiredArg},
		{Short: 'n', Long: "lines", Arg: tool.RequiredArg},
		{Short: 'q', Long: "quiet"},
		{Long: "silent"},
		{Short: 'v', Long: "verbose"},
		{Short: 'z', Long: "zero-terminated"},
	},
	Help: `Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
`}

type config struct {
	count   int64
	bytes   bool // count bytes, not lines
	allBut  bool // print all but the last count
	delim   byte
	headers bool
}

// Main runs head.
func Main(env *tool.Env) int {
	args := env.Args
	// Obsolete form: head -NUM[bcklmq...] as the first argument.
	if len(args) > 1 && len(args[1]) > 1 && args[1][0] == '-' && args[1][1] >= '0' && args[1][1] <= '9' {
		a := args[1][1:]
		i := strings.IndexFunc(a, func(r rune) bool { return r < '0' || r > '9' })
		num, suffix := a, ""
		if i >= 0 {
			num, suffix = a[:i], a[i:]
		}
		opt := "-n"
		for _, c := range suffix {
			switch c {
			case 'c':
				opt = "-c"
			case 'b', 'k', 'm':
				num += string(c)
				opt = "-c"
			case 'l':
			case 'q', 'v', 'z':
			default:
				env.Errorf("invalid trailing option -- %c", c)
				return env.Usage(1, "")
			}
		}
		rest := []string{args[0], opt, num}
		for _, c := range suffix {
			if c == 'q' || c == 'v' || c == 'z' {
				rest = append(rest, "-"+string(c))
			}
		}
		args = append(rest, args[2:]...)
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
			cfg.allBut = strings.HasPrefix(a, "-")
			a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "+")
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
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	cfg.headers = verbose || len(files) > 1 && !quiet
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
		if cfg.headers {
			if !first {
				out.WriteByte('\n')
			}
			first = false
			shown := name
			if name == "-" {
				shown = "standard input"
			}
			out.WriteString("==> " + shown + " <==\n")
		}
		err = cfg.copy(out, r)
		r.Close()
		if err != nil {
			if we, ok := err.(writeError); ok {
				return env.WriteFailed(we.err)
			}
			env.Errorf("error reading %s: %s", tool.Quote(name), tool.Strerror(err))
			status = 1
		}
	}
	return status
}

type writeError struct{ err error }

func (w writeError) Error() string { return w.err.Error() }

func (c *config) copy(out *bufio.Writer, r io.Reader) error {
	switch {
	case c.bytes && !c.allBut:
		_, err := io.Copy(out, io.LimitReader(r, c.count))
		return c.classify(out, err)
	case c.bytes:
		return c.allButBytes(out, r)
	case !c.allBut:
		return c.lines(out, r)
	}
	return c.allButLines(out, r)
}

// classify tells a write failure from a read failure.
func (c *config) classify(out *bufio.Writer, err error) error {
	if _, werr := out.Write(nil); werr != nil {
		return writeError{werr}
	}
	return err
}

func (c *config) lines(out *bufio.Writer, r io.Reader) error {
	left := c.count
	buf := make([]byte, 32<<10)
	for left > 0 {
		n, err := r.Read(buf)
		chunk := buf[:n]
		for len(chunk) > 0 && left > 0 {
			i := bytes.IndexByte(chunk, c.delim)
			if i < 0 {
				out.Write(chunk)
				break
			}
			out.Write(chunk[:i+1])
			chunk = chunk[i+1:]
			left--
		}
		if _, werr := out.Write(nil); werr != nil {
			return writeError{werr}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// allButBytes holds back the last count bytes.
func (c *config) allButBytes(out *bufio.Writer, r io.Reader) error {
	if c.count == 0 {
		_, err := io.Copy(out, r)
		return c.classify(out, err)
	}
	var held []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		held = append(held, buf[:n]...)
		if extra := int64(len(held)) - c.count; extra > 0 {
			if _, werr := out.Write(held[:extra]); werr != nil {
				return writeError{werr}
			}
			held = append(held[:0], held[extra:]...)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// allButLines holds back the last count lines in a ring.
func (c *config) allButLines(out *bufio.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 32<<10)
	if c.count == 0 {
		_, err := io.Copy(out, br)
		return c.classify(out, err)
	}
	ring := make([][]byte, 0, min(c.count, 1024))
	next := 0
	for {
		line, err := br.ReadBytes(c.delim)
		if len(line) > 0 {
			if int64(len(ring)) < c.count {
				ring = append(ring, line)
			} else {
				if _, werr := out.Write(ring[next]); werr != nil {
					return writeError{werr}
				}
				ring[next] = line
				next = (next + 1) % len(ring)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
