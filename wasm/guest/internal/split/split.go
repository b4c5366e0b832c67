// Package split implements split: cut a file into pieces named PREFIXaa,
// PREFIXab, ...
package split

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

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "suffix-length", Arg: tool.RequiredArg},
		{Long: "additional-suffix", Arg: tool.RequiredArg},
		{Short: 'b', Long: "bytes", Arg: tool.RequiredArg},
		{Short: 'C', Long: "line-bytes", Arg: tool.RequiredArg},
		{Short: 'd'},
		{Long: "numeric-suffixes", Arg: tool.OptionalArg},
		{Short: 'x'},
		{Long: "hex-suffixes", Arg: tool.OptionalArg},
		{Short: 'e', Long: "elide-empty-files"},
		{Short: 'l', Long: "lines", Arg: tool.RequiredArg},
		{Short: 'n', Long: "number", Arg: tool.RequiredArg},
		{Short: 't', Long: "separator", Arg: tool.RequiredArg},
		{Short: 'u', Long: "unbuffered"},
		{Long: "verbose"},
	},
	Help: `Usage: split [OPTION]... [FILE [PREFIX]]
Output pieces of FILE to PREFIXaa, PREFIXab, ...;
default size is 1000 lines, and default PREFIX is 'x'.

With no FILE, or when FILE is -, read standard input.

  -a, --suffix-length=N   generate suffixes of length N (default 2)
      --additional-suffix=SUFFIX  append an additional SUFFIX to file names
  -b, --bytes=SIZE        put SIZE bytes per output file
  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file
  -d                      use numeric suffixes starting at 0, not alphabetic
      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value
  -x                      use hex suffixes starting at 0, not alphabetic
      --hex-suffixes[=FROM]  same as -x, but allow setting the start value
  -e, --elide-empty-files  do not generate empty output files with '-n'
  -l, --lines=NUMBER      put NUMBER lines/records per output file
  -n, --number=CHUNKS     generate CHUNKS output files; see explanation below
  -t, --separator=SEP     use SEP instead of newline as the record separator;
                            '\0' (zero) specifies the NUL character
  -u, --unbuffered        accepted for compatibility
      --verbose           print a diagnostic just before each
                            output file is opened
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y,R,Q (powers of 1024) or KB,MB,... (powers of 1000).

CHUNKS may be:
  N       split into N files based on size of input
  K/N     output Kth of N to stdout
  l/N     split into N files without splitting lines/records
  l/K/N   output Kth of N to stdout without splitting lines/records
  r/N     like 'l' but use round robin distribution
  r/K/N   likewise but only output Kth of N to stdout
`}

// namer produces output file names with GNU's suffix rules, including
// widening the suffix when no length was given (xyz is followed by xzaaa).
type namer struct {
	prefix, extra string
	alphabet      string
	digits        []int
	auto          bool
	started       bool
}

func (n *namer) next() (string, bool) {
	if !n.started {
		n.started = true
	} else {
		i := len(n.digits) - 1
		for ; i >= 0; i-- {
			n.digits[i]++
			if n.auto && i == 0 && n.digits[0] == len(n.alphabet)-1 {
				n.prefix += n.alphabet[len(n.alphabet)-1:]
				n.digits = make([]int, len(n.digits)+1)
				break
			}
			if n.digits[i] < len(n.alphabet) {
				break
			}
			n.digits[i] = 0
		}
		if i < 0 {
			return "", false
		}
	}
	var b strings.Builder
	b.WriteString(n.prefix)
	for _, d := range n.digits {
		b.WriteByte(n.alphabet[d])
	}
	b.WriteString(n.extra)
	return b.String(), true
}

type splitter struct {
	env     *tool.Env
	names   *namer
	verbose bool
	cur     *os.File
	w       *bufio.Writer
	created int
}

func (s *splitter) open() error {
	if err := s.close(); err != nil {
		return err
	}
	name, ok := s.names.next()
	if !ok {
		return fmt.Errorf("output file suffixes exhausted")
	}
	if s.verbose {
		fmt.Fprintf(s.env.Out(), "creating file %s\n", tool.Quote(name))
	}
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
	}
	s.cur, s.w = f, bufio.NewWriterSize(f, 64<<10)
	s.created++
	return nil
}

func (s *splitter) close() error {
	if s.cur == nil {
		return nil
	}
	err := s.w.Flush()
	if cerr := s.cur.Close(); err == nil {
		err = cerr
	}
	name := s.cur.Name()
	s.cur = nil
	if err != nil {
		return fmt.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
	}
	return nil
}

