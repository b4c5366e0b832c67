package jq

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// decodeAll reads every value of the stream with our decoder.
func decodeAll(r io.Reader) ([]any, error) {
	return decodeEach(newDecoder(r), func(v any) any { return v })
}

// decodeRecycled reads every value of the stream with a decoder that
// remakes each value of the one before, keeping a copy of each.
func decodeRecycled(r io.Reader) ([]any, error) {
	d := newDecoder(r)
	d.setRecycle()
	return decodeEach(d, deepCopy)
}

func decodeEach(d *decoder, keep func(any) any) ([]any, error) {
	var vals []any
	for {
		v, err := d.Decode()
		if err == io.EOF {
			return vals, nil
		}
		if err != nil {
			return vals, err
		}
		vals = append(vals, keep(v))
	}
}

// deepCopy returns a copy of v that shares no array or object with it.
func deepCopy(v any) any {
	switch v := v.(type) {
	case []any:
		w := make([]any, len(v))
		for i, x := range v {
			w[i] = deepCopy(x)
		}
		return w
	case map[string]any:
		w := make(map[string]any, len(v))
		for k, x := range v {
			w[k] = deepCopy(x)
		}
		return w
	}
	return v
}

// stdDecodeAll reads every value of the stream with encoding/json. ok is
// false where the two are meant to differ: a number out of a float64's
// range.
func stdDecodeAll(s string) (vals []any, err error, ok bool) {
	d := json.NewDecoder(strings.NewReader(s))
	for {
		var v any
		err := d.Decode(&v)
		if err == io.EOF {
			return vals, nil, true
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, nil, false
		}
		if err != nil {
			return vals, err, true
		}
		vals = append(vals, v)
	}
}

// sameError reports whether our error says what encoding/json's says, at
// the same offset.
func sameError(ours, std error) bool {
	if ours == nil || std == nil {
		return ours == nil && std == nil
	}
	var se *json.SyntaxError
	if errors.As(std, &se) {
		var oe *syntaxError
		return errors.As(ours, &oe) && oe.Error() == se.Error() && oe.Offset == se.Offset
	}
	return ours.Error() == std.Error()
}

// checkAgainstStd decodes s whole and a byte a read, and compares both
// with encoding/json.
func checkAgainstStd(t *testing.T, s string) {
	t.Helper()
	want, wantErr, ok := stdDecodeAll(s)
	if !ok {
		return
	}
	for _, decode := range []func(io.Reader) ([]any, error){decodeAll, decodeRecycled} {
		for _, r := range []io.Reader{strings.NewReader(s), iotest.OneByteReader(strings.NewReader(s))} {
			got, err := decode(r)
			if !reflect.DeepEqual(got, want) || !sameError(err, wantErr) {
				t.Fatalf("%q:\n got %#v, %v\nwant %#v, %v", s, got, err, want, wantErr)
			}
		}
	}
}

