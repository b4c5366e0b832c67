// Package tr implements tr: translate, squeeze and delete characters.
// Sets of ASCII or bytes work on bytes, as GNU tr does; sets holding
// multibyte UTF-8 characters work on characters.
package tr

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "complement"},
		{Short: 'C'},
		{Short: 'd', Long: "delete"},
		{Short: 's', Long: "squeeze-repeats"},
		{Short: 't', Long: "truncate-set1"},
	},
	StopAtOperand: false,
	Help: `Usage: tr [OPTION]... STRING1 [STRING2]
Translate, squeeze, and/or delete characters from standard input,
writing to standard output.  STRING1 and STRING2 specify arrays of
characters ARRAY1 and ARRAY2 that control the action.

  -c, -C, --complement    use the complement of ARRAY1
  -d, --delete            delete characters in ARRAY1, do not translate
  -s, --squeeze-repeats   replace each sequence of a repeated character
                            that is listed in the last specified ARRAY,
                            with a single occurrence of that character
  -t, --truncate-set1     first truncate ARRAY1 to length of ARRAY2
      --help        display this help and exit
      --version     output version information and exit

ARRAYs are specified as strings of characters.  Most represent themselves.
Interpreted sequences are:

  \NNN            character with octal value NNN (1 to 3 octal digits)
  \\              backslash
  \a              audible BEL
  \b              backspace
  \f              form feed
  \n              new line
  \r              return
  \t              horizontal tab
  \v              vertical tab
  CHAR1-CHAR2     all characters from CHAR1 to CHAR2 in ascending order
  [CHAR*]         in ARRAY2, copies of CHAR until length of ARRAY1
  [CHAR*REPEAT]   REPEAT copies of CHAR, REPEAT octal if starting with 0
  [:alnum:]       all letters and digits
  [:alpha:]       all letters
  [:blank:]       all horizontal whitespace
  [:cntrl:]       all control characters
  [:digit:]       all digits
  [:graph:]       all printable characters, not including space
  [:lower:]       all lower case letters
  [:print:]       all printable characters, including space
  [:punct:]       all punctuation characters
  [:space:]       all horizontal or vertical whitespace
  [:upper:]       all upper case letters
  [:xdigit:]      all hexadecimal digits
  [=CHAR=]        all characters which are equivalent to CHAR

Translation occurs if -d is not given and both STRING1 and STRING2 appear.
-t may be used only when translating.  ARRAY2 is extended to length of
ARRAY1 by repeating its last character as necessary.  Excess characters
of ARRAY2 are ignored.  Character classes expand in unspecified order;
while translating, [:lower:] and [:upper:] may be used in pairs to
specify case conversion.  Squeezing occurs after translation or deletion.
`}

// elem is one parsed piece of a set.
type elem struct {
	chars  []rune
	class  string // for [:lower:] / [:upper:] pairing
	repeat int    // [c*n]: -1 for [c*]; 0 for not a repeat
}

var classes = map[string]func(r rune) bool{
	"alnum":  func(r rune) bool { return isAlpha(r) || isDigit(r) },
	"alpha":  isAlpha,
	"blank":  func(r rune) bool { return r == ' ' || r == '\t' },
	"cntrl":  func(r rune) bool { return r < 32 || r == 127 },
	"digit":  isDigit,
	"graph":  func(r rune) bool { return r > 32 && r < 127 },
	"lower":  func(r rune) bool { return r >= 'a' && r <= 'z' },
	"print":  func(r rune) bool { return r >= 32 && r < 127 },
	"punct":  func(r rune) bool { return r > 32 && r < 127 && !isAlpha(r) && !isDigit(r) },
	"space":  func(r rune) bool { return r == ' ' || r >= '\t' && r <= '\r' },
	"upper":  func(r rune) bool { return r >= 'A' && r <= 'Z' },
	"xdigit": func(r rune) bool { return isDigit(r) || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' },
}

func isAlpha(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// unescape reads one possibly escaped character of s at i. Bytes that are
// not valid UTF-8 come back as runes 0x80-0xFF marked by raw.
func unescape(s string, i int) (r rune, n int) {
	if s[i] != '\\' || i+1 >= len(s) {
		if s[i] < utf8.RuneSelf {
			return rune(s[i]), 1
		}
		r, n = utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return rune(s[i]), 1
		}
		return r, n
	}
	c := s[i+1]
	switch c {
	case 'a':
		return 7, 2
	case 'b':
		return 8, 2
	case 'f':
		return 12, 2
	case 'n':
		return 10, 2
	case 'r':
		return 13, 2
	case 't':
		return 9, 2
	case 'v':
		return 11, 2
	}
	if c >= '0' && c <= '7' {
		v, j := 0, i+1
		for j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7' && v*8+int(s[j]-'0') <= 255 {
			v = v*8 + int(s[j]-'0')
			j++
		}
		return rune(v), j - i
	}
	r, n = utf8.DecodeRuneInString(s[i+1:])
	return r, n + 1
}

