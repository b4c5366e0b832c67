// Package cat implements cat: concatenate files to standard output, with
// GNU's numbering and visibility options.
package cat

import (
	"bufio"
	"io"
	"os"
	"strconv"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'A', Long: "show-all"},
		{Short: 'b', Long: "number-nonblank"},
		{Short: 'e'},
		{Short: 'E', Long: "show-ends"},
		{Short: 'n', Long: "number"},
		{Short: 's', Long: "squeeze-blank"},
		{Short: 't'},
		{Short: 'T', Long: "show-tabs"},
		{Short: 'u'},
		{Short: 'v', Long: "show-nonprinting"},
	},
	Help: `Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -u                       (ignored)
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
      --help        display this help and exit
      --version     output version information and exit
`}

// options are cat's formatting switches; the zero value copies verbatim.
type options struct {
	number, nonblank, ends, squeeze, tabs, nonprinting bool
}

// state carries formatting across files, as GNU cat does.
type state struct {
	line    int
	atStart bool
	blanks  int
}

// Main runs cat.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	var o options
	for _, f := range flags {
		switch f.Name {
		case "A":
			o.nonprinting, o.ends, o.tabs = true, true, true
		case "b":
			o.nonblank = true
		case "e":
			o.nonprinting, o.ends = true, true
		case "E":
			o.ends = true
		case "n":
			o.number = true
		case "s":
			o.squeeze = true
		case "t":
			o.nonprinting, o.tabs = true, true
		case "T":
			o.tabs = true
		case "v":
			o.nonprinting = true
		}
	}
	if o.nonblank {
		o.number = false
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := env.Out()
	st := state{atStart: true}
	status := 0
	buf := make([]byte, 64<<10)
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			status = 1
			continue
		}
		if o == (options{}) {
			err = copyPlain(out, r, buf)
		} else {
			err = o.copy(out, r, buf, &st)
		}
		isDir := false
		if f, ok := r.(*os.File); ok && err != nil {
			// WASI answers a read of a directory with ENOTCAPABLE.
			if fi, serr := f.Stat(); serr == nil && fi.IsDir() {
				isDir = true
			}
		}
		r.Close()
		if err != nil {
			if we, ok := err.(writeError); ok {
				return env.WriteFailed(we.err)
			}
			msg := tool.Strerror(err)
			if isDir {
				msg = "Is a directory"
			}
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), msg)
			status = 1
		}
	}
	return status
}

// writeError marks a failure to write, as opposed to one to read.
type writeError struct{ err error }

func (w writeError) Error() string { return w.err.Error() }

func copyPlain(out *bufio.Writer, r io.Reader, buf []byte) error {
	for {
		n, err := r.Read(buf)
		if n > 0 {
			// Like GNU cat, pass each read on at once: a reader at the
			// other end of a pipe (a coprocess, tail -f) must not wait for
			// a full buffer.
			if _, werr := out.Write(buf[:n]); werr != nil {
				return writeError{werr}
			}
			if werr := out.Flush(); werr != nil {
				return writeError{werr}
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

func (o *options) copy(out *bufio.Writer, r io.Reader, buf []byte, st *state) error {
	var num [32]byte
	for {
		n, err := r.Read(buf)
		for _, c := range buf[:n] {
			if st.atStart {
				if c == '\n' {
					st.blanks++
					if o.squeeze && st.blanks > 1 {
						continue
					}
				} else {
					st.blanks = 0
				}
				if o.number || o.nonblank && c != '\n' {
					st.line++
					b := strconv.AppendInt(num[:0], int64(st.line), 10)
					for i := len(b); i < 6; i++ {
						out.WriteByte(' ')
					}
					out.Write(b)
					out.WriteByte('\t')
				}
				st.atStart = false
			}
			switch {
			case c == '\n':
				if o.ends {
					out.WriteByte('$')
				}
				st.atStart = true
				out.WriteByte('\n')
			case c == '\t':
				if o.tabs {
					out.WriteString("^I")
				} else {
					out.WriteByte('\t')
				}
			case o.nonprinting:
				writeVisible(out, c)
			default:
				out.WriteByte(c)
			}
		}
		if n > 0 {
			if werr := out.Flush(); werr != nil {
				return writeError{werr}
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

// writeVisible writes c in cat -v notation: ^X for controls, M- for bytes
// with the high bit set.
func writeVisible(out *bufio.Writer, c byte) {
	if c >= 128 {
		out.WriteString("M-")
		c -= 128
	}
	switch {
	case c < 32:
		out.WriteByte('^')
		out.WriteByte(c + 64)
	case c == 127:
		out.WriteString("^?")
	default:
		out.WriteByte(c)
	}
}