var decodeCases = []string{
	``, ` `, `1`, `1 2 3`, `12`, `01`, `-0`, `-`, `-x`, `1.`, `1.x`, `1.5`, `1e`, `1e+`, `1ex`, `1E-7`, `-12.5e3`,
	`123456789012345`, `1234567890123456789`, `-9007199254740993`, `0.1`, `1.7976931348623157e308`, `4e-400`,
	`true`, `false`, `null`, `tru`, `trux`, `nul`, `fals`, `fAlse`, `nulll`, `truex`,
	`""`, `"abc"`, `"a\"b"`, `"\\/\b\f\n\r\t"`, `"\u0041\u00e9\u20ac"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`,
	`"\ude00"`, `"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`, `"\u12"`, `"\u12g4"`, `"\x"`, "\"a\tb\"", "\"a\nb\"",
	"\"\xff\"", "\"a\xe2\x82\"", "\"\xe2\x82\xac\"", "\"\xed\xa0\x80\"", "\"\xe2\x82\\n\"", "\"é\\u00e9é\"", `"abc`, `"\`,
	`[]`, `[1,2]`, `[ 1 , 2 ]`, `[1 2]`, `[1,]`, `[,1]`, `[`, `[1`, `[01]`, `[[[]]]`, `]`,
	`{}`, `{"a":1}`, `{"a":1,"b":[true,null]}`, `{"a" 1}`, `{"a":1 "b":2}`, `{1:2}`, `{"a":}`, `{"a":1,}`, `{`, `{"a"`, `{"a":1`,
	`{"a":1,"a":2}`, `{}{}`, `[]x`, `{} x`, `"a""b"`, "1\n2\n", " \t\r\n[1]\n", `x`, `'`, `"`, "\x00", `@`,
	`{"date":"2024-01-02","region":"north","amount":123,"code":"K7X3"}`,
	// Keys at the same places as before, in another order, nested,
	// escaped, one a prefix of another (see decoder.key).
	`{"a":1,"b":2} {"a":3,"b":4} {"b":5,"a":6} {"a":{"b":{"a":7}},"ab":8} {"a\u0062":9,"b":1} {"ab":1,"a":2} {"":0,"a":1}`,
	// Values remade of the arrays and objects before them (see
	// decoder.setRecycle), of other shapes, and one cut short.
	`{"a":[1,{"b":2}],"c":{}} [{"a":[]},{"b":[3,4,5]}] {"a":[6],"c":{"d":7}} [] {} [[[8]]] {"a":[9`,
	`{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9} {"k1":1} {"k2":[1,2,3,4,5,6,7,8,9,10]} [1]`,
}

func TestDecodeLikeEncodingJSON(t *testing.T) {
	for _, s := range decodeCases {
		checkAgainstStd(t, s)
	}
	checkAgainstStd(t, strings.Repeat("[", 10001)+strings.Repeat("]", 10001))
	checkAgainstStd(t, strings.Repeat("[", 10000)+strings.Repeat("]", 10000))
	checkAgainstStd(t, `"`+strings.Repeat("x", 100<<10)+`"`)
	checkAgainstStd(t, `"`+strings.Repeat("\\u00e9", 20000)+`"`)
	// More places than the decoder remembers keys for, twice.
	var b strings.Builder
	for range 2 {
		b.WriteString("{")
		for i := range 100 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"k%d":%d`, i%70, i)
		}
		b.WriteString("}")
	}
	checkAgainstStd(t, b.String())
}

// TestDecodeLargeNumbers checks the one chosen difference: a number beyond
// a float64 reads as the largest float64 of its sign, as in jq.
func TestDecodeLargeNumbers(t *testing.T) {
	got, err := decodeAll(strings.NewReader(`1e999 -1e999 [2e400]`))
	want := []any{math.MaxFloat64, -math.MaxFloat64, []any{math.MaxFloat64}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, %v; want %v", got, err, want)
	}
}

// TestDecodeReadError checks a read error that cuts a value short is the
// one returned.
func TestDecodeReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := decodeAll(io.MultiReader(strings.NewReader(`[1,`), iotest.ErrReader(boom)))
	if err != boom {
		t.Fatalf("got %v, want %v", err, boom)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range decodeCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAgainstStd(t, s)
	})
}

// TestDecodeRecycles checks that with setRecycle a value is made of the
// object and array of the one before, and that an object too large to
// keep is not.
func TestDecodeRecycles(t *testing.T) {
	big := "{"
	for i := range maxRecycledKeys + 1 {
		big += fmt.Sprintf(`"k%d":%d,`, i, i)
	}
	big = strings.TrimSuffix(big, ",") + "}"
	d := newDecoder(strings.NewReader(`[{"a":1}] [{"b":2}] [` + big + `] [{"c":3}]`))
	d.setRecycle()
	var objs []uintptr
	var arrs []uintptr
	for range 4 {
		v, err := d.Decode()
		if err != nil {
			t.Fatal(err)
		}
		a := v.([]any)
		arrs = append(arrs, reflect.ValueOf(a).Pointer())
		objs = append(objs, reflect.ValueOf(a[0]).Pointer())
	}
	if arrs[0] != arrs[1] || objs[0] != objs[1] {
		t.Errorf("the second value is not made of the first's array and object")
	}
	if objs[2] != objs[1] || objs[3] == objs[2] {
		t.Errorf("an object of %d keys was kept for the next value", maxRecycledKeys+1)
	}
}