// parseSet expands a set description into its pieces.
func parseSet(s string, second bool) ([]elem, string) {
	var out []elem
	for i := 0; i < len(s); {
		if s[i] == '[' && i+1 < len(s) {
			if s[i+1] == ':' {
				if j := strings.Index(s[i+2:], ":]"); j >= 0 {
					name := s[i+2 : i+2+j]
					f, ok := classes[name]
					if !ok {
						return nil, "invalid character class " + tool.Quote(name)
					}
					var cs []rune
					for r := rune(0); r < 256; r++ {
						if f(r) {
							cs = append(cs, r)
						}
					}
					out = append(out, elem{chars: cs, class: name})
					i += j + 4
					continue
				}
			}
			if s[i+1] == '=' {
				if j := strings.Index(s[i+2:], "=]"); j >= 0 {
					body := s[i+2 : i+2+j]
					r, n := unescape(body, 0)
					if n != len(body) || body == "" {
						return nil, fmt.Sprintf("%s: equivalence class operand must be a single character", body)
					}
					out = append(out, elem{chars: []rune{r}})
					i += j + 4
					continue
				}
			}
			// [c*n]
			if i+2 < len(s) {
				r, n := unescape(s, i+1)
				if j := i + 1 + n; j < len(s) && s[j] == '*' {
					if k := strings.IndexByte(s[j:], ']'); k >= 0 {
						numStr := s[j+1 : j+k]
						count := -1
						if numStr != "" {
							base := 10
							if numStr[0] == '0' {
								base = 8
							}
							v, err := strconv.ParseInt(numStr, base, 32)
							if err != nil {
								return nil, tool.Quote(numStr) + ": invalid repeat count"
							}
							if v > 0 {
								count = int(v)
							}
						}
						if !second {
							return nil, "the [c*] repeat construct may not appear in string1"
						}
						out = append(out, elem{chars: []rune{r}, repeat: count})
						i = j + k + 1
						continue
					}
				}
			}
		}
		r, n := unescape(s, i)
		i += n
		if i+1 < len(s) && s[i] == '-' {
			r2, n2 := unescape(s, i+1)
			if r2 < r {
				return nil, fmt.Sprintf("range-endpoints of '%s' are in reverse collating sequence order", s[i-n:i+1+n2])
			}
			var cs []rune
			for c := r; c <= r2; c++ {
				cs = append(cs, c)
			}
			out = append(out, elem{chars: cs})
			i += 1 + n2
			continue
		}
		out = append(out, elem{chars: []rune{r}})
	}
	return out, ""
}

func flatten(es []elem, fill int) []rune {
	total := 0
	for _, e := range es {
		if e.repeat == 0 {
			total += len(e.chars)
		} else if e.repeat > 0 {
			total += e.repeat
		}
	}
	var out []rune
	for _, e := range es {
		switch {
		case e.repeat > 0:
			for k := 0; k < e.repeat; k++ {
				out = append(out, e.chars[0])
			}
		case e.repeat < 0:
			for k := 0; k < fill-total; k++ {
				out = append(out, e.chars[0])
			}
		default:
			out = append(out, e.chars...)
		}
	}
	return out
}

