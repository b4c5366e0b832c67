// Package xz is the xz, unxz, xzcat, lzma, unlzma and lzcat commands of XZ
// Utils: .xz and legacy .lzma compression through
// github.com/ulikunitz/xz, with xz's options, file naming, messages and
// exit statuses (1 for an error, 2 for a warning).
package xz

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: %s [OPTION]... [FILE]...
Compress or decompress FILEs in the .xz format.

  -z, --compress      force compression
  -d, --decompress    force decompression
  -t, --test          test compressed file integrity
  -l, --list          list information about .xz files
  -k, --keep          keep (don't delete) input files
  -f, --force         force overwrite of output file and (de)compress links
  -c, --stdout        write to standard output and don't delete input files
  -0 ... -9           compression preset; default is 6; take compressor *and*
                      decompressor memory usage into account before using 7-9!
  -e, --extreme       try to improve compression ratio by using more CPU time;
                      does not affect decompressor memory requirements
  -T, --threads=NUM   use at most NUM threads; the default is 1; set to 0
                      to use as many threads as there are processor cores
  -q, --quiet         suppress warnings; specify twice to suppress errors too
  -v, --verbose       be verbose; specify twice for even more verbose
  -h, --help          display this short help and exit
  -H, --long-help     display the long help (lists also the advanced options)
  -V, --version       display the version number and exit

With no FILE, or when FILE is -, read standard input.
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'z', Long: "compress"},
		{Short: 'd', Long: "decompress"},
		{Long: "uncompress"},
		{Short: 't', Long: "test"},
		{Short: 'l', Long: "list"},
		{Short: 'k', Long: "keep"},
		{Short: 'f', Long: "force"},
		{Short: 'c', Long: "stdout"},
		{Long: "to-stdout"},
		{Short: 'S', Long: "suffix", Arg: tool.RequiredArg},
		{Short: 'F', Long: "format", Arg: tool.RequiredArg},
		{Short: 'C', Long: "check", Arg: tool.RequiredArg},
		{Short: 'e', Long: "extreme"},
		{Short: 'T', Long: "threads", Arg: tool.RequiredArg},
		{Short: 'M', Long: "memlimit", Arg: tool.RequiredArg},
		{Long: "memory", Arg: tool.RequiredArg},
		{Long: "single-stream"},
		{Long: "no-sparse"},
		{Long: "ignore-check"},
		{Short: 'q', Long: "quiet"},
		{Short: 'v', Long: "verbose"},
		{Short: 'Q', Long: "no-warn"},
		{Short: 'h', Long: "help"},
		{Short: 'H', Long: "long-help"},
		{Short: 'V', Long: "version"},
		{Short: '0'}, {Short: '1'}, {Short: '2'}, {Short: '3'}, {Short: '4'},
		{Short: '5'}, {Short: '6'}, {Short: '7'}, {Short: '8'}, {Short: '9'},
		{Long: "fast"}, {Long: "best"},
	},
	UsageExit: 1,
}

// format is a container format.
type format int

const (
	formatAuto format = iota
	formatXZ
	formatLZMA
)

// dictSizes are the dictionary sizes of presets 0 to 9, as in xz(1).
var dictSizes = [10]int{256 << 10, 1 << 20, 2 << 20, 4 << 20, 4 << 20, 8 << 20, 8 << 20, 16 << 20, 32 << 20, 64 << 20}

type cmd struct {
	env                       *tool.Env
	name                      string
	decompress, test, stdout  bool
	keep, force, noWarn       bool
	singleStream, ignoreCheck bool
	quiet                     int
	format                    format
	check                     byte
	level                     int
	suffix                    string
	status                    int
}

// Xz runs xz.
func Xz(env *tool.Env) int { return run(env, formatAuto, false, false) }

// Unxz runs unxz (xz -d).
func Unxz(env *tool.Env) int { return run(env, formatAuto, true, false) }

// Xzcat runs xzcat (xz -dc).
func Xzcat(env *tool.Env) int { return run(env, formatAuto, true, true) }

