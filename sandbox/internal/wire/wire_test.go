package wire

import (
	"errors"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var w Writer
	w.Uvarint(300)
	w.Varint(-5)
	w.Bool(true)
	w.Byte(7)
	w.String("hé")
	w.Bytes([]byte{1, 2})
	w.Strings([]string{"a", "", "bc"})
	r := NewReader(w.B)
	if r.Uvarint() != 300 || r.Varint() != -5 || !r.Bool() || r.Byte() != 7 || r.String("s") != "hé" ||
		string(r.Bytes("b")) != "\x01\x02" {
		t.Fatal("values differ")
	}
	if s := r.Strings("l"); len(s) != 3 || s[0] != "a" || s[1] != "" || s[2] != "bc" {
		t.Fatalf("Strings = %q", s)
	}
	r.End("all")
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
}

func check(t *testing.T, r *Reader, want string) {
	t.Helper()
	var e *Error
	if !errors.As(r.Err(), &e) || e.Check != want {
		t.Errorf("error %v, want check %q", r.Err(), want)
	}
}

func TestErrors(t *testing.T) {
	r := NewReader([]byte{0x80})
	r.Uvarint()
	check(t, r, CheckTruncated)

	r = NewReader([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	r.Uvarint()
	check(t, r, CheckFormat)

	// A count larger than the bytes left can hold never allocates.
	r = NewReader([]byte{0xff, 0xff, 0x03, 0})
	if n := r.Count(1, "list"); n != 0 {
		t.Errorf("Count = %d", n)
	}
	check(t, r, CheckTruncated)

	r = NewReader([]byte{2})
	r.Bool()
	check(t, r, CheckFormat)

	r = NewReader([]byte{5, 'a'})
	if s := r.String("s"); s != "" {
		t.Errorf("String = %q", s)
	}
	check(t, r, CheckTruncated)

	r = NewReader([]byte{1, 2})
	r.Byte()
	r.End("x")
	check(t, r, CheckFormat)

	// The first error sticks; later reads give zeros.
	r = NewReader([]byte{3})
	r.Int(0, 2, "n")
	check(t, r, CheckFormat)
	if r.Uvarint() != 0 || r.Byte() != 0 {
		t.Error("reads after an error are not zero")
	}
}