// Main runs tr.
func Main(env *tool.Env) int {
	flags, ops, code, done := spec.Parse(env)
	if done {
		return code
	}
	var comp, del, squeeze, trunc bool
	for _, f := range flags {
		switch f.Name {
		case "c", "C":
			comp = true
		case "d":
			del = true
		case "s":
			squeeze = true
		case "t":
			trunc = true
		}
	}
	translate := !del && len(ops) >= 2
	switch {
	case len(ops) == 0:
		return env.Usage(1, "missing operand")
	case del && squeeze && len(ops) < 2:
		return env.Usage(1, "missing operand after %s\nTwo strings must be given when both deleting and squeezing repeats.", tool.Quote(ops[0]))
	case !del && !squeeze && len(ops) < 2:
		return env.Usage(1, "missing operand after %s\nTwo strings must be given when translating.", tool.Quote(ops[0]))
	case del && !squeeze && len(ops) > 1:
		return env.Usage(1, "extra operand %s\nOnly one string may be given when deleting without squeezing repeats.", tool.Quote(ops[1]))
	case len(ops) > 2:
		return env.Usage(1, "extra operand %s", tool.Quote(ops[2]))
	}
	e1, msg := parseSet(ops[0], false)
	if msg != "" {
		env.Errorf("%s", msg)
		return 1
	}
	var e2 []elem
	if len(ops) > 1 {
		if e2, msg = parseSet(ops[1], true); msg != "" {
			env.Errorf("%s", msg)
			return 1
		}
	}
	set1 := flatten(e1, 0)
	wide := false
	for _, op := range ops {
		wide = wide || hasMultibyte(op)
	}
	var set2 []rune
	if e2 != nil {
		set2 = flatten(e2, len(set1))
	}
	t := &tr{del: del, squeeze: squeeze}
	if comp {
		in := map[rune]bool{}
		for _, r := range set1 {
			in[r] = true
		}
		var c []rune
		for r := rune(0); r < 256; r++ {
			if !in[r] {
				c = append(c, r)
			}
		}
		t.compSet = in
		set1 = c
	}
	if translate {
		// [:lower:] and [:upper:] pair up for case conversion.
		if len(e1) == len(e2) {
			for i := range e1 {
				if e2[i].class == "upper" || e2[i].class == "lower" {
					if e1[i].class != "upper" && e1[i].class != "lower" {
						env.Errorf("misaligned [:upper:] and/or [:lower:] construct")
						return 1
					}
				}
			}
		} else {
			for _, e := range e2 {
				if e.class != "" && e.class != "upper" && e.class != "lower" {
					env.Errorf("when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'")
					return 1
				}
			}
		}
		if trunc && len(set1) > len(set2) {
			set1 = set1[:len(set2)]
		}
		if len(set2) == 0 && len(set1) > 0 {
			env.Errorf("when not truncating set1, string2 must be non-empty")
			return 1
		}
		for len(set2) < len(set1) {
			set2 = append(set2, set2[len(set2)-1])
		}
	}
	t.wide = wide
	t.build(set1, set2, translate, comp)
	out := env.Out()
	if err := t.run(env.Stdin, out); err != nil {
		if we, ok := err.(writeErr); ok {
			return env.WriteFailed(we.err)
		}
		env.Errorf("read error: %s", tool.Strerror(err))
		return 1
	}
	return 0
}

type writeErr struct{ err error }

func (e writeErr) Error() string { return e.err.Error() }

type tr struct {
	del, squeeze, wide bool
	compSet            map[rune]bool
	// byte mode tables
	mapB      [256]byte
	delB      [256]bool
	squeezeB  [256]bool
	mapR      map[rune]rune
	delR      map[rune]bool
	squeezeR  map[rune]bool
	compDelR  bool // wide complement: delete every rune not in compSet
	compSqR   bool
	compMapTo rune
	compMap   bool
}

