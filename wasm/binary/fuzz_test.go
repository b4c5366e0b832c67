package binary

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/wasmsand/wasmsand/wasm"
)

// FuzzDecode checks that no input makes Decode or the instruction walker
// panic, that errors wrap wasm.ErrInvalidModule, and that whatever
// decodes re-encodes to a module that decodes to the same encoding.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.wasm"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(Magic + Version))
	f.Add(withBody("\xfd\x0c" + string(make([]byte, 16)) + "\x1a"))
	f.Add(withBody("\x02\x40\x0e\x01\x00\x00\x0b\x41\x7f\x1a"))
	f.Fuzz(func(t *testing.T, bin []byte) {
		m, err := Decode(bin)
		if err != nil {
			if !errors.Is(err, wasm.ErrInvalidModule) {
				t.Fatalf("error %v does not wrap ErrInvalidModule", err)
			}
			return
		}
		for i := range m.Codes {
			if err := CheckBody(m.Codes[i].Body, m.Codes[i].BodyOffset); err != nil && !errors.Is(err, wasm.ErrInvalidModule) {
				t.Fatalf("body error %v does not wrap ErrInvalidModule", err)
			}
		}
		out := m.Encode()
		m2, err := Decode(out)
		if err != nil {
			t.Fatalf("re-encoded module does not decode: %v", err)
		}
		if out2 := m2.Encode(); !bytes.Equal(out, out2) {
			t.Fatalf("encoding is not stable")
		}
	})
}
