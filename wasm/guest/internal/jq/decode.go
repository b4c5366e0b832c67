package jq

import (
	"errors"
	"io"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A decoder reads a stream of JSON texts, one value a call, into the
// values gojq works on: map[string]any, []any, float64, string, bool and
// nil. It reads what encoding/json's Decoder reads, into the same values,
// and words its errors the same way (a *syntaxError with the text and
// stream offset of encoding/json's *json.SyntaxError, io.ErrUnexpectedEOF for a text cut short, io.EOF at the
// end), but several times faster: under WebAssembly the standard
// library's scanner, a function call a byte, was most of jq's time.
//
// One difference: a number too large for a float64 reads as the largest
// float64 of its sign, as jq reads it, where encoding/json fails.
type decoder struct {
	r    io.Reader
	buf  []byte
	pos  int   // next byte to read in buf
	base int64 // stream offset of buf[0]
	rerr error // the reader's error, once it returned one
	err  error // the error that ended the stream
	tmp  []byte
	strs *stringCache // strings made lately, each allocated once
	last []string     // the keys last read at each place in an object

	// With recycle set, each call of Decode makes its value of the
	// objects and arrays the value before was made of (see setRecycle).
	recycle bool
	objects []map[string]any // the objects made, in the order made
	arrays  [][]any          // the arrays made, likewise
	nobj    int              // how many of objects the last value has
	narr    int              // how many of arrays the last value has
}

// maxDepth is how deeply arrays and objects may nest, as in encoding/json.
const maxDepth = 10000

func newDecoder(r io.Reader) *decoder {
	d := &decoder{buf: make([]byte, 0, 64<<10), strs: new(stringCache)}
	d.reset(r)
	return d
}

// reset makes d read a new stream from r, keeping its buffers.
func (d *decoder) reset(r io.Reader) {
	d.r, d.buf, d.pos, d.base, d.rerr, d.err = r, d.buf[:0], 0, 0, nil, nil
}

// setRecycle makes each call of Decode remake the objects and arrays of
// the value it returned before, which saves allocating (and collecting)
// them again and again over a stream of many small values. Only a caller
// that no longer holds or shares any part of a value when it asks for the
// next may set it: that value's objects are emptied and refilled.
func (d *decoder) setRecycle() { d.recycle = true }

// Limits on what is kept for recycling: past them an object or array is
// allocated and dropped as usual. Emptying an object costs as much as its
// capacity, and a map never shrinks: only small ones are kept.
const (
	maxRecycled         = 4096 // objects, and arrays, kept
	maxRecycledKeys     = 8    // keys an object may have to be kept
	maxRecycledElements = 1024 // elements an array may hold to be kept
)

// recycleLast empties the objects and arrays of the value last returned,
// so that the next is made of them.
func (d *decoder) recycleLast() {
	for i, m := range d.objects[:d.nobj] {
		if len(m) > maxRecycledKeys {
			d.objects[i] = nil
			continue
		}
		clear(m)
	}
	for i, a := range d.arrays[:d.narr] {
		if cap(a) > maxRecycledElements {
			d.arrays[i] = nil
			continue
		}
		clear(a)
		d.arrays[i] = a[:0]
	}
	d.nobj, d.narr = 0, 0
}

// newObject returns an empty object for the value being read.
func (d *decoder) newObject() map[string]any {
	if !d.recycle {
		return map[string]any{}
	}
	if d.nobj < len(d.objects) {
		m := d.objects[d.nobj]
		if m == nil {
			m = map[string]any{}
			d.objects[d.nobj] = m
		}
		d.nobj++
		return m
	}
	m := map[string]any{}
	if len(d.objects) < maxRecycled {
		d.objects = append(d.objects, m)
		d.nobj++
	}
	return m
}

// newArray returns an empty array for the value being read, and the
// place to give to doneArray once it is filled (-1 for none).
func (d *decoder) newArray() ([]any, int) {
	if !d.recycle {
		return []any{}, -1
	}
	if d.narr < len(d.arrays) {
		d.narr++
		if a := d.arrays[d.narr-1]; a != nil {
			return a, d.narr - 1
		}
		return []any{}, d.narr - 1
	}
	if len(d.arrays) < maxRecycled {
		d.arrays = append(d.arrays, nil)
		d.narr++
		return []any{}, d.narr - 1
	}
	return []any{}, -1
}

// doneArray records the array a, filled, at place i of d.arrays.
func (d *decoder) doneArray(a []any, i int) {
	if i >= 0 {
		d.arrays[i] = a
	}
}

// errShort stops the parse when the input ends inside a value.
var errShort = io.ErrUnexpectedEOF

// Decode returns the next value of the stream, io.EOF after the last, or
// the error that ends the stream (then returned by every later call).
func (d *decoder) Decode() (v any, err error) {
	if d.err != nil {
		return nil, d.err
	}
	if d.recycle {
		d.recycleLast()
	}
	c, ok := d.skipSpace()
	if !ok {
		return nil, d.fail(io.EOF)
	}
	v, err = d.value(c, 0)
	if err != nil {
		return nil, d.fail(err)
	}
	return v, nil
}

func (d *decoder) fail(err error) error {
	if err == errShort && d.rerr != nil && d.rerr != io.EOF {
		err = d.rerr
	}
	d.err = err
	return err
}

// fill reads more input, keeping buf[d.pos:]; it returns false at the end
// of the input.
func (d *decoder) fill() bool {
	if d.rerr != nil {
		return false
	}
	if d.pos > 0 {
		n := copy(d.buf, d.buf[d.pos:])
		d.base += int64(d.pos)
		d.buf, d.pos = d.buf[:n], 0
	}
	if len(d.buf) == cap(d.buf) {
		d.buf = append(d.buf, 0)[:len(d.buf)]
	}
	for {
		n, err := d.r.Read(d.buf[len(d.buf):cap(d.buf)])
		d.buf = d.buf[:len(d.buf)+n]
		if err != nil {
			d.rerr = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// next returns the next byte, false at the end of the input.
func (d *decoder) next() (byte, bool) {
	if d.pos == len(d.buf) && !d.fill() {
		return 0, false
	}
	c := d.buf[d.pos]
	d.pos++
	return c, true
}

// skipSpace returns the next byte that is not JSON white space.
func (d *decoder) skipSpace() (byte, bool) {
	for {
		for d.pos < len(d.buf) {
			c := d.buf[d.pos]
			d.pos++
			if c > ' ' || c != ' ' && c != '\n' && c != '\t' && c != '\r' {
				return c, true
			}
		}
		if !d.fill() {
			return 0, false
		}
	}
}

// A syntaxError is a JSON syntax error, worded as encoding/json words it,
// at the offset in the stream just after the byte that is wrong.
type syntaxError struct {
	msg    string
	Offset int64
}

func (e *syntaxError) Error() string { return e.msg }

// syntax reports the byte just read as invalid where context says.
func (d *decoder) syntax(c byte, context string) error {
	return &syntaxError{msg: "invalid character " + quoteChar(c) + " " + context, Offset: d.base + int64(d.pos)}
}

// value reads the value that starts with c, the byte just read, at the
// given nesting depth.
func (d *decoder) value(c byte, depth int) (any, error) {
	switch {
	case c == '"':
		return d.str()
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '-' || '0' <= c && c <= '9':
		return d.number(c)
	case c == 't':
		return true, d.literal("rue", "true")
	case c == 'f':
		return false, d.literal("alse", "false")
	case c == 'n':
		return nil, d.literal("ull", "null")
	}
	return nil, d.syntax(c, "looking for beginning of value")
}

func (d *decoder) literal(rest, name string) error {
	for i := 0; i < len(rest); i++ {
		c, ok := d.next()
		if !ok {
			return errShort
		}
		if c != rest[i] {
			return d.syntax(c, "in literal "+name+" (expecting "+quoteChar(rest[i])+")")
		}
	}
	return nil
}

func (d *decoder) object(depth int) (any, error) {
	if depth > maxDepth {
		return nil, d.syntax('{', "exceeded max depth")
	}
	m := d.newObject()
	c, ok := d.skipSpace()
	if !ok {
		return nil, errShort
	}
	if c == '}' {
		return m, nil
	}
	for i := 0; ; i++ {
		if c != '"' {
			return nil, d.syntax(c, "looking for beginning of object key string")
		}
		k, err := d.key(i)
		if err != nil {
			return nil, err
		}
		if c, ok = d.skipSpace(); !ok {
			return nil, errShort
		}
		if c != ':' {
			return nil, d.syntax(c, "after object key")
		}
		if c, ok = d.skipSpace(); !ok {
			return nil, errShort
		}
		v, err := d.value(c, depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
		if c, ok = d.skipSpace(); !ok {
			return nil, errShort
		}
		switch c {
		case '}':
			return m, nil
		case ',':
			if c, ok = d.skipSpace(); !ok {
				return nil, errShort
			}
		default:
			return nil, d.syntax(c, "after object key:value pair")
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	if depth > maxDepth {
		return nil, d.syntax('[', "exceeded max depth")
	}
	a, place := d.newArray()
	c, ok := d.skipSpace()
	if !ok {
		return nil, errShort
	}
	if c == ']' {
		return a, nil
	}
	for {
		v, err := d.value(c, depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		if c, ok = d.skipSpace(); !ok {
			return nil, errShort
		}
		switch c {
		case ']':
			d.doneArray(a, place)
			return a, nil
		case ',':
			if c, ok = d.skipSpace(); !ok {
				return nil, errShort
			}
		default:
			return nil, d.syntax(c, "after array element")
		}
	}
}

// key reads the object key at place i in its object, its opening quote
// already read. Objects of one stream mostly list the same keys in the
// same order, so the key last read at the same place is tried first,
// which costs a comparison where the string cache costs a hash too.
func (d *decoder) key(i int) (string, error) {
	b, err := d.strBytes()
	if err != nil {
		return "", err
	}
	if i < len(d.last) && d.last[i] == string(b) {
		return d.last[i], nil
	}
	k := d.strs.entry(b).s
	switch {
	case i < len(d.last):
		d.last[i] = k
	case i == len(d.last) && i < maxPlaces:
		d.last = append(d.last, k)
	}
	return k, nil
}

// maxPlaces is how many places of an object remember their last key.
const maxPlaces = 64

// str reads a string, its opening quote already read.
func (d *decoder) str() (any, error) {
	b, err := d.strBytes()
	if err != nil {
		return nil, err
	}
	if len(b) > maxCachedLen {
		return string(b), nil
	}
	e := d.strs.entry(b)
	if e.v == nil {
		e.v = e.s
	}
	return e.v, nil
}

// A stringCache holds the strings a decoder made lately, so that one that
// recurs in the stream (an object key, or a value such as a name, a type
// or a date) is allocated once and not each time it is read: under
// WebAssembly an allocation, and the collection that follows it, cost far
// more than a hash and a comparison. It is direct-mapped: each string has
// one slot, chosen by a hash of its bytes, and takes it over from the
// string there, so the cache stays small whatever the stream holds.
type stringCache [stringCacheSlots]cachedString

// A cachedString is a string and, once it was read as a value, the same
// string as an any, so that reading it again does not box it again.
type cachedString struct {
	s string
	v any // nil or s
}

const (
	stringCacheSlots = 1024 // a power of two
	maxCachedLen     = 32   // longer strings seldom recur
)

// entry returns the slot holding the string b, made to hold it if it
// held another.
func (c *stringCache) entry(b []byte) *cachedString {
	h := uint32(2166136261) // FNV-1a
	for _, x := range b {
		h = (h ^ uint32(x)) * 16777619
	}
	e := &c[(h^h>>16)%stringCacheSlots]
	if e.s != string(b) {
		*e = cachedString{s: string(b)}
	}
	return e
}

// strBytes reads a string's contents, its opening quote already read, and
// returns them decoded, valid only until the next read. Bytes that are not
// valid UTF-8 become U+FFFD, each by itself, as encoding/json has them.
func (d *decoder) strBytes() ([]byte, error) {
	// The common case: no escapes, within the buffer.
	high := false
	for i := d.pos; i < len(d.buf); i++ {
		c := d.buf[i]
		if c == '"' {
			s := d.buf[d.pos:i]
			if high && !utf8.Valid(s) {
				break
			}
			d.pos = i + 1
			return s, nil
		}
		if c < ' ' || c == '\\' {
			break
		}
		high = high || c >= utf8.RuneSelf
	}
	d.tmp, high = d.tmp[:0], false
	for {
		c, ok := d.next()
		if !ok {
			return nil, errShort
		}
		switch {
		case c == '"':
			if high && !utf8.Valid(d.tmp) {
				// Escapes write valid UTF-8 that starts with no
				// continuation byte, so a bad sequence of the text
				// is bad here alone.
				d.tmp = replaceInvalid(d.tmp)
			}
			return d.tmp, nil
		case c == '\\':
			if err := d.escape(); err != nil {
				return nil, err
			}
		case c < ' ':
			return nil, d.syntax(c, "in string literal")
		default:
			high = high || c >= utf8.RuneSelf
			d.tmp = append(d.tmp, c)
		}
	}
}

// replaceInvalid returns b with each byte that does not belong to a valid
// UTF-8 sequence replaced by U+FFFD.
func replaceInvalid(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// escape reads an escape sequence, its backslash already read.
func (d *decoder) escape() error {
	c, ok := d.next()
	if !ok {
		return errShort
	}
	switch c {
	case '"', '\\', '/':
		d.tmp = append(d.tmp, c)
	case 'b':
		d.tmp = append(d.tmp, '\b')
	case 'f':
		d.tmp = append(d.tmp, '\f')
	case 'n':
		d.tmp = append(d.tmp, '\n')
	case 'r':
		d.tmp = append(d.tmp, '\r')
	case 't':
		d.tmp = append(d.tmp, '\t')
	case 'u':
		r, err := d.hex4()
		if err != nil {
			return err
		}
		if utf16.IsSurrogate(r) {
			r = d.lowSurrogate(r)
		}
		d.tmp = utf8.AppendRune(d.tmp, r)
	default:
		return d.syntax(c, "in string escape code")
	}
	return nil
}

// lowSurrogate completes the pair that the surrogate r starts when a \u
// escape of a low surrogate follows, and returns U+FFFD otherwise, leaving
// what follows to be read as usual.
func (d *decoder) lowSurrogate(r rune) rune {
	for len(d.buf)-d.pos < 6 && d.fill() {
	}
	if rest := d.buf[d.pos:]; len(rest) >= 6 && rest[0] == '\\' && rest[1] == 'u' {
		if r2, ok := parseHex4(rest[2:6]); ok {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				d.pos += 6
				return dec
			}
		}
	}
	return utf8.RuneError
}

func (d *decoder) hex4() (rune, error) {
	var r rune
	for range 4 {
		c, ok := d.next()
		if !ok {
			return 0, errShort
		}
		h, ok := hexDigit(c)
		if !ok {
			return 0, d.syntax(c, "in \\u hexadecimal character escape")
		}
		r = r<<4 | h
	}
	return r, nil
}

func parseHex4(b []byte) (rune, bool) {
	var r rune
	for _, c := range b {
		h, ok := hexDigit(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | h
	}
	return r, true
}

func hexDigit(c byte) (rune, bool) {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0'), true
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10), true
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10), true
	}
	return 0, false
}

// number reads a number that starts with c, the byte just read. A number
// ends at the first byte that cannot continue it, which is left unread
// (the end of the input ends it too).
func (d *decoder) number(c byte) (any, error) {
	d.tmp = append(d.tmp[:0], c)
	neg := c == '-'
	if neg {
		b, ok := d.next()
		if !ok {
			return nil, errShort
		}
		if b < '0' || b > '9' {
			return nil, d.syntax(b, "in numeric literal")
		}
		d.tmp = append(d.tmp, b)
		c = b
	}
	// Integer part: 0, or digits not starting with 0.
	integer := true
	if c != '0' {
		d.digits()
	}
	if c, ok := d.peek(); ok && c == '.' {
		integer = false
		d.pos++
		d.tmp = append(d.tmp, c)
		b, ok := d.next()
		if !ok {
			return nil, errShort
		}
		if b < '0' || b > '9' {
			return nil, d.syntax(b, "after decimal point in numeric literal")
		}
		d.tmp = append(d.tmp, b)
		d.digits()
	}
	if c, ok := d.peek(); ok && (c == 'e' || c == 'E') {
		integer = false
		d.pos++
		d.tmp = append(d.tmp, c)
		b, ok := d.next()
		if !ok {
			return nil, errShort
		}
		if b == '+' || b == '-' {
			d.tmp = append(d.tmp, b)
			if b, ok = d.next(); !ok {
				return nil, errShort
			}
		}
		if b < '0' || b > '9' {
			return nil, d.syntax(b, "in exponent of numeric literal")
		}
		d.tmp = append(d.tmp, b)
		d.digits()
	}
	digits := d.tmp
	if neg {
		digits = digits[1:]
	}
	// Up to 15 digits convert exactly without strconv.
	if integer && len(digits) <= 15 {
		var n int64
		for _, c := range digits {
			n = n*10 + int64(c-'0')
		}
		if neg {
			if n == 0 {
				return math.Copysign(0, -1), nil
			}
			n = -n
		}
		return float64(n), nil
	}
	f, err := strconv.ParseFloat(string(d.tmp), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, err
	}
	if math.IsInf(f, 0) {
		f = math.Copysign(math.MaxFloat64, f)
	}
	return f, nil
}

// digits copies the decimal digits that follow into d.tmp.
func (d *decoder) digits() {
	for {
		for d.pos < len(d.buf) {
			c := d.buf[d.pos]
			if c < '0' || c > '9' {
				return
			}
			d.tmp = append(d.tmp, c)
			d.pos++
		}
		if !d.fill() {
			return
		}
	}
}

// peek returns the next byte without reading it.
func (d *decoder) peek() (byte, bool) {
	if d.pos == len(d.buf) && !d.fill() {
		return 0, false
	}
	return d.buf[d.pos], true
}

// quoteChar formats c for a syntax error as encoding/json does.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}
