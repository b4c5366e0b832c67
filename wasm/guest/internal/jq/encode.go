package jq

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"
)

// encoder writes values as jq prints them: pretty-printed with the given
// indentation (or compact), object keys sorted, NaN as null, infinities
// clamped to ±MaxFloat64, invalid UTF-8 as U+FFFD.
type encoder struct {
	indent  int
	tab     bool
	compact bool
	ascii   bool
	buf     [64]byte
	keys    []string
}

func (e *encoder) newline(w *bufio.Writer, level int) {
	w.WriteByte('\n')
	if e.tab {
		for i := 0; i < level; i++ {
			w.WriteByte('\t')
		}
		return
	}
	for i := 0; i < level*e.indent; i++ {
		w.WriteByte(' ')
	}
}

func (e *encoder) encode(w *bufio.Writer, v any, level int) {
	switch v := v.(type) {
	case nil:
		w.WriteString("null")
	case bool:
		if v {
			w.WriteString("true")
		} else {
			w.WriteString("false")
		}
	case float64:
		e.float(w, v)
	case int:
		w.Write(strconv.AppendInt(e.buf[:0], int64(v), 10))
	case *big.Int:
		w.WriteString(v.String())
	case json.Number:
		if f, err := v.Float64(); err == nil {
			e.float(w, f)
		} else {
			w.WriteString(v.String())
		}
	case string:
		writeString(w, v, e.ascii)
	case []any:
		if len(v) == 0 {
			w.WriteString("[]")
			return
		}
		w.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				w.WriteByte(',')
			}
			if !e.compact {
				e.newline(w, level+1)
			}
			e.encode(w, x, level+1)
		}
		if !e.compact {
			e.newline(w, level)
		}
		w.WriteByte(']')
	case map[string]any:
		if len(v) == 0 {
			w.WriteString("{}")
			return
		}
		// e.keys is a stack of sorted key lists reused across calls: this
		// object's keys sit above those of the objects it is nested in.
		base := len(e.keys)
		for k := range v {
			e.keys = append(e.keys, k)
		}
		keys := e.keys[base:]
		slices.Sort(keys)
		w.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				w.WriteByte(',')
			}
			if !e.compact {
				e.newline(w, level+1)
			}
			writeString(w, k, e.ascii)
			w.WriteByte(':')
			if !e.compact {
				w.WriteByte(' ')
			}
			e.encode(w, v[k], level+1)
		}
		clear(keys) // drop the strings so the stack holds no old values
		e.keys = e.keys[:base]
		if !e.compact {
			e.newline(w, level)
		}
		w.WriteByte('}')
	default:
		w.WriteString("null")
	}
}

// float writes a number as jq does: the shortest digits that read back
// the same, in exponent form ("1e-05", "1e+17") when the decimal point is
// 4 or more places left of the first digit or more than 15 places right
// of the last, in positional form otherwise.
func (e *encoder) float(w *bufio.Writer, f float64) {
	if math.IsNaN(f) {
		w.WriteString("null")
		return
	}
	f = min(max(f, -math.MaxFloat64), math.MaxFloat64)
	if f == math.Trunc(f) && math.Abs(f) < 1e16 {
		if f == 0 && math.Signbit(f) {
			w.WriteString("-0")
			return
		}
		w.Write(strconv.AppendInt(e.buf[:0], int64(f), 10))
		return
	}
	b := strconv.AppendFloat(e.buf[:0], f, 'e', -1, 64)
	m, x, _ := bytes.Cut(b, []byte{'e'})
	exp, _ := strconv.Atoi(string(x))
	digits := len(m)
	if m[0] == '-' {
		digits--
	}
	if digits > 1 {
		digits-- // the decimal point
	}
	if decpt := exp + 1; decpt <= -4 || decpt > digits+15 {
		w.Write(b)
		return
	}
	w.Write(strconv.AppendFloat(e.buf[:0], f, 'f', -1, 64))
}

const hexDigits = "0123456789abcdef"

// writeString writes s as a JSON string with jq's escapes; with ascii,
// non-ASCII characters become \uXXXX escapes.
func writeString(w *bufio.Writer, s string, ascii bool) {
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= ' ' && b != '"' && b != '\\' && b != 0x7f {
				i++
				continue
			}
			w.WriteString(s[start:i])
			switch b {
			case '"':
				w.WriteString(`\"`)
			case '\\':
				w.WriteString(`\\`)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hexDigits[b>>4])
				w.WriteByte(hexDigits[b&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.WriteString(s[start:i])
			if ascii {
				w.WriteString(`\ufffd`)
			} else {
				w.WriteString("\ufffd")
			}
			i += size
			start = i
			continue
		}
		if ascii {
			w.WriteString(s[start:i])
			writeU(w, r)
			i += size
			start = i
			continue
		}
		i += size
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

// writeU writes r as \uXXXX, as a surrogate pair beyond the BMP.
func writeU(w *bufio.Writer, r rune) {
	if r > 0xffff {
		r -= 0x10000
		writeU(w, 0xd800+(r>>10))
		writeU(w, 0xdc00+(r&0x3ff))
		return
	}
	w.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		w.WriteByte(hexDigits[(r>>uint(shift))&0xf])
	}
}

// asciiOnly escapes the non-ASCII characters of a raw string for -r -a.
func asciiOnly(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			var b []byte
			for _, r := range s {
				if r < utf8.RuneSelf {
					b = append(b, byte(r))
					continue
				}
				if r > 0xffff {
					r -= 0x10000
					b = appendU(b, 0xd800+(r>>10))
					b = appendU(b, 0xdc00+(r&0x3ff))
					continue
				}
				b = appendU(b, r)
			}
			return string(b)
		}
	}
	return s
}

func appendU(b []byte, r rune) []byte {
	b = append(b, '\\', 'u')
	for shift := 12; shift >= 0; shift -= 4 {
		b = append(b, hexDigits[(r>>uint(shift))&0xf])
	}
	return b
}
