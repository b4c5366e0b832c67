package instrument

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/wasmsand/wasmsand/wasm"
)

// FuzzInstrument checks that no input makes Instrument panic, that its
// errors wrap wasm.ErrInvalidModule, and that every module wazero accepts
// is still accepted after instrumentation.
func FuzzInstrument(f *testing.F) {
	for _, pattern := range []string{"testdata/*.wasm", "../binary/testdata/*.wasm"} {
		files, _ := filepath.Glob(pattern)
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil && len(b) < 1<<16 {
				f.Add(b)
			}
		}
	}
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter().
		WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesTailCall))
	defer r.Close(ctx)
	valid := func(bin []byte) error {
		cm, err := r.CompileModule(ctx, bin)
		if err == nil {
			cm.Close(ctx)
		}
		return err
	}
	f.Fuzz(func(t *testing.T, bin []byte) {
		out, err := Instrument(bin, Options{Fuel: true, MemoryLimitPages: 100})
		if err != nil {
			if !errors.Is(err, wasm.ErrInvalidModule) {
				t.Fatalf("error %v does not wrap ErrInvalidModule", err)
			}
			return
		}
		if valid(bin) != nil {
			return
		}
		if err := valid(out); err != nil {
			t.Fatalf("valid module became invalid: %v", err)
		}
		guarded, err := Instrument(bin, allGuards(true, 1000))
		if err != nil {
			if !errors.Is(err, wasm.ErrInvalidModule) {
				t.Fatalf("error %v does not wrap ErrInvalidModule", err)
			}
			return
		}
		if err := valid(guarded); err != nil {
			t.Fatalf("valid module became invalid with every guard: %v", err)
		}
	})
}