// Lzma runs lzma (xz --format=lzma).
func Lzma(env *tool.Env) int { return run(env, formatLZMA, false, false) }

// Unlzma runs unlzma (xz --format=lzma -d).
func Unlzma(env *tool.Env) int { return run(env, formatLZMA, true, false) }

// Lzcat runs lzcat (xz --format=lzma -dc).
func Lzcat(env *tool.Env) int { return run(env, formatLZMA, true, true) }

func run(env *tool.Env, f format, decompress, stdout bool) int {
	s := spec
	s.Help = fmt.Sprintf(help, env.Name())
	flags, operands, code, done := s.Parse(env)
	if done {
		return code
	}
	c := &cmd{env: env, name: env.Name(), decompress: decompress, stdout: stdout, format: f, level: 6, check: xz.CRC64}
	list := false
	for _, fl := range flags {
		switch fl.Name {
		case "z":
			c.decompress, c.test = false, false
		case "d", "uncompress":
			c.decompress = true
		case "t":
			c.decompress, c.test = true, true
		case "l":
			list = true
		case "k":
			c.keep = true
		case "f":
			c.force = true
		case "c", "to-stdout":
			c.stdout = true
		case "S":
			if fl.Arg == "" || strings.Contains(fl.Arg, "/") {
				env.Errorf("%s: Invalid filename suffix", fl.Arg)
				return 1
			}
			c.suffix = fl.Arg
		case "F":
			switch fl.Arg {
			case "auto":
				c.format = formatAuto
			case "xz":
				c.format = formatXZ
			case "lzma", "alone":
				c.format = formatLZMA
			case "raw":
				env.Errorf("The raw format is not supported here; use --format=xz or --format=lzma")
				return 1
			default:
				env.Errorf("%s: Unknown file format type", fl.Arg)
				return 1
			}
		case "C":
			switch fl.Arg {
			case "none":
				c.check = xz.None
			case "crc32":
				c.check = xz.CRC32
			case "crc64":
				c.check = xz.CRC64
			case "sha256":
				c.check = xz.SHA256
			default:
				env.Errorf("%s: Unsupported integrity check type", fl.Arg)
				return 1
			}
		case "T", "M", "memory":
			// One thread always, and the sandbox's own memory cap.
			if fl.Name == "T" {
				if _, err := strconv.ParseUint(fl.Arg, 10, 32); err != nil {
					env.Errorf("%s: Value is not a non-negative decimal integer", fl.Arg)
					return 1
				}
			}
		case "single-stream":
			c.singleStream = true
		case "ignore-check":
			c.ignoreCheck = true
		case "q":
			c.quiet++
		case "Q":
			c.noWarn = true
		case "h", "H":
			return env.Help(s.Help)
		case "V":
			return env.PrintVersion()
		case "fast":
			c.level = 0
		case "best":
			c.level = 9
		case "e", "v", "no-sparse":
		default:
			if len(fl.Name) == 1 && fl.Name[0] >= '0' && fl.Name[0] <= '9' {
				c.level = int(fl.Name[0] - '0')
			}
		}
	}
	if list {
		env.Errorf("--list is not supported in this sandbox; xz -dc FILE | wc -c gives the uncompressed size")
		return 1
	}
	if c.test {
		c.stdout = false
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	for _, op := range operands {
		if op == "-" {
			c.stdin()
		} else {
			c.file(op)
		}
	}
	if err := env.Out().Flush(); err != nil {
		return env.WriteFailed(err)
	}
	if c.status == 2 && c.noWarn {
		return 0
	}
	return c.status
}

func (c *cmd) errorf(format string, a ...any) {
	if c.quiet < 2 {
		c.env.Out().Flush()
		fmt.Fprintf(c.env.Stderr, "%s: %s\n", c.name, fmt.Sprintf(format, a...))
	}
	c.status = 1
}

func (c *cmd) warnf(format string, a ...any) {
	if c.quiet < 1 {
		c.env.Out().Flush()
		fmt.Fprintf(c.env.Stderr, "%s: %s\n", c.name, fmt.Sprintf(format, a...))
	}
	if c.status == 0 {
		c.status = 2
	}
}

var (
	errFormat  = errors.New("File format not recognized")
	errEOF     = errors.New("Unexpected end of input")
	errCorrupt = errors.New("Compressed data is corrupt")
)

// writeErr marks a failed write, told apart from a read error.
type writeErr struct{ err error }

func (e writeErr) Error() string { return e.err.Error() }

type errorWriter struct{ w io.Writer }

func (e errorWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil {
		err = writeErr{err}
	}
	return n, err
}

// report reports err from (de)compressing the input called name.
func (c *cmd) report(name string, err error) {
	var we writeErr
	if errors.As(err, &we) {
		c.errorf("%s", tool.Strerror(we.err))
		return
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		c.errorf("%s: %s", name, tool.Strerror(pe.Err))
		return
	}
	c.errorf("%s: %s", name, err.Error())
}

func (c *cmd) stdin() {
	var w io.Writer = c.env.Out()
	if c.test {
		w = io.Discard
	}
	if err := c.filter(w, c.env.Stdin); err != nil {
		c.report("(stdin)", err)
	}
}

// filter compresses or decompresses r into w.
func (c *cmd) filter(w io.Writer, r io.Reader) error {
	if c.decompress {
		return c.decode(errorWriter{w}, r)
	}
	return c.encode(errorWriter{w}, r)
}

func (c *cmd) encode(w io.Writer, r io.Reader) error {
	dict := dictSizes[c.level]
	var zw io.WriteCloser
	var err error
	if c.format == formatLZMA {
		zw, err = lzma.WriterConfig{DictCap: dict, EOSMarker: true}.NewWriter(w)
	} else {
		zw, err = xz.WriterConfig{DictCap: dict, CheckSum: c.check, NoCheckSum: c.check == xz.None}.NewWriter(w)
	}
	if err != nil {
		return err
	}
	if _, err := io.Copy(zw, r); err != nil {
		return err
	}
	return zw.Close()
}

var xzMagic = []byte{0xfd, '7', 'z', 'X', 'Z', 0}

// isLZMA says whether head starts a legacy .lzma header as liblzma's
// alone decoder accepts it: valid properties, a dictionary size of 2^n or
// 2^n + 2^(n-1), and an unknown or plausible uncompressed size.
func isLZMA(head []byte) bool {
	if len(head) < 13 || head[0] > 4*9*5+4*9+8 {
		return false
	}
	d := binary.LittleEndian.Uint32(head[1:5])
	if d != 0xffffffff {
		ok := false
		for n := 12; n < 32 && !ok; n++ {
			ok = d == 1<<n || (n > 0 && d == 1<<n+1<<(n-1))
		}
		if !ok && d != 0 {
			return false
		}
	}
	size := binary.LittleEndian.Uint64(head[5:13])
	return size == ^uint64(0) || size < 1<<38
}

// detect names the format of the stream head starts, or errFormat.
func (c *cmd) detect(head []byte) (format, error) {
	if c.format != formatLZMA && len(head) >= 6 && string(head[:6]) == string(xzMagic) {
		return formatXZ, nil
	}
	if c.format != formatXZ && isLZMA(head) {
		return formatLZMA, nil
	}
	return formatAuto, errFormat
}

func (c *cmd) decode(w io.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(13)
	f, err := c.detect(head)
	if err != nil {
		if c.force && c.stdout && !c.test {
			// xz -dcf passes what it does not recognise through, as cat.
			_, err := io.Copy(w, br)
			return err
		}
		return err
	}
	var zr io.Reader
	if f == formatXZ {
		zr, err = xz.ReaderConfig{SingleStream: c.singleStream}.NewReader(br)
	} else {
		zr, err = lzma.NewReader(br)
	}
	if err != nil {
		return classify(err)
	}
	if _, err := io.Copy(w, zr); err != nil {
		if c.singleStream && strings.Contains(err.Error(), "unexpected data after stream") {
			return nil // --single-stream ignores what follows the first stream
		}
		return classify(err)
	}
	return nil
}

// classify turns a decoder's error into xz's wording.
func classify(err error) error {
	var we writeErr
	if errors.As(err, &we) {
		return err
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || strings.Contains(err.Error(), "unexpected EOF") {
		return errEOF
	}
	return errCorrupt
}

// suffixes are the suffixes a compressed file may carry and what replaces
// them when it is decompressed.
func (c *cmd) suffixes() [][2]string {
	var s [][2]string
	if c.suffix != "" {
		s = append(s, [2]string{c.suffix, ""})
	}
	if c.format != formatLZMA {
		s = append(s, [2]string{".xz", ""}, [2]string{".txz", ".tar"})
	}
	if c.format != formatXZ {
		s = append(s, [2]string{".lzma", ""}, [2]string{".tlz", ".tar"})
	}
	return s
}

func (c *cmd) compressSuffix() string {
	if c.suffix != "" {
		return c.suffix
	}
	if c.format == formatLZMA {
		return ".lzma"
	}
	return ".xz"
}

func (c *cmd) file(name string) {
	fi, err := os.Lstat(name)
	if err != nil {
		c.errorf("%s: %s", name, tool.Strerror(err))
		return
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if !c.force && !c.stdout {
			c.warnf("%s: Is a symbolic link, skipping", name)
			return
		}
		if fi, err = os.Stat(name); err != nil {
			c.errorf("%s: %s", name, tool.Strerror(err))
			return
		}
	}
	if fi.IsDir() {
		c.warnf("%s: Is a directory, skipping", name)
		return
	}
	if !fi.Mode().IsRegular() && !c.stdout && !c.test {
		c.warnf("%s: Not a regular file, skipping", name)
		return
	}
	out := ""
	if !c.stdout && !c.test {
		if c.decompress {
			for _, s := range c.suffixes() {
				if strings.HasSuffix(name, s[0]) && len(name) > len(s[0]) {
					out = strings.TrimSuffix(name, s[0]) + s[1]
					break
				}
			}
		} else {
			for _, s := range c.suffixes() {
				if strings.HasSuffix(name, s[0]) {
					c.warnf("%s: File already has `%s' suffix, skipping", name, s[0])
					return
				}
			}
			out = name + c.compressSuffix()
		}
	}
	in, err := os.Open(name)
	if err != nil {
		c.errorf("%s: %s", name, tool.Strerror(err))
		return
	}
	defer in.Close()
	if c.stdout || c.test {
		var w io.Writer = c.env.Out()
		if c.test {
			w = io.Discard
		}
		if err := c.filter(w, in); err != nil {
			c.report(name, err)
		}
		return
	}
	var src io.Reader = in
	if c.decompress {
		// The format is checked before the name, as xz does.
		br := bufio.NewReaderSize(in, 64<<10)
		head, _ := br.Peek(13)
		if _, err := c.detect(head); err != nil {
			c.report(name, err)
			return
		}
		if out == "" {
			c.warnf("%s: Filename has an unknown suffix, skipping", name)
			return
		}
		src = br
	}
	if _, err := os.Lstat(out); err == nil {
		if !c.force {
			c.errorf("%s: File exists", out)
			return
		}
		if err := os.Remove(out); err != nil {
			c.errorf("%s: Cannot remove: %s", out, tool.Strerror(err))
			return
		}
	}
	of, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		c.errorf("%s: %s", out, tool.Strerror(err))
		return
	}
	bw := bufio.NewWriterSize(of, 64<<10)
	err = c.filter(bw, src)
	if err == nil {
		if ferr := bw.Flush(); ferr != nil {
			err = writeErr{ferr}
		}
	}
	if cerr := of.Close(); err == nil && cerr != nil {
		err = writeErr{cerr}
	}
	if err != nil {
		os.Remove(out)
		c.report(name, err)
		return
	}
	os.Chmod(out, fi.Mode().Perm())
	os.Chtimes(out, fi.ModTime(), fi.ModTime())
	if !c.keep {
		if err := os.Remove(name); err != nil {
			c.errorf("%s: Cannot remove: %s", name, tool.Strerror(err))
		}
	}
}
