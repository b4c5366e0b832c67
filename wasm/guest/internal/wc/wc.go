// Package wc implements wc: count lines, words, characters and bytes.
package wc

import (
	"io"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "bytes"},
		{Short: 'm', Long: "chars"},
		{Short: 'l', Long: "lines"},
		{Short: 'w', Long: "words"},
		{Short: 'L', Long: "max-line-length"},
		{Long: "total", Arg: tool.RequiredArg},
	},
	Help: `Usage: wc [OPTION]... [FILE]...
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a non-zero-length sequence of
printable characters delimited by white space.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte, maximum line length.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
  -L, --max-line-length  print the maximum display width
  -w, --words            print the word counts
      --total=WHEN       when to print a line with total counts;
                           WHEN can be: auto, always, only, never
      --help        display this help and exit
      --version     output version information and exit
`}

// counts are one input's results.
type counts struct {
	lines, words, chars, bytes, maxLen int64
}

type which struct {
	lines, words, chars, bytes, maxLen bool
	utf8                               bool
}

// Main runs wc.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	var w which
	total := "auto"
	for _, f := range flags {
		switch f.Name {
		case "c":
			w.bytes = true
		case "m":
			w.chars = true
		case "l":
			w.lines = true
		case "w":
			w.words = true
		case "L":
			w.maxLen = true
		case "total":
			switch f.Arg {
			case "auto", "always", "only", "never":
				total = f.Arg
			default:
				env.Errorf("invalid argument %s for '--total'", tool.Quote(f.Arg))
				return env.Usage(1, "")
			}
		}
	}
	if !(w.bytes || w.chars || w.lines || w.words || w.maxLen) {
		w.lines, w.words, w.bytes = true, true, true
	}
	w.utf8 = isUTF8Locale(env)
	named := len(files) > 0
	if !named {
		files = []string{"-"}
	}
	width := numberWidth(env, files, w)
	if total == "only" {
		width = 1
	}
	out := env.Out()
	var sum counts
	status := 0
	buf := make([]byte, 64<<10)
	for _, name := range files {
		c, err := count(env, name, w, buf)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			status = 1
			if c == nil {
				continue
			}
		}
		sum.lines += c.lines
		sum.words += c.words
		sum.chars += c.chars
		sum.bytes += c.bytes
		sum.maxLen = max(sum.maxLen, c.maxLen)
		if total != "only" {
			label := ""
			if named {
				label = name
			}
			w.print(out, c, width, label)
		}
	}
	if total == "always" || total == "only" || total == "auto" && len(files) > 1 {
		label := "total"
		if total == "only" {
			label = ""
		}
		w.print(out, &sum, width, label)
	}
	if _, err := out.Write(nil); err != nil {
		return env.WriteFailed(err)
	}
	return status
}

