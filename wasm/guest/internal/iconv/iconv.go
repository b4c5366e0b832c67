// Package iconv implements glibc's iconv: convert text between character
// encodings, through golang.org/x/text. Text is decoded strictly (an
// invalid sequence stops the conversion with glibc's message and its byte
// position) and encoded strictly unless //TRANSLIT (approximate: accents
// dropped, a few symbols spelled out, "?" otherwise), //IGNORE or -c drop
// what the target cannot hold.
package iconv

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/unicode/norm"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'f', Long: "from-code", Arg: tool.RequiredArg},
		{Short: 't', Long: "to-code", Arg: tool.RequiredArg},
		{Short: 'l', Long: "list"},
		{Short: 'c'},
		{Short: 'o', Long: "output", Arg: tool.RequiredArg},
		{Short: 's', Long: "silent"},
		{Long: "verbose"},
	},
	UsageExit: 64,
	Help: `Usage: iconv [OPTION...] [FILE...]
Convert encoding of given files from one encoding to another.

 Input/Output format specification:
  -f, --from-code=NAME       encoding of original text
  -t, --to-code=NAME         encoding for output

 Information:
  -l, --list                 list all known coded character sets

 Output control:
  -c                         omit invalid characters from output
  -o, --output=FILE          output file
  -s, --silent               suppress warnings
      --verbose              print progress information

  -?, --help                 Give this help list
      --usage                Give a short usage message
  -V, --version              Print program version
`,
}

// codec is one character set: how to turn bytes into runes and back.
type codec struct {
	name string
	// decode returns the rune at the start of b and its length, or
	// size 0 for an invalid sequence and -1 for one cut short.
	decode func(b []byte) (rune, int)
	// encode appends r, or reports that the set cannot hold it.
	encode func(dst []byte, r rune) ([]byte, bool)
	bom    []byte // written before the text (UTF-16, UTF-32)
}

func utf8Codec() *codec {
	return &codec{name: "UTF-8",
		decode: func(b []byte) (rune, int) {
			r, n := utf8.DecodeRune(b)
			if r == utf8.RuneError && n <= 1 {
				if !utf8.FullRune(b) {
					return 0, -1
				}
				return 0, 0
			}
			return r, n
		},
		encode: func(dst []byte, r rune) ([]byte, bool) { return utf8.AppendRune(dst, r), true },
	}
}

func asciiCodec() *codec {
	return &codec{name: "ASCII",
		decode: func(b []byte) (rune, int) {
			if b[0] < 0x80 {
				return rune(b[0]), 1
			}
			return 0, 0
		},
		encode: func(dst []byte, r rune) ([]byte, bool) {
			if r < 0x80 {
				return append(dst, byte(r)), true
			}
			return dst, false
		},
	}
}

func unitCodec(name string, size int, big, bom bool) *codec {
	c := &codec{name: name}
	get := func(b []byte) uint32 {
		var v uint32
		for i := 0; i < size; i++ {
			if big {
				v = v<<8 | uint32(b[i])
			} else {
				v |= uint32(b[i]) << (8 * i)
			}
		}
		return v
	}
	put := func(dst []byte, v uint32) []byte {
		for i := 0; i < size; i++ {
			if big {
				dst = append(dst, byte(v>>(8*(size-1-i))))
			} else {
				dst = append(dst, byte(v>>(8*i)))
			}
		}
		return dst
	}
	c.decode = func(b []byte) (rune, int) {
		if len(b) < size {
			return 0, -1
		}
		v := get(b)
		if size == 4 {
			if v > unicode.MaxRune || v >= 0xd800 && v < 0xe000 {
				return 0, 0
			}
			return rune(v), 4
		}
		if v >= 0xd800 && v < 0xdc00 {
			if len(b) < 4 {
				return 0, -1
			}
			lo := get(b[2:])
			if lo < 0xdc00 || lo >= 0xe000 {
				return 0, 0
			}
			return utf16.DecodeRune(rune(v), rune(lo)), 4
		}
		if v >= 0xdc00 && v < 0xe000 {
			return 0, 0
		}
		return rune(v), 2
	}
	c.encode = func(dst []byte, r rune) ([]byte, bool) {
		if size == 2 && r > 0xffff {
			hi, lo := utf16.EncodeRune(r)
			return put(put(dst, uint32(hi)), uint32(lo)), true
		}
		return put(dst, uint32(r)), true
	}
	if bom {
		c.bom = put(nil, 0xfeff)
	}
	return c
}