func (t *tr) build(set1, set2 []rune, translate, comp bool) {
	for i := range t.mapB {
		t.mapB[i] = byte(i)
	}
	t.mapR, t.delR, t.squeezeR = map[rune]rune{}, map[rune]bool{}, map[rune]bool{}
	if translate {
		for i, r := range set1 {
			if r < 256 && set2[i] < 256 {
				t.mapB[r] = byte(set2[i])
			}
			t.mapR[r] = set2[i]
		}
		if comp && t.wide {
			t.compMap, t.compMapTo = true, set2[len(set2)-1]
		}
	}
	if t.del {
		for _, r := range set1 {
			if r < 256 {
				t.delB[r] = true
			}
			t.delR[r] = true
		}
		if comp && t.wide {
			t.compDelR = true
		}
	}
	if t.squeeze {
		sq := set1
		if translate || t.del {
			sq = set2
		}
		for _, r := range sq {
			if r < 256 {
				t.squeezeB[r] = true
			}
			t.squeezeR[r] = true
		}
		if comp && t.wide && !(translate || t.del) {
			t.compSqR = true
		}
	}
}

func (t *tr) run(r io.Reader, out *bufio.Writer) error {
	if t.wide {
		return t.runWide(r, out)
	}
	buf := make([]byte, 64<<10)
	obuf := make([]byte, 64<<10)
	last := -1
	var keep, sq [256]byte // 1 for bytes not deleted, for bytes squeezed
	for c := range keep {
		if !t.delB[c] {
			keep[c] = 1
		}
		if t.squeezeB[c] {
			sq[c] = 1
		}
	}
	one, single := t.squeezesOne()
	for {
		n, err := r.Read(buf)
		in := buf[:n]
		var o []byte
		switch {
		case !t.del && !t.squeeze:
			o = obuf[:len(in)]
			translate(o, in, &t.mapB)
		case !t.squeeze:
			o = obuf[:deleteBytes(obuf, in, &t.mapB, &keep)]
		case single:
			o, last = squeezeByte(obuf[:0], in, one, last)
		default:
			o = obuf[:len(in)]
			j := 0
			for _, c := range in {
				// Write every byte; keep it by moving on. A squeezed
				// byte equals last, so last may take each byte kept
				// or not.
				c2 := t.mapB[c]
				o[j] = c2
				if keep[c] != 0 && (sq[c2] == 0 || int(c2) != last) {
					j++
					last = int(c2)
				}
			}
			o = o[:j]
		}
		if _, werr := out.Write(o); werr != nil {
			return writeErr{werr}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// squeezesOne reports the one byte squeezed when that is all t does
// (tr -s ' '), so that the runs between its repeats can be copied whole.
func (t *tr) squeezesOne() (c byte, ok bool) {
	if t.del {
		return 0, false
	}
	n := 0
	for i := range 256 {
		if t.mapB[i] != byte(i) {
			return 0, false
		}
		if t.squeezeB[i] {
			c, n = byte(i), n+1
		}
	}
	return c, n == 1
}

// squeezeByte appends in to o with each run of c made one c; last is the
// byte written before in (-1 for none), and the new last is returned.
// Text without a repeated c is copied as it is.
func squeezeByte(o, in []byte, c byte, last int) ([]byte, int) {
	for len(in) > 0 {
		i := nextRepeat(in, c, last == int(c))
		if i < 0 {
			o = append(o, in...)
			last = int(in[len(in)-1])
			break
		}
		o = append(o, in[:i]...)
		for i < len(in) && in[i] == c {
			i++
		}
		in, last = in[i:], int(c)
	}
	return o, last
}

// nextRepeat returns the index of the first c in b that follows another
// c (or, at 0, follows a c before b when prev is set), or -1. It tests
// eight bytes a step: a byte's high bit in t is set exactly where the
// byte is c, and t<<8 carries each flag to the byte after it.
func nextRepeat(b []byte, c byte, prev bool) int {
	const low7 = 0x7f7f7f7f7f7f7f7f
	pat := uint64(c) * 0x0101010101010101
	var carry uint64
	if prev {
		carry = 0x80
	}
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:]) ^ pat
		t := ^((x&low7 + low7) | x | low7)
		if p := t & (t<<8 | carry); p != 0 {
			return i + bits.TrailingZeros64(p)>>3
		}
		carry = t >> 56
	}
	for ; i < len(b); i++ {
		if b[i] == c {
			if carry != 0 {
				return i
			}
			carry = 0x80
		} else {
			carry = 0
		}
	}
	return -1
}

