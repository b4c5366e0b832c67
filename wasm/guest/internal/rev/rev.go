// Package rev implements rev: reverse the characters of each line.
package rev

import (
	"bufio"
	"io"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{{Short: '0', Long: "zero"}},
	Help: `Usage: rev [options] [file ...]

Reverse lines characterwise.

Options:
 -0, --zero     zero line delimiter
 -h, --help     display this help
 -V, --version  display version
`}

// Main runs rev.
func Main(env *tool.Env) int {
	args := append([]string(nil), env.Args...)
	for i, a := range args {
		if i > 0 && (a == "-h" || a == "-V") {
			args[i] = map[string]string{"-h": "--help", "-V": "--version"}[a]
		}
	}
	sub := *env
	sub.Args = args
	flags, files, code, done := spec.Parse(&sub)
	if done {
		return code
	}
	eol := byte('\n')
	if len(flags) > 0 {
		eol = 0
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := env.Out()
	status := 0
	var rev []byte
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("cannot open %s: %s", name, tool.Strerror(err))
			status = 1
			continue
		}
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := br.ReadBytes(eol)
			if len(line) > 0 {
				body := line
				hasEOL := body[len(body)-1] == eol
				if hasEOL {
					body = body[:len(body)-1]
				}
				rev = reverse(rev[:0], body)
				out.Write(rev)
				if hasEOL {
					out.WriteByte(eol)
				}
			}
			if err != nil {
				if err != io.EOF {
					env.Errorf("%s: %s", name, tool.Strerror(err))
					status = 1
				}
				break
			}
		}
		r.Close()
		if _, werr := out.Write(nil); werr != nil {
			return env.WriteFailed(werr)
		}
	}
	return status
}

// reverse appends b's characters in reverse order to dst; bytes that are
// not valid UTF-8 move as single bytes.
func reverse(dst, b []byte) []byte {
	for i := len(b); i > 0; {
		_, n := utf8.DecodeLastRune(b[:i])
		dst = append(dst, b[i-n:i]...)
		i -= n
	}
	return dst
}