// xtextCodec wraps an x/text encoding, rune by rune.
func xtextCodec(name string, e encoding.Encoding) *codec {
	dec, enc := e.NewDecoder(), e.NewEncoder()
	return &codec{name: name,
		decode: func(b []byte) (rune, int) {
			// Multibyte sets take at most 4 bytes a character.
			for n := 1; n <= 4 && n <= len(b); n++ {
				out, err := dec.Bytes(b[:n])
				if err == nil && len(out) > 0 {
					r, _ := utf8.DecodeRune(out)
					if r == utf8.RuneError && !(len(out) == 3 && string(out) == "\uFFFD" && n == 3) {
						if n < len(b) && n < 4 {
							continue
						}
						return 0, 0
					}
					return r, n
				}
			}
			if len(b) < 4 {
				return 0, -1
			}
			return 0, 0
		},
		encode: func(dst []byte, r rune) ([]byte, bool) {
			out, err := enc.Bytes(utf8.AppendRune(nil, r))
			if err != nil {
				return dst, false
			}
			return append(dst, out...), true
		},
	}
}

// normalize folds a charset name as glibc matches them.
func normalize(s string) string {
	s = strings.ToUpper(s)
	return strings.NewReplacer("_", "", "-", "", " ", "").Replace(s)
}

var named = map[string]func() *codec{
	"UTF8":         utf8Codec,
	"ASCII":        asciiCodec,
	"USASCII":      asciiCodec,
	"ANSIX3.41968": asciiCodec,
	"646":          asciiCodec,
	"UTF16":        func() *codec { return unitCodec("UTF-16", 2, false, true) },
	"UTF16LE":      func() *codec { return unitCodec("UTF-16LE", 2, false, false) },
	"UTF16BE":      func() *codec { return unitCodec("UTF-16BE", 2, true, false) },
	"UCS2":         func() *codec { return unitCodec("UCS-2", 2, false, false) },
	"UCS2LE":       func() *codec { return unitCodec("UCS-2LE", 2, false, false) },
	"UCS2BE":       func() *codec { return unitCodec("UCS-2BE", 2, true, false) },
	"UTF32":        func() *codec { return unitCodec("UTF-32", 4, false, true) },
	"UTF32LE":      func() *codec { return unitCodec("UTF-32LE", 4, false, false) },
	"UTF32BE":      func() *codec { return unitCodec("UTF-32BE", 4, true, false) },
	"UCS4":         func() *codec { return unitCodec("UCS-4", 4, true, false) },
	"LATIN1":       func() *codec { return xtextCodec("ISO-8859-1", charmap.ISO8859_1) },
	"L1":           func() *codec { return xtextCodec("ISO-8859-1", charmap.ISO8859_1) },
	"CP819":        func() *codec { return xtextCodec("ISO-8859-1", charmap.ISO8859_1) },
	"SJIS":         func() *codec { return xtextCodec("SHIFT_JIS", japanese.ShiftJIS) },
	"EUCJP":        func() *codec { return xtextCodec("EUC-JP", japanese.EUCJP) },
	"ISO2022JP":    func() *codec { return xtextCodec("ISO-2022-JP", japanese.ISO2022JP) },
	"EUCKR":        func() *codec { return xtextCodec("EUC-KR", korean.EUCKR) },
	"GBK":          func() *codec { return xtextCodec("GBK", simplifiedchinese.GBK) },
	"GB2312":       func() *codec { return xtextCodec("GB2312", simplifiedchinese.HZGB2312) },
	"GB18030":      func() *codec { return xtextCodec("GB18030", simplifiedchinese.GB18030) },
	"BIG5":         func() *codec { return xtextCodec("BIG5", traditionalchinese.Big5) },
	"CP437":        func() *codec { return xtextCodec("CP437", charmap.CodePage437) },
	"CP850":        func() *codec { return xtextCodec("CP850", charmap.CodePage850) },
	"CP866":        func() *codec { return xtextCodec("CP866", charmap.CodePage866) },
	"KOI8R":        func() *codec { return xtextCodec("KOI8-R", charmap.KOI8R) },
	"KOI8U":        func() *codec { return xtextCodec("KOI8-U", charmap.KOI8U) },
	"MACINTOSH":    func() *codec { return xtextCodec("MACINTOSH", charmap.Macintosh) },
	"MAC":          func() *codec { return xtextCodec("MACINTOSH", charmap.Macintosh) },
}

