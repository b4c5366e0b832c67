// Package basenc implements base64 and base32: encode or decode data.
package basenc

import (
	"bufio"
	"encoding/base32"
	"encoding/base64"
	"io"
	"strconv"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func spec(name string) *tool.Spec {
	return &tool.Spec{
		Options: []tool.Option{
			{Short: 'd', Long: "decode"},
			{Short: 'i', Long: "ignore-garbage"},
			{Short: 'w', Long: "wrap", Arg: tool.RequiredArg},
		},
		Help: `Usage: ` + name + ` [OPTION]... [FILE]
` + name + ` encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --help        display this help and exit
      --version     output version information and exit
`,
	}
}

var (
	spec64 = spec("base64")
	spec32 = spec("base32")
)

// Base64 runs base64.
func Base64(env *tool.Env) int { return run(env, spec64, codec64{}) }

// Base32 runs base32.
func Base32(env *tool.Env) int { return run(env, spec32, codec32{}) }

// codec is one alphabet: block sizes and the standard library's encoding.
type codec interface {
	inBlock() int  // raw bytes per block
	outBlock() int // encoded characters per block
	encode(dst, src []byte)
	decode(dst, src []byte) (int, error)
	isAlphabet(c byte) bool
}

type codec64 struct{}

func (codec64) inBlock() int                        { return 3 }
func (codec64) outBlock() int                       { return 4 }
func (codec64) encode(dst, src []byte)              { base64.StdEncoding.Encode(dst, src) }
func (codec64) decode(dst, src []byte) (int, error) { return base64.StdEncoding.Decode(dst, src) }
func (codec64) isAlphabet(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
}

type codec32 struct{}

func (codec32) inBlock() int                        { return 5 }
func (codec32) outBlock() int                       { return 8 }
func (codec32) encode(dst, src []byte)              { base32.StdEncoding.Encode(dst, src) }
func (codec32) decode(dst, src []byte) (int, error) { return base32.StdEncoding.Decode(dst, src) }
func (codec32) isAlphabet(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= '2' && c <= '7' || c == '='
}

func run(env *tool.Env, s *tool.Spec, c codec) int {
	flags, files, code, done := s.Parse(env)
	if done {
		return code
	}
	decode, ignore, wrap := false, false, 76
	for _, f := range flags {
		switch f.Name {
		case "d":
			decode = true
		case "i":
			ignore = true
		case "w":
			n, err := strconv.ParseUint(f.Arg, 10, 63)
			if err != nil {
				env.Errorf("invalid wrap size: %s", tool.Quote(f.Arg))
				return 1
			}
			wrap = int(min(n, 1<<30))
		}
	}
	if len(files) > 1 {
		return env.Usage(1, "extra operand %s", tool.Quote(files[1]))
	}
	name := "-"
	if len(files) == 1 {
		name = files[0]
	}
	r, err := env.Open(name)
	if err != nil {
		env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
		return 1
	}
	defer r.Close()
	if decode {
		return decodeStream(env, c, r, ignore)
	}
	return encodeStream(env, c, r, wrap, name)
}

func encodeStream(env *tool.Env, c codec, r io.Reader, wrap int, name string) int {
	w := env.Out()
	in := make([]byte, c.inBlock()*1024*12)
	out := make([]byte, c.outBlock()*1024*12)
	col := 0
	emit := func(b []byte) {
		for len(b) > 0 {
			if wrap == 0 {
				w.Write(b)
				return
			}
			n := min(wrap-col, len(b))
			w.Write(b[:n])
			b = b[n:]
			col += n
			if col == wrap {
				w.WriteByte('\n')
				col = 0
			}
		}
	}
	pending := 0
	for {
		n, err := io.ReadFull(r, in[pending:])
		pending += n
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			return 1
		}
		full := pending / c.inBlock() * c.inBlock()
		if err != nil {
			full = pending
		}
		if full > 0 {
			m := (full + c.inBlock() - 1) / c.inBlock() * c.outBlock()
			c.encode(out[:m], in[:full])
			emit(out[:m])
			copy(in, in[full:pending])
			pending -= full
		}
		if err != nil {
			break
		}
	}
	if col > 0 {
		w.WriteByte('\n')
	}
	return 0
}

func decodeStream(env *tool.Env, c codec, r io.Reader, ignore bool) int {
	br := bufio.NewReaderSize(r, 64<<10)
	w := env.Out()
	block := make([]byte, 0, c.outBlock()*4096)
	out := make([]byte, c.inBlock()*4096)
	flush := func(final bool) bool {
		n := len(block) / c.outBlock() * c.outBlock()
		if final {
			n = len(block)
		}
		if n == 0 {
			return true
		}
		m, err := c.decode(out, block[:n])
		w.Write(out[:m])
		if err != nil {
			return false
		}
		block = append(block[:0], block[n:]...)
		return true
	}
	padded := false
	for {
		b, err := br.ReadByte()
		if err != nil {
			break
		}
		if b == '\n' {
			continue
		}
		if !c.isAlphabet(b) || padded && b != '=' {
			if ignore && !c.isAlphabet(b) {
				continue
			}
			flush(false)
			env.Errorf("invalid input")
			return 1
		}
		if b == '=' {
			padded = true
		}
		block = append(block, b)
		if len(block) == cap(block) {
			if !flush(false) {
				env.Errorf("invalid input")
				return 1
			}
		}
	}
	if len(block)%c.outBlock() != 0 || !flush(true) {
		// Decode what is whole, as GNU does, then complain.
		env.Errorf("invalid input")
		return 1
	}
	return 0
}
