package memsize

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
)

// FuzzApply checks that Apply never panics on any bytes and that whatever
// it rewrites, wazero still accepts when it accepted the original.
func FuzzApply(f *testing.F) {
	f.Add(testModule(0).Encode())
	f.Add(testModule(3).Encode())
	f.Add([]byte("\x00asm\x01\x00\x00\x00"))
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	f.Fuzz(func(t *testing.T, bin []byte) {
		out, ok := Apply(bin)
		if !ok {
			return
		}
		if _, err := rt.CompileModule(ctx, bin); err != nil {
			return // garbage in: only the absence of a panic matters
		}
		if _, err := rt.CompileModule(ctx, out); err != nil {
			t.Fatalf("the original compiles, the rewrite does not: %v", err)
		}
	})
}
