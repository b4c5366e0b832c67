// Package basenc implements base64, base32 and basenc: encode or decode data.
package basenc

import (
	"bufio"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"io"
	"strconv"
	"strings"

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
			if _, z := c.(codecZ85); z && full != pending {
				env.Errorf("invalid input (length must be multiple of 4 characters)")
				return 1
			}
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
	if _, ok := c.(partial); ok && len(block)%c.outBlock() != 0 {
		flush(true) // the whole units before the cut, as GNU basenc
		env.Errorf("invalid input")
		return 1
	}
	if len(block)%c.outBlock() != 0 || !flush(true) {
		// Decode what is whole, as GNU does, then complain.
		env.Errorf("invalid input")
		return 1
	}
	return 0
}

var specBasenc = &tool.Spec{
	Options: []tool.Option{
		{Long: "base64"}, {Long: "base64url"}, {Long: "base32"}, {Long: "base32hex"},
		{Long: "base16"}, {Long: "base2msbf"}, {Long: "base2lsbf"}, {Long: "z85"},
		{Short: 'd', Long: "decode"},
		{Short: 'i', Long: "ignore-garbage"},
		{Short: 'w', Long: "wrap", Arg: tool.RequiredArg},
	},
	Help: `Usage: basenc [OPTION]... [FILE]
basenc encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
      --base64          same as 'base64' program (RFC4648 section 4)
      --base64url       file- and url-safe base64 (RFC4648 section 5)
      --base32          same as 'base32' program (RFC4648 section 6)
      --base32hex       extended hex alphabet base32 (RFC4648 section 7)
      --base16          hex encoding (RFC4648 section 8)
      --base2msbf       bit string with most significant bit (msb) first
      --base2lsbf       bit string with least significant bit (lsb) first
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --z85             ascii85-like encoding (ZeroMQ spec:32/Z85);
                        when encoding, input length must be a multiple of 4;
                        when decoding, input length must be a multiple of 5
      --help        display this help and exit
      --version     output version information and exit

When decoding, the input may contain newlines in addition to the bytes of
the formal alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
`,
}

// Basenc runs basenc: the encoding is chosen by option, the last wins.
func Basenc(env *tool.Env) int {
	flags, _, code, done := specBasenc.Parse(env)
	if done {
		return code
	}
	var c codec
	for _, f := range flags {
		switch f.Name {
		case "base64":
			c = codec64{}
		case "base64url":
			c = codec64url{}
		case "base32":
			c = codec32{}
		case "base32hex":
			c = codec32hex{}
		case "base16":
			c = codec16{}
		case "base2msbf":
			c = codec2{msbFirst: true}
		case "base2lsbf":
			c = codec2{}
		case "z85":
			c = codecZ85{}
		}
	}
	if c == nil {
		return env.Usage(1, "missing encoding type")
	}
	return run(env, specBasenc, c)
}

type codec64url struct{}

func (codec64url) inBlock() int                        { return 3 }
func (codec64url) outBlock() int                       { return 4 }
func (codec64url) encode(dst, src []byte)              { base64.URLEncoding.Encode(dst, src) }
func (codec64url) decode(dst, src []byte) (int, error) { return base64.URLEncoding.Decode(dst, src) }
func (codec64url) isAlphabet(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '='
}

type codec32hex struct{}

func (codec32hex) inBlock() int                        { return 5 }
func (codec32hex) outBlock() int                       { return 8 }
func (codec32hex) encode(dst, src []byte)              { base32.HexEncoding.Encode(dst, src) }
func (codec32hex) decode(dst, src []byte) (int, error) { return base32.HexEncoding.Decode(dst, src) }
func (codec32hex) isAlphabet(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'V' || c == '='
}

var errInvalid = errors.New("invalid input")

// partial is a codec whose whole units GNU basenc writes out before it
// reports a cut-off unit at the end.
type partial interface{ partialUnits() }

func (codec16) partialUnits()  {}
func (codec2) partialUnits()   {}
func (codecZ85) partialUnits() {}

// codec16 is RFC 4648 base16: upper-case hex digits, as GNU basenc
// writes and reads them.
type codec16 struct{}

const hexDigits = "0123456789ABCDEF"

func (codec16) inBlock() int  { return 1 }
func (codec16) outBlock() int { return 2 }
func (codec16) encode(dst, src []byte) {
	for i, b := range src {
		dst[2*i], dst[2*i+1] = hexDigits[b>>4], hexDigits[b&15]
	}
}
func (codec16) decode(dst, src []byte) (int, error) {
	n := 0
	for ; n+1 < len(src); n += 2 {
		dst[n/2] = byte(strings.IndexByte(hexDigits, src[n])<<4 | strings.IndexByte(hexDigits, src[n+1]))
	}
	if n < len(src) {
		return n / 2, errInvalid
	}
	return n / 2, nil
}
func (codec16) isAlphabet(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' }

// codec2 writes each byte as eight '0' and '1' characters.
type codec2 struct{ msbFirst bool }

func (codec2) inBlock() int  { return 1 }
func (codec2) outBlock() int { return 8 }
func (c codec2) encode(dst, src []byte) {
	for i, b := range src {
		for j := 0; j < 8; j++ {
			bit := b >> j & 1
			if c.msbFirst {
				bit = b >> (7 - j) & 1
			}
			dst[8*i+j] = '0' + bit
		}
	}
}
func (c codec2) decode(dst, src []byte) (int, error) {
	n := 0
	for ; n+8 <= len(src); n += 8 {
		var b byte
		for j := 0; j < 8; j++ {
			if c.msbFirst {
				b = b<<1 | (src[n+j] - '0')
			} else {
				b |= (src[n+j] - '0') << j
			}
		}
		dst[n/8] = b
	}
	if n < len(src) {
		return n / 8, errInvalid
	}
	return n / 8, nil
}
func (codec2) isAlphabet(c byte) bool { return c == '0' || c == '1' }

// codecZ85 is ZeroMQ's Z85 (spec 32): four bytes as five characters.
type codecZ85 struct{}

const z85Digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"

func (codecZ85) inBlock() int  { return 4 }
func (codecZ85) outBlock() int { return 5 }
func (codecZ85) encode(dst, src []byte) {
	for i := 0; i+4 <= len(src); i += 4 {
		v := uint32(src[i])<<24 | uint32(src[i+1])<<16 | uint32(src[i+2])<<8 | uint32(src[i+3])
		for j := 4; j >= 0; j-- {
			dst[i/4*5+j] = z85Digits[v%85]
			v /= 85
		}
	}
}
func (codecZ85) decode(dst, src []byte) (int, error) {
	n := 0
	for ; n+5 <= len(src); n += 5 {
		var v uint64
		for j := 0; j < 5; j++ {
			v = v*85 + uint64(strings.IndexByte(z85Digits, src[n+j]))
		}
		if v > 0xffffffff {
			return n / 5 * 4, errInvalid
		}
		o := n / 5 * 4
		dst[o], dst[o+1], dst[o+2], dst[o+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	}
	if n < len(src) {
		return n / 5 * 4, errInvalid
	}
	return n / 5 * 4, nil
}
func (codecZ85) isAlphabet(c byte) bool { return strings.IndexByte(z85Digits, c) >= 0 }
