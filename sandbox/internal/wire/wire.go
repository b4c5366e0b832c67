// Package wire holds the primitives of wasmsand's snapshot encoding:
// unsigned and zigzag varints (as encoding/binary writes them),
// length-prefixed strings and byte strings, and a reader that remembers
// its first error and names the check that failed.
package wire

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Checks named by decoding errors.
const (
	CheckTruncated = "truncated" // the bytes end inside a value
	CheckFormat    = "format"    // a value is out of range or inconsistent
)

// Error is a decoding failure: Check names what failed.
type Error struct {
	Check string
	Msg   string
}

func (e *Error) Error() string { return e.Check + ": " + e.Msg }

// Writer appends encoded values to B.
type Writer struct{ B []byte }

// Uvarint appends u.
func (w *Writer) Uvarint(u uint64) { w.B = binary.AppendUvarint(w.B, u) }

// Varint appends v, zigzag encoded.
func (w *Writer) Varint(v int64) { w.B = binary.AppendVarint(w.B, v) }

// Byte appends c.
func (w *Writer) Byte(c byte) { w.B = append(w.B, c) }

// Bool appends b as one byte, 0 or 1.
func (w *Writer) Bool(b bool) {
	if b {
		w.B = append(w.B, 1)
	} else {
		w.B = append(w.B, 0)
	}
}

// String appends the length of s and s.
func (w *Writer) String(s string) {
	w.Uvarint(uint64(len(s)))
	w.B = append(w.B, s...)
}

// Bytes appends the length of p and p.
func (w *Writer) Bytes(p []byte) {
	w.Uvarint(uint64(len(p)))
	w.B = append(w.B, p...)
}

// Strings appends a count and each string.
func (w *Writer) Strings(list []string) {
	w.Uvarint(uint64(len(list)))
	for _, s := range list {
		w.String(s)
	}
}

// Reader decodes values from a byte slice. After the first error every
// method returns a zero value; Err reports that error.
type Reader struct {
	b   []byte
	err error
}

// NewReader returns a Reader over b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Err returns the first error met, or nil.
func (r *Reader) Err() error { return r.err }

// Len is the number of bytes not yet read.
func (r *Reader) Len() int { return len(r.b) }

// Fail records a format error (if none is recorded yet).
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		r.err = &Error{Check: CheckFormat, Msg: fmt.Sprintf(format, args...)}
	}
}

func (r *Reader) truncated(what string) {
	if r.err == nil {
		r.err = &Error{Check: CheckTruncated, Msg: "the bytes end inside " + what}
	}
	r.b = nil
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	u, n := binary.Uvarint(r.b)
	switch {
	case n == 0:
		r.truncated("a number")
		return 0
	case n < 0:
		r.Fail("a number overflows 64 bits")
		return 0
	}
	r.b = r.b[n:]
	return u
}

// Varint reads a zigzag varint.
func (r *Reader) Varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	switch {
	case n == 0:
		r.truncated("a number")
		return 0
	case n < 0:
		r.Fail("a number overflows 64 bits")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Int reads a varint that must lie in [lo, hi].
func (r *Reader) Int(lo, hi int64, what string) int64 {
	v := r.Varint()
	if r.err == nil && (v < lo || v > hi) {
		r.Fail("%s %d out of range", what, v)
		return 0
	}
	return v
}

// Uint reads an unsigned varint that must be at most hi.
func (r *Reader) Uint(hi uint64, what string) uint64 {
	u := r.Uvarint()
	if r.err == nil && u > hi {
		r.Fail("%s %d out of range", what, u)
		return 0
	}
	return u
}

// Count reads the number of items that follow, each at least minSize
// bytes long (minSize ≥ 1), and checks that so many can fit in the bytes
// left, so a corrupt count never makes the caller allocate.
func (r *Reader) Count(minSize int, what string) int {
	u := r.Uvarint()
	if r.err != nil {
		return 0
	}
	if minSize < 1 {
		minSize = 1
	}
	if u > uint64(len(r.b)/minSize) {
		r.truncated(what)
		return 0
	}
	return int(u)
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.err != nil {
		return 0
	}
	if len(r.b) == 0 {
		r.truncated("a byte")
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// Bool reads a byte that must be 0 or 1.
func (r *Reader) Bool() bool {
	c := r.Byte()
	if c > 1 {
		r.Fail("a flag is %d, not 0 or 1", c)
	}
	return c == 1
}

// Raw returns the next n bytes (a slice of the input, not a copy).
func (r *Reader) Raw(n uint64, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.truncated(what)
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

// Bytes reads a length-prefixed byte string (a slice of the input).
func (r *Reader) Bytes(what string) []byte {
	n := r.Uvarint()
	return r.Raw(n, what)
}

// String reads a length-prefixed string.
func (r *Reader) String(what string) string { return string(r.Bytes(what)) }

// Strings reads a count and that many strings.
func (r *Reader) Strings(what string) []string {
	n := r.Count(1, what)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.String(what)
	}
	if r.err != nil {
		return nil
	}
	return out
}

// End checks that every byte was read.
func (r *Reader) End(what string) {
	if r.err == nil && len(r.b) != 0 {
		r.Fail("%d bytes left over after %s", len(r.b), what)
	}
}

// MaxInt is the largest int, for Int bounds.
const MaxInt = math.MaxInt
