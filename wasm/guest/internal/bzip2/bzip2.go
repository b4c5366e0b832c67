// Package bzip2 is the bzip2, bunzip2 and bzcat commands: bzip2
// compression through github.com/dsnet/compress/bzip2, with bzip2 1.0.8's
// flags, file naming, messages and exit statuses (1 for a problem with
// the environment or the command line, 2 for a corrupt compressed file).
package bzip2

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	dbzip2 "github.com/dsnet/compress/bzip2"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const usage = `bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.

   usage: %s [flags and input files in any order]

   -h --help           print this message
   -d --decompress     force decompression
   -z --compress       force compression
   -k --keep           keep (don't delete) input files
   -f --force          overwrite existing output files
   -t --test           test compressed file integrity
   -c --stdout         output to standard out
   -q --quiet          suppress noncritical error messages
   -v --verbose        be verbose (a 2nd -v gives more)
   -L --license        display software version & license
   -V --version        display software version & license
   -s --small          use less memory (at most 2500k)
   -1 .. -9            set block size to 100k .. 900k
   --fast              alias for -1
   --best              alias for -9

   If invoked as ` + "`bzip2'" + `, default action is to compress.
              as ` + "`bunzip2'" + `,  default action is to decompress.
              as ` + "`bzcat'" + `, default action is to decompress to stdout.

   If no file names are given, bzip2 compresses or decompresses
   from standard input to standard output.  You can combine
   short flags, so ` + "`-v -4'" + ` means the same as -v4 or -4v, &c.

`

const recoverHint = "\nYou can use the `bzip2recover' program to attempt to recover\ndata from undamaged sections of corrupted files.\n\n"

const corruptHint = "\nIt is possible that the compressed file(s) have become corrupted.\n" +
	"You can use the -tvv option to test integrity of such files.\n" + recoverHint

type mode int

const (
	compress mode = iota
	decompress
	test
)

type cmd struct {
	env                 *tool.Env
	name                string
	mode                mode
	stdout, keep, force bool
	quiet               bool
	verbose             int
	level               int
	longest             int
	status              int
}

// Bzip2 runs bzip2.
func Bzip2(env *tool.Env) int { return run(env, compress, false) }

// Bunzip2 runs bunzip2 (bzip2 -d).
func Bunzip2(env *tool.Env) int { return run(env, decompress, false) }

// Bzcat runs bzcat (bzip2 -dc).
func Bzcat(env *tool.Env) int { return run(env, decompress, true) }

func run(env *tool.Env, m mode, stdout bool) int {
	c := &cmd{env: env, name: env.Name(), mode: m, stdout: stdout, level: 9}
	var files []string
	flagsDone := false
	// bzip2 reads BZIP2 and BZIP from the environment as flags first.
	var args []string
	for _, v := range []string{"BZIP2", "BZIP"} {
		args = append(args, strings.Fields(env.Env(v))...)
	}
	if len(env.Args) > 1 {
		args = append(args, env.Args[1:]...)
	}
	for _, a := range args {
		if a == "--" {
			flagsDone = true
			continue
		}
		if flagsDone || len(a) < 2 || a[0] != '-' {
			files = append(files, a)
			continue
		}
		if strings.HasPrefix(a, "--") {
			switch a {
			case "--stdout":
				c.stdout = true
			case "--decompress":
				c.mode = decompress
			case "--compress":
				c.mode = compress
			case "--force":
				c.force = true
			case "--test":
				c.mode = test
			case "--keep":
				c.keep = true
			case "--small", "--exponential", "--repetitive-fast", "--repetitive-best":
			case "--quiet":
				c.quiet = true
			case "--version", "--license":
				return env.PrintVersion()
			case "--verbose":
				c.verbose++
			case "--help":
				return c.help(0)
			case "--fast":
				c.level = 1
			case "--best":
				c.level = 9
			default:
				fmt.Fprintf(env.Stderr, "%s: Bad flag `%s'\n", c.name, a)
				return c.help(1)
			}
			continue
		}
		for _, f := range a[1:] {
			switch f {
			case 'c':
				c.stdout = true
			case 'd':
				c.mode = decompress
			case 'z':
				c.mode = compress
			case 'f':
				c.force = true
			case 't':
				c.mode = test
			case 'k':
				c.keep = true
			case 's':
			case 'q':
				c.quiet = true
			case 'L', 'V':
				return env.PrintVersion()
			case 'v':
				c.verbose++
			case 'h':
				return c.help(0)
			default:
				if f >= '1' && f <= '9' {
					c.level = int(f - '0')
					continue
				}
				fmt.Fprintf(env.Stderr, "%s: Bad flag `%s'\n", c.name, a)
				return c.help(1)
			}
		}
	}
	c.longest = len("(stdin)")
	for _, f := range files {
		c.longest = max(c.longest, len(f))
	}
	if len(files) == 0 {
		c.stdin()
	}
	for _, f := range files {
		c.file(f)
	}
	if err := env.Out().Flush(); err != nil {
		return env.WriteFailed(err)
	}
	return c.status
}