// Main runs split.
func Main(env *tool.Env) int {
	// Obsolete -NUM means -l NUM.
	args := append([]string(nil), env.Args...)
	for i := 1; i < len(args); i++ {
		if args[i] == "--" {
			break
		}
		if a := args[i]; len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			args[i] = "-l" + a[1:]
		}
	}
	sub := *env
	sub.Args = args
	flags, ops, code, done := spec.Parse(&sub)
	if done {
		return code
	}
	mode, size := 'l', int64(1000)
	suffixLen, suffixSet := 2, false
	alphabet := "abcdefghijklmnopqrstuvwxyz"
	start := int64(0)
	extra := ""
	elide, verbose := false, false
	sep := byte('\n')
	var chunkK, chunkN int64
	chunkKind := byte(0)
	modes := 0
	for _, f := range flags {
		switch f.Name {
		case "a":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 0 {
				env.Errorf("%s: invalid suffix length", tool.Quote(f.Arg))
				return 1
			}
			suffixLen, suffixSet = n, true
		case "additional-suffix":
			if strings.Contains(f.Arg, "/") {
				env.Errorf("invalid suffix %s, contains directory separator", tool.Quote(f.Arg))
				return env.Usage(1, "")
			}
			extra = f.Arg
		case "b", "C", "l":
			v, ok := tool.ParseSize(f.Arg)
			if !ok || v == 0 {
				what := map[string]string{"b": "number of bytes", "C": "number of bytes", "l": "number of lines"}[f.Name]
				if ok {
					env.Errorf("invalid %s: %s: Numerical result out of range", what, tool.Quote(f.Arg))
					return 1
				}
				env.Errorf("invalid %s: %s", what, tool.Quote(f.Arg))
				return 1
			}
			mode, size = rune(f.Name[0]), v
			modes++
		case "d", "numeric-suffixes", "x", "hex-suffixes":
			alphabet = "0123456789"
			if f.Name == "x" || f.Name == "hex-suffixes" {
				alphabet = "0123456789abcdef"
			}
			if f.HasArg {
				v, err := strconv.ParseInt(f.Arg, 10, 64)
				if err != nil || v < 0 {
					env.Errorf("%s: invalid start value for numerical suffix", tool.Quote(f.Arg))
					return 1
				}
				start = v
			}
		case "e":
			elide = true
		case "n":
			mode = 'n'
			modes++
			parts := strings.Split(f.Arg, "/")
			if parts[0] == "l" || parts[0] == "r" {
				chunkKind = parts[0][0]
				parts = parts[1:]
			}
			var err error
			switch len(parts) {
			case 1:
				chunkN, err = strconv.ParseInt(parts[0], 10, 64)
			case 2:
				chunkK, err = strconv.ParseInt(parts[0], 10, 64)
				if err == nil {
					chunkN, err = strconv.ParseInt(parts[1], 10, 64)
				}
			default:
				err = fmt.Errorf("bad")
			}
			if err != nil || chunkN <= 0 || chunkK < 0 || chunkK > chunkN {
				env.Errorf("invalid number of chunks: %s", tool.Quote(f.Arg))
				return 1
			}
		case "t":
			switch {
			case f.Arg == `\0`:
				sep = 0
			case len(f.Arg) == 1:
				sep = f.Arg[0]
			case f.Arg == "":
				env.Errorf("empty record separator")
				return 1
			default:
				env.Errorf("multi-character separator %s", tool.Quote(f.Arg))
				return 1
			}
		case "verbose":
			verbose = true
		}
	}
	if modes > 1 {
		env.Errorf("cannot split in more than one way")
		return env.Usage(1, "")
	}
	if len(ops) > 2 {
		return env.Usage(1, "extra operand %s", tool.Quote(ops[2]))
	}
	in, prefix := "-", "x"
	if len(ops) > 0 {
		in = ops[0]
	}
	if len(ops) > 1 {
		prefix = ops[1]
	}
	if mode == 'n' && !suffixSet {
		// Enough digits to name every chunk.
		need := 1
		for v := int64(len(alphabet)); v < chunkN+start; v *= int64(len(alphabet)) {
			need++
		}
		suffixLen = max(suffixLen, need)
	}
	nm := &namer{prefix: prefix, extra: extra, alphabet: alphabet, digits: make([]int, suffixLen), auto: !suffixSet && mode != 'n' && start == 0}
	// Start value of numeric suffixes.
	for i, v := len(nm.digits)-1, start; v > 0; i-- {
		if i < 0 {
			env.Errorf("numerical suffix start value is too large for the suffix length")
			return 1
		}
		nm.digits[i] = int(v % int64(len(alphabet)))
		v /= int64(len(alphabet))
	}
	r, err := env.Open(in)
	if err != nil {
		env.Errorf("cannot open %s for reading: %s", tool.Quote(in), tool.Strerror(err))
		return 1
	}
	defer r.Close()
	s := &splitter{env: env, names: nm, verbose: verbose}
	if mode == 'n' {
		data, err := io.ReadAll(r)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(in), tool.Strerror(err))
			return 1
		}
		err = s.chunks(data, chunkKind, chunkK, chunkN, sep, elide)
		return s.finish(err)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	err = s.stream(br, mode, size, sep)
	return s.finish(err)
}

