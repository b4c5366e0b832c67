// Package gzip is the gzip, gunzip and zcat commands with GNU gzip's
// options, file naming, messages and exit statuses (1 for an error, 2 for
// a warning). The deflate streams are github.com/klauspost/compress's,
// about twice as fast as compress/gzip's.
package gzip

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: %s [OPTION]... [FILE]...
Compress or uncompress FILEs (by default, compress FILES in-place).

Mandatory arguments to long options are mandatory for short options too.

  -c, --stdout      write on standard output, keep original files unchanged
  -d, --decompress  decompress
  -f, --force       force overwrite of output file and compress links
  -h, --help        give this help
  -k, --keep        keep (don't delete) input files
  -l, --list        list compressed file contents
  -n, --no-name     do not save or restore the original name and timestamp
  -N, --name        save or restore the original name and timestamp
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
  -S, --suffix=SUF  use suffix SUF on compressed files
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
  -V, --version     display version number
  -1, --fast        compress faster
  -9, --best        compress better

With no FILE, or when FILE is -, read standard input.
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "stdout"},
		{Long: "to-stdout"},
		{Short: 'd', Long: "decompress"},
		{Long: "uncompress"},
		{Short: 'f', Long: "force"},
		{Short: 'h', Long: "help"},
		{Short: 'k', Long: "keep"},
		{Short: 'l', Long: "list"},
		{Short: 'n', Long: "no-name"},
		{Short: 'N', Long: "name"},
		{Short: 'q', Long: "quiet"},
		{Short: 'r', Long: "recursive"},
		{Short: 'S', Long: "suffix", Arg: tool.RequiredArg},
		{Short: 't', Long: "test"},
		{Short: 'v', Long: "verbose"},
		{Short: 'V', Long: "version"},
		{Short: '1', Long: "fast"},
		{Short: '2'}, {Short: '3'}, {Short: '4'}, {Short: '5'},
		{Short: '6'}, {Short: '7'}, {Short: '8'},
		{Short: '9', Long: "best"},
	},
	UsageExit: 1,
}

type gz struct {
	env                     *tool.Env
	stdout, decompress      bool
	force, keep, list, test bool
	noName, quiet, verbose  bool
	recursive               bool
	level                   int
	suffix                  string
	status                  int
	listedHeader            bool
	totalIn, totalOut       int64
	listed                  int
}

// Main runs gzip.
func Main(env *tool.Env) int { return run(env, false, false) }

// Gunzip runs gunzip (gzip -d).
func Gunzip(env *tool.Env) int { return run(env, true, false) }

// Zcat runs zcat (gzip -dc).
func Zcat(env *tool.Env) int { return run(env, true, true) }

