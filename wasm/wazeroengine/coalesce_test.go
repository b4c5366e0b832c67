package wazeroengine

import (
	"bytes"
	"context"
	"testing"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/coalesce"
)

// TestCoalesceGoHello checks that the coalesced hello world starts with
// exactly the memory of the original, and is far smaller in segments.
func TestCoalesceGoHello(t *testing.T) {
	bin := helloWasm(t)
	out := coalesce.Data(bin)
	if bytes.Equal(out, bin) {
		t.Fatal("the hello world's data segments were not coalesced")
	}
	ctx := context.Background()
	e, err := New(ctx, Config{Interpreter: true, HostModules: []wasm.HostModule{testWASI()}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	memory := func(b []byte) []byte {
		cm, err := e.rt.CompileModule(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		mod, err := e.rt.InstantiateModule(ctx, cm, e.modCfg)
		if err != nil {
			t.Fatal(err)
		}
		defer mod.Close(ctx)
		m := mod.Memory()
		buf, _ := m.Read(0, m.Size())
		return bytes.Clone(buf)
	}
	if !bytes.Equal(memory(bin), memory(out)) {
		t.Error("the coalesced module starts with different memory")
	}
	segments := func(b []byte) int {
		m, err := binary.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		return len(m.Datas)
	}
	before, after := segments(bin), segments(out)
	t.Logf("data segments: %d → %d; size %d → %d bytes", before, after, len(bin), len(out))
	if after*100 > before {
		t.Errorf("only %d → %d segments", before, after)
	}
}