// lookup finds a character set by glibc's names or IANA's.
func lookup(name string) (*codec, bool) {
	n := normalize(name)
	if f, ok := named[n]; ok {
		return f(), true
	}
	try := []string{name}
	if base, _, ok := strings.Cut(name, ":"); ok {
		try = append(try, base) // ISO_8859-1:1987
	}
	if strings.HasPrefix(n, "CP125") && len(n) == 6 {
		try = append(try, "windows-"+n[2:])
	}
	if strings.HasPrefix(n, "ISO8859") && len(n) > 7 {
		try = append(try, "ISO-8859-"+strings.TrimPrefix(strings.SplitN(n, ":", 2)[0], "ISO8859"))
	}
	for _, t := range try {
		e, err := ianaindex.IANA.Encoding(t)
		if err != nil || e == nil {
			continue
		}
		id, err := ianaindex.MIME.Name(e)
		if err != nil {
			id, _ = ianaindex.IANA.Name(e)
		}
		return xtextCodec(id, e), true
	}
	return nil, false
}

// Main runs iconv.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	from, to, out := "UTF-8", "UTF-8", ""
	omit, list := false, false
	for _, f := range flags {
		switch f.Name {
		case "f":
			from = f.Arg
		case "t":
			to = f.Arg
		case "c":
			omit = true
		case "o":
			out = f.Arg
		case "l":
			list = true
		}
	}
	if list {
		return listSets(env)
	}
	// Suffixes of the target: //TRANSLIT and //IGNORE.
	toName, suffix, _ := strings.Cut(to, "//")
	suffix = strings.ToUpper(suffix)
	// Transliteration tables come with a locale: the C locale has none.
	translit := strings.Contains(suffix, "TRANSLIT") && !cLocale(env)
	ignore := strings.Contains(suffix, "IGNORE")
	fromName, _, _ := strings.Cut(from, "//")
	dec, ok1 := lookup(fromName)
	enc, ok2 := lookup(toName)
	if !ok1 || !ok2 {
		env.Errorf("failed to start conversion processing")
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var w io.Writer = env.Out()
	var outFile *os.File
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			env.Errorf("cannot open output file: %s", tool.Strerror(err))
			return 1
		}
		outFile = f
		w = f
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	status := 0
	for _, name := range files {
		var data []byte
		var err error
		if name == "-" {
			data, err = io.ReadAll(env.Stdin)
		} else {
			data, err = os.ReadFile(name)
		}
		if err != nil {
			env.Errorf("cannot open input file `%s': %s", name, tool.Strerror(err))
			status = 1
			continue
		}
		buf, err := convert(data, dec, enc, translit, omit || ignore, true)
		bw.Write(buf)
		if errors.Is(err, errOmitted) {
			if omit {
				continue
			}
			// //IGNORE without -c still reports, at the end of the input.
			err = fmt.Errorf("illegal input sequence at position %d", len(data))
		}
		if err != nil {
			bw.Flush()
			env.Errorf("%s", err)
			status = 1
			break
		}
	}
	if err := bw.Flush(); err != nil {
		return env.WriteFailed(err)
	}
	if outFile != nil {
		outFile.Close()
	}
	return status
}