// help writes the usage to standard error, as bzip2 does.
func (c *cmd) help(code int) int {
	fmt.Fprintf(c.env.Stderr, usage, c.name)
	return code
}

func (c *cmd) fail(code int, format string, a ...any) {
	c.env.Out().Flush()
	fmt.Fprintf(c.env.Stderr, format, a...)
	c.status = max(c.status, code)
}

// verboseName starts a verbose line for name, padded as bzip2 pads it.
func (c *cmd) verboseName(name string) {
	pad := ""
	if n := c.longest - len(name); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(c.env.Stderr, "  %s: %s", name, pad)
}

var (
	errNotBzip2 = errors.New("not a bzip2 file")
	errEOF      = errors.New("compressed file ends unexpectedly")
	errCRC      = errors.New("data integrity error")
	errTrailing = errors.New("trailing garbage")
)

type writeErr struct{ err error }

func (e writeErr) Error() string { return e.err.Error() }

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil {
		err = writeErr{err}
	}
	return n, err
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// encode compresses r into w and returns the byte counts.
func (c *cmd) encode(w io.Writer, r io.Reader) (in, out int64, err error) {
	cw := &countWriter{w: w}
	zw, err := dbzip2.NewWriter(cw, &dbzip2.WriterConfig{Level: c.level})
	if err != nil {
		return 0, 0, err
	}
	in, err = io.Copy(zw, r)
	if err != nil {
		return in, cw.n, err
	}
	err = zw.Close()
	return in, cw.n, err
}

// decode decompresses every stream of r into w. A stream that does not
// start with bzip2's magic after the first is trailing garbage, reported
// as errTrailing once the data before it is out.
func (c *cmd) decode(w io.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(4)
	if len(head) == 0 {
		return errEOF
	}
	if len(head) < 4 || string(head[:3]) != "BZh" || head[3] < '1' || head[3] > '9' {
		return errNotBzip2
	}
	zr, err := dbzip2.NewReader(br, nil)
	if err != nil {
		return err
	}
	_, err = io.Copy(&countWriter{w: w}, zr)
	if err == nil {
		return nil
	}
	var we writeErr
	if errors.As(err, &we) {
		return err
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "unexpected EOF"):
		return errEOF
	case strings.Contains(msg, "invalid stream magic"), strings.Contains(msg, "invalid version"), strings.Contains(msg, "invalid block size"):
		// The first header was checked above: this is after a stream.
		return errTrailing
	}
	return errCRC
}

func (c *cmd) stdin() {
	switch c.mode {
	case compress:
		in, out, err := c.encode(c.env.Out(), c.env.Stdin)
		c.finishCompress("(stdin)", "(stdout)", in, out, err)
	case decompress:
		err := c.decode(c.env.Out(), c.env.Stdin)
		c.finishDecompress("(stdin)", "(stdout)", err)
	case test:
		err := c.decode(io.Discard, c.env.Stdin)
		c.finishTest("(stdin)", err)
	}
}

