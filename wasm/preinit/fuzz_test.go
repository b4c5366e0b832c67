package preinit_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/preinit"
)

// FuzzImage checks that Image never panics and that whatever it returns
// decodes again.
func FuzzImage(f *testing.F) {
	if b, err := os.ReadFile("testdata/reactor.wasm"); err == nil {
		f.Add(b)
	}
	f.Add(module(nil, map[string][]byte{"_initialize": nop, "wasmsand_main": nop}))
	f.Add(module(nil, map[string][]byte{"_initialize": trap, "wasmsand_main": nop}))
	f.Fuzz(func(t *testing.T, b []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		img, err := preinit.Image(ctx, b, preinit.Options{})
		if err != nil {
			return
		}
		if _, err := binary.Decode(img); err != nil {
			t.Fatalf("the image does not decode: %v", err)
		}
	})
}
