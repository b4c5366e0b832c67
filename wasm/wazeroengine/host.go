package wazeroengine

import (
	"context"
	"fmt"
	"reflect"

	"github.com/tetratelabs/wazero/api"

	"github.com/wasmsand/wasmsand/wasm"
)

// instantiateHost defines and instantiates one host module on the runtime.
func (e *Engine) instantiateHost(ctx context.Context, hm *wasm.HostModule) error {
	b := e.rt.NewHostModuleBuilder(hm.Name)
	for _, hf := range hm.Funcs {
		params, err := valueTypes(hf.Params)
		if err != nil {
			return fmt.Errorf("wazeroengine: host function %s.%s: %w", hm.Name, hf.Name, err)
		}
		results, err := valueTypes(hf.Results)
		if err != nil {
			return fmt.Errorf("wazeroengine: host function %s.%s: %w", hm.Name, hf.Name, err)
		}
		if hf.Fn == nil {
			return fmt.Errorf("wazeroengine: host function %s.%s has no Fn", hm.Name, hf.Name)
		}
		b.NewFunctionBuilder().
			WithGoModuleFunction(hostFunc(hf.Fn), params, results).
			Export(hf.Name)
	}
	if _, err := b.Instantiate(ctx); err != nil {
		return fmt.Errorf("wazeroengine: host module %q: %w", hm.Name, err)
	}
	return nil
}

// hostFunc adapts a HostFn. wazero hands it the ctx of the guest's Call and
// the calling module, whose memory api.Memory already implements wasm.Memory.
func hostFunc(fn wasm.HostFn) api.GoModuleFunc {
	return func(ctx context.Context, mod api.Module, stack []uint64) {
		fn(ctx, memoryOf(mod), stack)
	}
}

// memoryOf returns the memory of mod, or nil if it has none. wazero returns
// a typed nil pointer in the latter case, which must not leak as a non-nil
// interface.
func memoryOf(mod api.Module) wasm.Memory {
	mem := mod.Memory()
	if mem == nil || reflect.ValueOf(mem).IsNil() {
		return nil
	}
	return mem
}

func valueTypes(ts []wasm.ValueType) ([]api.ValueType, error) {
	out := make([]api.ValueType, len(ts))
	for i, t := range ts {
		switch t {
		case wasm.I32, wasm.I64, wasm.F32, wasm.F64:
			out[i] = api.ValueType(t) // same encoding as the binary format
		default:
			return nil, fmt.Errorf("unsupported value type 0x%x", byte(t))
		}
	}
	return out, nil
}
