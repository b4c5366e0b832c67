// Package paste implements paste: merge lines of files side by side, or
// each file's lines into one (-s).
package paste

import (
	"bufio"
	"bytes"
	"io"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'd', Long: "delimiters", Arg: tool.RequiredArg},
		{Short: 's', Long: "serial"},
		{Short: 'z', Long: "zero-terminated"},
	},
	Help: `Usage: paste [OPTION]... [FILE]...
Write lines consisting of the sequentially corresponding lines from
each FILE, separated by TABs, to standard output.

With no FILE, or when FILE is -, read standard input.

  -d, --delimiters=LIST   reuse characters from LIST instead of TABs
  -s, --serial            paste one file at a time instead of in parallel
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`}

// parseDelims expands the escapes of a -d list; "\0" is an empty
// delimiter.
func parseDelims(s string) ([][]byte, bool) {
	var out [][]byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, []byte{c})
			continue
		}
		i++
		if i == len(s) {
			return nil, false
		}
		switch s[i] {
		case 'n':
			out = append(out, []byte{'\n'})
		case 't':
			out = append(out, []byte{'\t'})
		case 'b':
			out = append(out, []byte{'\b'})
		case 'f':
			out = append(out, []byte{'\f'})
		case 'r':
			out = append(out, []byte{'\r'})
		case 'v':
			out = append(out, []byte{'\v'})
		case '\\':
			out = append(out, []byte{'\\'})
		case '0':
			out = append(out, nil)
		default:
			out = append(out, []byte{s[i]})
		}
	}
	return out, true
}

// Main runs paste.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	delims := [][]byte{{'\t'}}
	serial := false
	eol := byte('\n')
	for _, f := range flags {
		switch f.Name {
		case "d":
			d, ok := parseDelims(f.Arg)
			if !ok {
				env.Errorf("delimiter list ends with an unescaped backslash: %s", tool.Quote(f.Arg))
				return 1
			}
			delims = d
			if len(d) == 0 {
				delims = [][]byte{nil}
			}
		case "s":
			serial = true
		case "z":
			eol = 0
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var readers []*bufio.Reader
	var closers []io.Closer
	var stdin *bufio.Reader
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			for _, c := range closers {
				c.Close()
			}
			return 1
		}
		closers = append(closers, r)
		if name == "-" {
			// Every "-" shares standard input.
			if stdin == nil {
				stdin = bufio.NewReader(r)
			}
			readers = append(readers, stdin)
		} else {
			readers = append(readers, bufio.NewReader(r))
		}
	}
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	out := env.Out()
	readLine := func(br *bufio.Reader) ([]byte, bool) {
		line, err := br.ReadBytes(eol)
		if len(line) == 0 && err != nil {
			return nil, false
		}
		return bytes.TrimSuffix(line, []byte{eol}), true
	}
	if serial {
		for _, br := range readers {
			i := 0
			first := true
			for {
				line, ok := readLine(br)
				if !ok {
					break
				}
				if !first {
					out.Write(delims[i%len(delims)])
					i++
				}
				first = false
				out.Write(line)
			}
			out.WriteByte(eol)
			if _, err := out.Write(nil); err != nil {
				return env.WriteFailed(err)
			}
		}
		return 0
	}
	done2 := make([]bool, len(readers))
	for {
		any := false
		var line []byte
		pendingDelims := [][]byte{}
		for i, br := range readers {
			var ok bool
			if !done2[i] {
				line, ok = readLine(br)
				if !ok {
					done2[i] = true
				}
			}
			if ok {
				if !any {
					// Delimiters owed to files already at end.
					for _, d := range pendingDelims {
						out.Write(d)
					}
				} else {
					for _, d := range pendingDelims {
						out.Write(d)
					}
				}
				pendingDelims = pendingDelims[:0]
				any = true
				out.Write(line)
			}
			if i < len(readers)-1 {
				pendingDelims = append(pendingDelims, delims[i%len(delims)])
			}
		}
		if !any {
			break
		}
		for _, d := range pendingDelims {
			out.Write(d)
		}
		out.WriteByte(eol)
		if _, err := out.Write(nil); err != nil {
			return env.WriteFailed(err)
		}
	}
	return 0
}