var errOmitted = errors.New("characters omitted")

// cLocale says whether the locale is C (or POSIX).
func cLocale(env *tool.Env) bool {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if l := env.Env(v); l != "" {
			return l == "C" || l == "POSIX"
		}
	}
	return true
}

// convert converts data, returning what it converted before any error.
func convert(data []byte, dec, enc *codec, translit, omit, bom bool) ([]byte, error) {
	var out []byte
	if bom {
		out = append(out, enc.bom...)
	}
	// A byte-order mark at the start of UTF-16 or UTF-32 input picks the
	// order and is not text.
	if dec.bom != nil {
		switch {
		case len(dec.bom) == 2 && len(data) >= 2 && data[0] == 0xfe && data[1] == 0xff:
			dec, data = unitCodec("UTF-16BE", 2, true, false), data[2:]
		case len(dec.bom) == 2 && len(data) >= 2 && data[0] == 0xff && data[1] == 0xfe:
			data = data[2:]
		case len(dec.bom) == 4 && len(data) >= 4 && string(data[:4]) == "\x00\x00\xfe\xff":
			dec, data = unitCodec("UTF-32BE", 4, true, false), data[4:]
		case len(dec.bom) == 4 && len(data) >= 4 && string(data[:4]) == "\xff\xfe\x00\x00":
			data = data[4:]
		}
	}
	skipped := false
	for pos := 0; pos < len(data); {
		r, n := dec.decode(data[pos:])
		switch {
		case n == 0:
			if omit {
				pos++
				skipped = true
				continue
			}
			return out, fmt.Errorf("illegal input sequence at position %d", pos)
		case n < 0:
			return out, errors.New("incomplete character or shift sequence at end of buffer")
		}
		var ok bool
		if out, ok = enc.encode(out, r); !ok {
			switch {
			case translit:
				for _, t := range transliterate(r) {
					if o, ok := enc.encode(out, t); ok {
						out = o
					} else {
						out, _ = enc.encode(out, '?')
					}
				}
			case omit:
				skipped = true
			default:
				return out, fmt.Errorf("illegal input sequence at position %d", pos)
			}
		}
		pos += n
	}
	if skipped {
		return out, errOmitted
	}
	return out, nil
}

// spelled are symbols //TRANSLIT writes out.
var spelled = map[rune]string{
	'€': "EUR", '£': "GBP", '¥': "JPY", '©': "(C)", '®': "(R)", '™': "(TM)",
	'“': "\"", '”': "\"", '„': "\"", '‘': "'", '’': "'", '‚': "'", '–': "-", '—': "-",
	'…': "...", '«': "<<", '»': ">>", '×': "x", '÷': ":", 'ß': "ss", 'Æ': "AE", 'æ': "ae",
	'Œ': "OE", 'œ': "oe", 'ø': "o", 'Ø': "O", 'đ': "d", 'Đ': "D", 'ł': "l", 'Ł': "L",
	'\u00a0': " ", '•': "o", '½': " 1/2", '¼': " 1/4", '¾': " 3/4",
}

// transliterate approximates r in plainer characters.
func transliterate(r rune) []rune {
	if s, ok := spelled[r]; ok {
		return []rune(s)
	}
	var base []rune
	for _, d := range norm.NFD.String(string(r)) {
		if !unicode.Is(unicode.Mn, d) {
			base = append(base, d)
		}
	}
	if len(base) == 0 || len(base) == 1 && base[0] == r {
		return []rune{'?'}
	}
	return base
}

func listSets(env *tool.Env) int {
	names := make([]string, 0, len(named)+64)
	for _, f := range named {
		names = append(names, f().name)
	}
	for _, m := range charmap.All {
		if id, err := ianaindex.IANA.Name(m); err == nil {
			names = append(names, id)
		}
	}
	sort.Strings(names)
	w := env.Out()
	prev := ""
	for _, n := range names {
		if n != prev {
			w.WriteString(n + "//\n")
		}
		prev = n
	}
	return 0
}