func isUTF8Locale(env *tool.Env) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := env.Env(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// numberWidth follows GNU: a single count of a single input is printed
// bare; otherwise columns are as wide as the total size of the regular
// files, and at least 7 when any input is not a regular file.
func numberWidth(env *tool.Env, files []string, w which) int {
	n := 0
	for _, b := range []bool{w.lines, w.words, w.chars, w.bytes, w.maxLen} {
		if b {
			n++
		}
	}
	if len(files) == 1 && n == 1 {
		return 1
	}
	minimum, total := 1, int64(0)
	for i, name := range files {
		var fi os.FileInfo
		var err error
		if name == "-" {
			if f, ok := env.Stdin.(*os.File); ok {
				if fi, err = f.Stat(); err != nil {
					minimum = 7
					continue
				}
			} else {
				minimum = 7
				continue
			}
		} else {
			fi, err = os.Stat(name)
		}
		if err != nil {
			if i == 0 {
				return 1
			}
			continue
		}
		if isRegular(fi) {
			total += fi.Size()
		} else {
			minimum = 7
		}
	}
	width := 1
	for ; total >= 10; total /= 10 {
		width++
	}
	return max(width, minimum)
}

func (w *which) print(out io.Writer, c *counts, width int, label string) {
	var line []byte
	add := func(v int64) {
		if len(line) > 0 {
			line = append(line, ' ')
		}
		s := strconv.AppendInt(nil, v, 10)
		for i := len(s); i < width; i++ {
			line = append(line, ' ')
		}
		line = append(line, s...)
	}
	if w.lines {
		add(c.lines)
	}
	if w.words {
		add(c.words)
	}
	if w.chars {
		add(c.chars)
	}
	if w.bytes {
		add(c.bytes)
	}
	if w.maxLen {
		add(c.maxLen)
	}
	if label != "" {
		line = append(line, ' ')
		line = append(line, label...)
	}
	line = append(line, '\n')
	out.Write(line)
}

func count(env *tool.Env, name string, w which, buf []byte) (*counts, error) {
	r, err := env.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	c := &counts{}
	// Byte count alone of a regular file: its size will do.
	if w.bytes && !w.lines && !w.words && !w.chars && !w.maxLen {
		if f, ok := r.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && isRegular(fi) && fi.Size() > 0 {
				c.bytes = fi.Size()
				return c, nil
			}
		}
	}
	slow := w.maxLen || w.chars && w.utf8
	inWord := false
	var pos int64 // display column, for -L
	var pending []byte
	for {
		n, rerr := r.Read(buf)
		chunk := buf[:n]
		c.bytes += int64(n)
		if !slow {
			c.lines += int64(CountByte(chunk, '\n'))
			if w.words {
				var nw int
				nw, inWord = countWords(chunk, inWord)
				c.words += int64(nw)
			}
		} else {
			if len(pending) > 0 {
				chunk = append(pending, chunk...)
				pending = pending[:0]
			}
			for i := 0; i < len(chunk); {
				b := chunk[i]
				size := 1
				r := rune(b)
				printable := b >= 0x20 && b < 0x7f
				if b >= 0x80 && w.utf8 {
					if !utf8.FullRune(chunk[i:]) && rerr == nil {
						pending = append(pending[:0], chunk[i:]...)
						break
					}
					r, size = utf8.DecodeRune(chunk[i:])
					if r == utf8.RuneError && size == 1 {
						printable = false
					} else {
						printable = true
						c.chars++
					}
				} else {
					c.chars++
				}
				i += size
				switch r {
				case '\n':
					c.lines++
					fallthrough
				case '\r', '\f':
					c.maxLen = max(c.maxLen, pos)
					pos = 0
					inWord = false
				case '\t':
					pos += 8 - pos%8
					inWord = false
				case ' ', '\v':
					if r == ' ' {
						pos++
					}
					inWord = false
				default:
					if printable {
						pos++
					}
					if !inWord {
						c.words++
						inWord = true
					}
				}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return c, rerr
		}
	}
	if !slow {
		c.chars = c.bytes
	}
	c.maxLen = max(c.maxLen, pos)
	return c, nil
}

// wordByte is 1 for the bytes that belong to words: all but ASCII white
// space (under UTF-8 too, where wc counts other characters, valid or not,
// as word characters).
var wordByte = func() (t [256]uint8) {
	for i := range t {
		t[i] = 1
	}
	for _, c := range " \t\n\v\f\r" {
		t[c] = 0
	}
	return t
}()

// countWords counts the words starting in b; inWord says whether the byte
// before b was in a word, and the result whether the last byte of b is.
// Eight bytes a step (see wordStarts): a loop of one byte a step costs a
// fuel check per byte under the sandbox.
func countWords(b []byte, inWord bool) (int, bool) {
	var prev uint64 // the high bit of the byte before, if a word byte
	if inWord {
		prev = 0x80
	}
	n := 0
	i := 0
	if len(b) >= 8 {
		p := unsafe.Pointer(unsafe.SliceData(b))
		for end := len(b) - 8; i <= end; i += 8 {
			w := wordBytes(*(*uint64)(unsafe.Add(p, i)))
			n += bits.OnesCount64(w &^ (w<<8 | prev))
			prev = w >> 56
		}
	}
	for ; i < len(b); i++ {
		cur := uint64(wordByte[b[i]]) << 7
		n += int((cur &^ prev) >> 7)
		prev = cur
	}
	return n, prev != 0
}

// wordBytes sets the high bit of each byte of x (little-endian) that
// belongs to a word: every byte but ' ' and '\t' through '\r'.
func wordBytes(x uint64) uint64 {
	const high = 0x8080808080808080
	// ' ': a zero byte of t, found without carries across bytes.
	t := x ^ (' ' * lsb)
	blank := ^((t&low + low) | t | low)
	// '\t' (9) to '\r' (13): the low seven bits are at least 9 and not
	// at least 14, and the high bit is clear.
	u := x & low
	ctrl := (u + (0x80-9)*lsb) &^ (u + (0x80-14)*lsb) &^ x & high
	return ^(blank | ctrl) & high
}