func (c *cmd) finishCompress(in, out string, nin, nout int64, err error) bool {
	if err != nil {
		c.ioError(in, out, err)
		return false
	}
	if c.verbose > 0 {
		c.verboseName(in)
		if nin == 0 {
			fmt.Fprintf(c.env.Stderr, " no data compressed.\n")
		} else {
			fin, fout := float64(nin), float64(nout)
			fmt.Fprintf(c.env.Stderr, "%6.3f:1, %6.3f bits/byte, %5.2f%% saved, %d in, %d out.\n",
				fin/fout, 8*fout/fin, 100*(1-fout/fin), nin, nout)
		}
	}
	return true
}

func (c *cmd) ioError(in, out string, err error) {
	var we writeErr
	if errors.As(err, &we) {
		c.fail(1, "%s: I/O or other error, bailing out.  Possible reason follows.\n%s: %s\n\tInput file = %s, output file = %s\n",
			c.name, c.name, tool.Strerror(we.err), in, out)
		return
	}
	c.fail(1, "%s: %s: %s\n", c.name, in, tool.Strerror(err))
}

// finishDecompress reports how decompressing in into out ended, and
// whether the output is good.
func (c *cmd) finishDecompress(in, out string, err error) bool {
	switch {
	case err == nil:
		if c.verbose > 0 {
			c.verboseName(in)
			fmt.Fprintf(c.env.Stderr, "done\n")
		}
		return true
	case errors.Is(err, errTrailing):
		if c.verbose > 0 {
			c.verboseName(in)
		}
		if !c.quiet {
			c.fail(0, "\n%s: %s: trailing garbage after EOF ignored\n", c.name, in)
		}
		return true
	case errors.Is(err, errNotBzip2):
		c.fail(2, "%s: %s is not a bzip2 file.\n", c.name, in)
	case errors.Is(err, errEOF):
		c.fail(2, "\n%s: Compressed file ends unexpectedly;\n\tperhaps it is corrupted?  *Possible* reason follows.\n%s: the input ended inside a stream\n\tInput file = %s, output file = %s\n"+corruptHint, c.name, c.name, in, out)
	case errors.Is(err, errCRC):
		c.fail(2, "\n%s: Data integrity error when decompressing.\n\tInput file = %s, output file = %s\n"+corruptHint, c.name, in, out)
	default:
		c.ioError(in, out, err)
	}
	return false
}

func (c *cmd) finishTest(in string, err error) {
	if c.verbose > 0 {
		c.verboseName(in)
	}
	switch {
	case err == nil:
		if c.verbose > 0 {
			fmt.Fprintf(c.env.Stderr, "ok\n")
		}
	case errors.Is(err, errTrailing):
		if c.verbose > 0 {
			fmt.Fprintf(c.env.Stderr, "trailing garbage after EOF ignored\nok\n")
		} else if !c.quiet {
			c.fail(0, "%s: %s: trailing garbage after EOF ignored\n", c.name, in)
		}
	case errors.Is(err, errNotBzip2):
		c.fail(2, "%s: %s: bad magic number (file not created by bzip2)\n"+recoverHint, c.name, in)
	case errors.Is(err, errEOF):
		c.fail(2, "%s: %s: file ends unexpectedly\n"+recoverHint, c.name, in)
	default:
		c.fail(2, "%s: %s: data integrity (CRC) error in data\n"+recoverHint, c.name, in)
	}
}

var compressedSuffixes = [][2]string{{".bz2", ""}, {".bz", ""}, {".tbz2", ".tar"}, {".tbz", ".tar"}}