func (s *splitter) finish(err error) int {
	if cerr := s.close(); err == nil {
		err = cerr
	}
	if err != nil {
		if err == errWrite {
			return s.env.WriteFailed(err)
		}
		s.env.Errorf("%s", err)
		return 1
	}
	return 0
}

var errWrite = fmt.Errorf("write error")

// stream splits by lines (-l), bytes (-b) or whole lines up to a byte
// count (-C).
func (s *splitter) stream(br *bufio.Reader, mode rune, size int64, sep byte) error {
	var used int64 // of the current file
	switch mode {
	case 'b':
		buf := make([]byte, 64<<10)
		for {
			n, rerr := br.Read(buf)
			chunk := buf[:n]
			for len(chunk) > 0 {
				if s.cur == nil || used == size {
					if err := s.open(); err != nil {
						return err
					}
					used = 0
				}
				k := min(int64(len(chunk)), size-used)
				s.w.Write(chunk[:k])
				chunk = chunk[k:]
				used += k
			}
			if rerr == io.EOF {
				return nil
			}
			if rerr != nil {
				return rerr
			}
		}
	case 'l':
		for {
			line, err := br.ReadSlice(sep)
			if len(line) > 0 {
				if s.cur == nil || used == size {
					if err := s.open(); err != nil {
						return err
					}
					used = 0
				}
				s.w.Write(line)
				if err != bufio.ErrBufferFull {
					used++
				}
			}
			if err == io.EOF {
				return nil
			}
			if err != nil && err != bufio.ErrBufferFull {
				return err
			}
		}
	}
	// -C: whole records while they fit; a longer record is cut in size
	// pieces.
	data, err := io.ReadAll(br)
	if err != nil {
		return err
	}
	for len(data) > 0 {
		take := int64(len(data))
		if take > size {
			take = size
			if i := bytes.LastIndexByte(data[:size], sep); i >= 0 {
				take = int64(i + 1)
			}
		}
		if err := s.open(); err != nil {
			return err
		}
		s.w.Write(data[:take])
		data = data[take:]
	}
	return nil
}

// chunks implements -n.
func (s *splitter) chunks(data []byte, kind byte, k, n int64, sep byte, elide bool) error {
	total := int64(len(data))
	write := func(i int64, b []byte) error {
		if k > 0 {
			if i+1 == k {
				s.env.Out().Write(b)
			}
			return nil
		}
		if len(b) == 0 && elide {
			return nil
		}
		if err := s.open(); err != nil {
			return err
		}
		s.w.Write(b)
		return nil
	}
	switch kind {
	case 0:
		size := total / n
		for i := int64(0); i < n; i++ {
			end := (i + 1) * size
			if i == n-1 {
				end = total
			}
			if err := write(i, data[i*size:end]); err != nil {
				return err
			}
		}
	case 'l':
		size := total / n
		pos := int64(0)
		for i := int64(0); i < n; i++ {
			end := (i + 1) * size
			if i == n-1 {
				end = total
			}
			if end < pos {
				end = pos
			} else if end > pos && end < total {
				// Extend to the end of the record holding byte end-1.
				if j := bytes.IndexByte(data[end-1:], sep); j >= 0 {
					end = end - 1 + int64(j) + 1
				} else {
					end = total
				}
			}
			if err := write(i, data[pos:end]); err != nil {
				return err
			}
			pos = end
		}
	case 'r':
		bufs := make([][]byte, n)
		i := int64(0)
		for len(data) > 0 {
			j := bytes.IndexByte(data, sep)
			rec := data
			if j >= 0 {
				rec = data[:j+1]
			}
			bufs[i%n] = append(bufs[i%n], rec...)
			data = data[len(rec):]
			i++
		}
		for c := int64(0); c < n; c++ {
			if err := write(c, bufs[c]); err != nil {
				return err
			}
		}
	}
	return nil
}