// deleteBytes writes to dst the bytes of src that keep marks, each mapped
// through m, and returns how many: every byte is written and the kept
// ones are moved past, eight a step, with no branch per byte. The writes
// are unchecked: the count written never passes the count read, and dst
// is as long as src.
func deleteBytes(dst, src []byte, m, keep *[256]byte) int {
	dst = dst[:len(src)]
	d := unsafe.Pointer(unsafe.SliceData(dst))
	put := func(j int, c byte) { *(*byte)(unsafe.Add(d, j)) = c }
	j := 0
	for len(src) >= 8 {
		s := src[:8:8]
		put(j, m[s[0]])
		j += int(keep[s[0]])
		put(j, m[s[1]])
		j += int(keep[s[1]])
		put(j, m[s[2]])
		j += int(keep[s[2]])
		put(j, m[s[3]])
		j += int(keep[s[3]])
		put(j, m[s[4]])
		j += int(keep[s[4]])
		put(j, m[s[5]])
		j += int(keep[s[5]])
		put(j, m[s[6]])
		j += int(keep[s[6]])
		put(j, m[s[7]])
		j += int(keep[s[7]])
		src = src[8:]
	}
	for _, c := range src {
		dst[j] = m[c]
		j += int(keep[c])
	}
	return j
}

// translate sets dst[i] to m[src[i]], eight bytes a step: under wasm the
// loop's own overhead outweighs the lookups.
func translate(dst, src []byte, m *[256]byte) {
	for len(src) >= 8 && len(dst) >= 8 {
		d, s := dst[:8:8], src[:8:8]
		d[0], d[1], d[2], d[3] = m[s[0]], m[s[1]], m[s[2]], m[s[3]]
		d[4], d[5], d[6], d[7] = m[s[4]], m[s[5]], m[s[6]], m[s[7]]
		dst, src = dst[8:], src[8:]
	}
	for i, c := range src {
		dst[i] = m[c]
	}
}

// runWide translates UTF-8 characters; invalid bytes pass through. It
// streams, carrying a character split between two reads over to the next.
func (t *tr) runWide(r io.Reader, out *bufio.Writer) error {
	buf := make([]byte, 64<<10)
	carry := 0
	last := rune(-1)
	for {
		n, err := r.Read(buf[carry:])
		data := buf[:carry+n]
		eof := err != nil
		i := 0
		for i < len(data) {
			if !eof && !utf8.FullRune(data[i:]) {
				break
			}
			c, n := utf8.DecodeRune(data[i:])
			raw := c == utf8.RuneError && n == 1
			if raw {
				c = rune(data[i])
			}
			i += n
			inComp := t.compSet != nil && !t.compSet[c]
			if t.del && (t.delR[c] && !t.compDelR || t.compDelR && inComp) {
				continue
			}
			if m, ok := t.mapR[c]; ok && !t.compMap {
				c = m
			} else if t.compMap && inComp {
				c = t.compMapTo
			}
			if t.squeeze && (t.squeezeR[c] || t.compSqR && t.compSet != nil && !t.compSet[c]) && c == last {
				continue
			}
			last = c
			if raw && c < 256 {
				out.WriteByte(byte(c))
			} else {
				out.WriteRune(c)
			}
		}
		carry = copy(buf, data[i:])
		if _, werr := out.Write(nil); werr != nil {
			return writeErr{werr}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// hasMultibyte reports whether s holds a multibyte UTF-8 character.
func hasMultibyte(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if n > 1 && r != utf8.RuneError {
			return true
		}
		i += n
	}
	return false
}