func (c *cmd) file(name string) {
	fi, err := os.Lstat(name)
	if err != nil {
		if c.mode == test {
			c.fail(1, "%s: Can't open input %s: %s.\n", c.name, name, tool.Strerror(err))
		} else {
			c.fail(1, "%s: Can't open input file %s: %s.\n", c.name, name, tool.Strerror(err))
		}
		return
	}
	if fi.IsDir() {
		c.fail(1, "%s: Input file %s is a directory.\n", c.name, name)
		return
	}
	if c.mode != test && !c.stdout && !fi.Mode().IsRegular() && !(c.force && fi.Mode()&fs.ModeSymlink != 0) {
		c.fail(1, "%s: Input file %s is not a normal file.\n", c.name, name)
		return
	}
	out := ""
	if c.mode == compress && !c.stdout {
		for _, s := range compressedSuffixes {
			if strings.HasSuffix(name, s[0]) {
				if !c.quiet {
					c.fail(1, "%s: Input file %s already has %s suffix.\n", c.name, name, s[0])
				} else {
					c.status = max(c.status, 1)
				}
				return
			}
		}
		out = name + ".bz2"
	}
	if c.mode == decompress && !c.stdout {
		for _, s := range compressedSuffixes {
			if strings.HasSuffix(name, s[0]) {
				out = strings.TrimSuffix(name, s[0]) + s[1]
				break
			}
		}
		if out == "" {
			out = name + ".out"
			if !c.quiet {
				c.fail(0, "%s: Can't guess original name for %s -- using %s\n", c.name, name, out)
			}
		}
	}
	in, err := os.Open(name)
	if err != nil {
		c.fail(1, "%s: Can't open input file %s: %s.\n", c.name, name, tool.Strerror(err))
		return
	}
	defer in.Close()
	if c.mode == test {
		c.finishTest(name, c.decode(io.Discard, in))
		return
	}
	if out == "" {
		if c.mode == compress {
			cr := &countReader{r: in}
			nin, nout, err := c.encode(c.env.Out(), cr)
			c.finishCompress(name, "(stdout)", nin, nout, err)
		} else {
			c.finishDecompress(name, "(stdout)", c.decode(c.env.Out(), in))
		}
		return
	}
	if c.mode == decompress {
		// bzip2 checks the magic before it makes the output file.
		br := bufio.NewReaderSize(in, 64<<10)
		if head, _ := br.Peek(4); len(head) == 4 && (string(head[:3]) != "BZh" || head[3] < '1' || head[3] > '9') {
			c.finishDecompress(name, out, errNotBzip2)
			return
		}
		c.writeOut(name, out, fi, func(w io.Writer) bool {
			return c.finishDecompress(name, out, c.decode(w, br))
		})
		return
	}
	c.writeOut(name, out, fi, func(w io.Writer) bool {
		nin, nout, err := c.encode(w, in)
		return c.finishCompress(name, out, nin, nout, err)
	})
}

// writeOut makes out from in through fill, then gives out in's mode and
// times and removes in, as bzip2 does; a failed fill removes out.
func (c *cmd) writeOut(in, out string, fi fs.FileInfo, fill func(io.Writer) bool) {
	if _, err := os.Lstat(out); err == nil {
		if !c.force {
			c.fail(1, "%s: Output file %s already exists.\n", c.name, out)
			return
		}
		os.Remove(out)
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		c.fail(1, "%s: Can't create output file %s: %s.\n", c.name, out, tool.Strerror(err))
		return
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	ok := fill(bw)
	if ok {
		if err := bw.Flush(); err != nil {
			c.ioError(in, out, writeErr{err})
			ok = false
		}
	}
	if err := f.Close(); ok && err != nil {
		c.ioError(in, out, writeErr{err})
		ok = false
	}
	if !ok {
		os.Remove(out)
		if c.status == 2 {
			fmt.Fprintf(c.env.Stderr, "%s: Deleting output file %s, if it exists.\n", c.name, out)
		}
		return
	}
	os.Chmod(out, fi.Mode().Perm())
	os.Chtimes(out, fi.ModTime(), fi.ModTime())
	if !c.keep {
		os.Remove(in)
	}
}