func run(env *tool.Env, decompress, toStdout bool) int {
	s := spec
	s.Help = fmt.Sprintf(help, env.Name())
	flags, operands, code, done := s.Parse(env)
	if done {
		return code
	}
	g := &gz{env: env, decompress: decompress, stdout: toStdout, level: 6, suffix: ".gz"}
	for _, f := range flags {
		switch f.Name {
		case "c", "to-stdout":
			g.stdout = true
		case "d", "uncompress":
			g.decompress = true
		case "f":
			g.force = true
		case "h":
			return env.Help(s.Help)
		case "k":
			g.keep = true
		case "l":
			g.list = true
		case "n":
			g.noName = true
		case "N":
			g.noName = false
		case "q":
			g.quiet, g.verbose = true, false
		case "r":
			g.recursive = true
		case "S":
			if f.Arg == "" {
				env.Errorf("invalid suffix ''")
				return 1
			}
			g.suffix = f.Arg
		case "t":
			g.test, g.decompress = true, true
		case "v":
			g.verbose, g.quiet = true, false
		case "V":
			return env.PrintVersion()
		default:
			if len(f.Name) == 1 && f.Name[0] >= '1' && f.Name[0] <= '9' {
				g.level = int(f.Name[0] - '0')
			}
		}
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	for _, op := range operands {
		if op == "-" {
			g.stdin()
			continue
		}
		g.file(op, false)
	}
	if g.list && g.listed > 1 {
		g.listLine(g.totalIn, g.totalOut, "(totals)")
	}
	g.env.Out().Flush()
	return g.status
}

// errorf reports an error; gunzip and zcat speak as gzip, as GNU's
// scripts of those names run gzip.
func (g *gz) errorf(format string, a ...any) {
	g.env.Out().Flush()
	fmt.Fprintf(g.env.Stderr, "gzip: %s\n", fmt.Sprintf(format, a...))
	g.status = 1
}

func (g *gz) warnf(format string, a ...any) {
	if !g.quiet {
		g.env.Out().Flush()
		fmt.Fprintf(g.env.Stderr, "gzip: %s\n", fmt.Sprintf(format, a...))
	}
	if g.status == 0 {
		g.status = 2
	}
}

// stdin filters standard input to standard output.
func (g *gz) stdin() {
	switch {
	case g.list:
		data, err := io.ReadAll(g.env.Stdin)
		if err != nil {
			g.errorf("stdin: %s", tool.Strerror(err))
			return
		}
		g.listData(data, "stdout")
	case g.decompress:
		var w io.Writer = g.env.Out()
		if g.test {
			w = io.Discard
		}
		if err := g.inflate(w, g.env.Stdin); err != nil {
			g.readError("stdin", err)
		}
	default:
		if err := g.deflate(g.env.Out(), g.env.Stdin, "", time.Time{}); err != nil {
			g.readError("stdin", err)
		}
	}
}

func (g *gz) readError(name string, err error) {
	var we writeErr
	if errors.As(err, &we) {
		if code := g.env.WriteFailed(we.err); code > g.status {
			g.status = code
		}
		return
	}
	switch {
	case errors.Is(err, gzip.ErrHeader):
		if g.stdout {
			// GNU gzip starts this message with an empty line.
			g.env.Out().Flush()
			io.WriteString(g.env.Stderr, "\n")
		}
		g.errorf("%s: not in gzip format", name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		g.errorf("%s: unexpected end of file", name)
	case errors.Is(err, gzip.ErrChecksum):
		g.errorf("%s: invalid compressed data--crc error", name)
	case errors.Is(err, errTrailing):
		g.warnf("%s: decompression OK, trailing garbage ignored", name)
	default:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			g.errorf("%s: %s", pe.Path, tool.Strerror(pe.Err))
			return
		}
		if strings.HasPrefix(err.Error(), "flate:") {
			g.errorf("%s: invalid compressed data--format violated", name)
			return
		}
		g.errorf("%s: %s", name, tool.Strerror(err))
	}
}

type writeErr struct{ err error }

func (e writeErr) Error() string { return e.err.Error() }

// errorWriter marks write errors so they are told from read errors.
type errorWriter struct{ w io.Writer }

func (e errorWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil {
		err = writeErr{err}
	}
	return n, err
}

var errTrailing = errors.New("trailing garbage")

// inflate decompresses every gzip member of r into w.
func (g *gz) inflate(w io.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && (magic[0] != 0x1f || magic[1] != 0x8b) {
		return gzip.ErrHeader
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	zr.Multistream(false)
	for {
		if _, err := io.Copy(errorWriter{w}, zr); err != nil {
			return err
		}
		// Another member may follow; anything else is trailing garbage,
		// except zero padding as tape writers add.
		magic, _ := br.Peek(2)
		if len(magic) == 0 {
			return nil
		}
		if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
			rest, _ := io.ReadAll(br)
			for _, c := range rest {
				if c != 0 {
					return errTrailing
				}
			}
			return nil
		}
		if err := zr.Reset(br); err != nil {
			return err
		}
		zr.Multistream(false)
	}
}

// deflate compresses r into w as one gzip member.
func (g *gz) deflate(w io.Writer, r io.Reader, name string, mtime time.Time) error {
	zw, err := gzip.NewWriterLevel(errorWriter{w}, g.level)
	if err != nil {
		return err
	}
	if !g.noName {
		zw.Name = name
		zw.ModTime = mtime
	}
	if _, err := io.Copy(zw, r); err != nil {
		return err
	}
	return zw.Close()
}

// file compresses, decompresses, tests or lists one named file.
func (g *gz) file(name string, inDir bool) {
	fi, err := os.Lstat(name)
	if err != nil {
		g.errorf("%s: %s", name, tool.Strerror(err))
		return
	}
	if fi.Mode()&fs.ModeSymlink != 0 && !g.force && !g.stdout {
		g.warnf("%s: Too many levels of symbolic links", name)
		return
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if fi, err = os.Stat(name); err != nil {
			g.errorf("%s: %s", name, tool.Strerror(err))
			return
		}
	}
	if fi.IsDir() {
		if !g.recursive {
			g.warnf("%s is a directory -- ignored", name)
			return
		}
		entries, err := os.ReadDir(name)
		if err != nil {
			g.errorf("%s: %s", name, tool.Strerror(err))
			return
		}
		for _, e := range entries {
			g.file(filepath.Join(name, e.Name()), true)
		}
		return
	}
	if !fi.Mode().IsRegular() && !g.stdout {
		g.warnf("%s is not a directory or a regular file - ignored", name)
		return
	}
	switch {
	case g.list:
		data, err := os.ReadFile(name)
		if err != nil {
			g.errorf("%s: %s", name, tool.Strerror(err))
			return
		}
		g.listData(data, strings.TrimSuffix(name, g.suffix))
	case g.decompress:
		g.decompressFile(name, fi, inDir)
	default:
		g.compressFile(name, fi, inDir)
	}
}

func (g *gz) compressFile(name string, fi fs.FileInfo, inDir bool) {
	if strings.HasSuffix(name, g.suffix) && !g.stdout {
		if !inDir && !g.quiet {
			// A notice only: GNU gzip's status stays 0.
			g.env.Out().Flush()
			fmt.Fprintf(g.env.Stderr, "gzip: %s already has %s suffix -- unchanged\n", name, g.suffix)
		}
		return
	}
	in, err := os.Open(name)
	if err != nil {
		g.errorf("%s: %s", name, tool.Strerror(err))
		return
	}
	defer in.Close()
	base := filepath.Base(name)
	if g.stdout {
		if err := g.deflate(g.env.Out(), in, base, fi.ModTime()); err != nil {
			g.readError(name, err)
		}
		return
	}
	out := name + g.suffix
	g.writeFile(name, out, fi, func(w io.Writer) error {
		return g.deflate(w, in, base, fi.ModTime())
	}, func() {
		if g.verbose {
			if st, err := os.Stat(out); err == nil {
				fmt.Fprintf(g.env.Stderr, "%s:\t%s -- replaced with %s\n", name, ratio(fi.Size(), st.Size()), out)
			}
		}
	})
}

func (g *gz) decompressFile(name string, fi fs.FileInfo, inDir bool) {
	out, ok := g.outName(name)
	if !ok && !g.stdout && !g.test {
		if !inDir {
			g.warnf("%s: unknown suffix -- ignored", name)
		}
		return
	}
	in, err := os.Open(name)
	if err != nil {
		g.errorf("%s: %s", name, tool.Strerror(err))
		return
	}
	defer in.Close()
	if g.test {
		if err := g.inflate(io.Discard, in); err != nil {
			g.readError(name, err)
		} else if g.verbose {
			fmt.Fprintf(g.env.Stderr, "%s:\t OK\n", name)
		}
		return
	}
	if g.stdout {
		if err := g.inflate(g.env.Out(), in); err != nil {
			g.readError(name, err)
		}
		return
	}
	g.writeFile(name, out, fi, func(w io.Writer) error {
		return g.inflate(w, in)
	}, func() {
		if g.verbose {
			if st, err := os.Stat(out); err == nil {
				fmt.Fprintf(g.env.Stderr, "%s:\t%s -- replaced with %s\n", name, ratio(st.Size(), fi.Size()), out)
			}
		}
	})
}

// outName is the decompressed name of a compressed file name.
func (g *gz) outName(name string) (string, bool) {
	base := filepath.Base(name)
	for _, suf := range []string{g.suffix, ".gz", "-gz", ".z", "-z", "_z", ".Z"} {
		if strings.HasSuffix(base, suf) && len(base) > len(suf) {
			return strings.TrimSuffix(name, suf), true
		}
	}
	if strings.HasSuffix(base, ".tgz") && len(base) > 4 {
		return strings.TrimSuffix(name, ".tgz") + ".tar", true
	}
	return "", false
}

// writeFile writes out through fill, then gives it in's times and mode and
// removes in (unless -k). A failed write removes the partial output.
func (g *gz) writeFile(in, out string, fi fs.FileInfo, fill func(io.Writer) error, done func()) {
	if _, err := os.Lstat(out); err == nil {
		if !g.force {
			g.warnf("%s already exists;\tnot overwritten", out)
			return
		}
		os.Remove(out)
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		g.errorf("%s: %s", out, tool.Strerror(err))
		return
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = fill(bw)
	if err == nil || errors.Is(err, errTrailing) {
		if ferr := bw.Flush(); ferr != nil {
			err = writeErr{ferr}
		}
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = writeErr{cerr}
	}
	if err != nil && !errors.Is(err, errTrailing) {
		os.Remove(out)
		var we writeErr
		if errors.As(err, &we) {
			g.errorf("%s: %s", out, tool.Strerror(we.err))
			return
		}
		g.readError(in, err)
		return
	}
	if err != nil {
		g.readError(in, err)
	}
	if perm, perr := fsx.Perm(in, true); perr == nil {
		fsx.Chmod(out, perm, true)
	}
	os.Chtimes(out, fi.ModTime(), fi.ModTime())
	done()
	if !g.keep {
		if err := os.Remove(in); err != nil {
			g.errorf("%s: %s", in, tool.Strerror(err))
		}
	}
}

func ratio(orig, comp int64) string {
	if orig == 0 {
		return "  0.0%"
	}
	return fmt.Sprintf("%5.1f%%", 100*float64(orig-comp)/float64(orig))
}

// listData prints gzip -l's line for one compressed file: sizes from the
// trailer of the last member, as GNU gzip does.
func (g *gz) listData(data []byte, name string) {
	if len(data) < 18 || data[0] != 0x1f || data[1] != 0x8b {
		g.errorf("%s: not in gzip format", name)
		return
	}
	comp := int64(len(data))
	isize := int64(uint32(data[len(data)-4]) | uint32(data[len(data)-3])<<8 | uint32(data[len(data)-2])<<16 | uint32(data[len(data)-1])<<24)
	if !g.listedHeader {
		g.listedHeader = true
		if g.verbose {
			fmt.Fprintf(g.env.Out(), "method  crc     date  time  ")
		}
		fmt.Fprintf(g.env.Out(), "         compressed        uncompressed  ratio uncompressed_name\n")
	}
	if g.verbose {
		crc := uint32(data[len(data)-8]) | uint32(data[len(data)-7])<<8 | uint32(data[len(data)-6])<<16 | uint32(data[len(data)-5])<<24
		mt := time.Unix(int64(uint32(data[4])|uint32(data[5])<<8|uint32(data[6])<<16|uint32(data[7])<<24), 0).UTC()
		fmt.Fprintf(g.env.Out(), "defla %08x %s ", crc, mt.Format("Jan _2 15:04"))
	}
	fmt.Fprintf(g.env.Out(), "%19d %19d %s %s\n", comp, isize, ratio(isize, comp-overhead(data)), name)
	g.totalIn += comp
	g.totalOut += isize
	g.listed++
}

// listLine prints sizes and the ratio GNU gzip shows: the compressed
// data without header and trailer against the original size.
func (g *gz) listLine(comp, orig int64, name string) {
	fmt.Fprintf(g.env.Out(), "%19d %19d %s %s\n", comp, orig, ratio(orig, comp), name)
}

// overhead is the size of a gzip member's header and trailer.
func overhead(data []byte) int64 {
	n := int64(10)
	flags := data[3]
	if flags&0x04 != 0 && len(data) >= 12 { // FEXTRA
		n += 2 + int64(data[10]) | int64(data[11])<<8
	}
	for _, bit := range []byte{0x08, 0x10} { // FNAME, FCOMMENT
		if flags&bit != 0 {
			for n < int64(len(data)) && data[n] != 0 {
				n++
			}
			n++
		}
	}
	if flags&0x02 != 0 { // FHCRC
		n += 2
	}
	return n + 8
}
