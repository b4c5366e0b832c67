package modsandbox

import (
	"context"
	"testing"
)

func BenchmarkCreate(b *testing.B) {
	rt := sharedRuntime()
	cfg := baseConfig()
	for b.Loop() {
		in, err := rt.Create(cfg)
		if err != nil {
			b.Fatal(err)
		}
		in.Destroy()
	}
}

// BenchmarkLoadSmall loads a small module into a fresh instance: checks,
// instrumentation, compilation (memoized by the engine after the first)
// and instantiation.
func BenchmarkLoadSmall(b *testing.B) {
	ctx := context.Background()
	bin := readTestdata(b, "small.wasm")
	rt := sharedRuntime()
	cfg := baseConfig()
	for b.Loop() {
		in, _ := rt.Create(cfg)
		if err := in.Load(ctx, bin); err != nil {
			b.Fatal(err)
		}
		in.Destroy()
	}
}

func benchExecute(b *testing.B, action string, payload any) {
	ctx := context.Background()
	in := loaded(b, baseConfig())
	for b.Loop() {
		if r := in.Execute(ctx, action, payload); !r.OK {
			b.Fatal(r.Error)
		}
	}
}

func BenchmarkExecuteSimple(b *testing.B) { benchExecute(b, "add", []int{1, 2}) }
func BenchmarkExecuteFib20(b *testing.B)  { benchExecute(b, "fib", 20) }
func BenchmarkExecuteJSON(b *testing.B)   { benchExecute(b, "echo", map[string]int{"a": 1}) }

// oneMiB returns an instance with 1 MiB of memory and its snapshot.
func oneMiB(b *testing.B) (*Instance, []byte) {
	in := loaded(b, baseConfig())
	if r := in.Execute(context.Background(), "growmem", 15); !r.OK {
		b.Fatal(r.Error)
	}
	snap, err := in.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	if m := in.Metrics().MemoryBytes; m != 1<<20 {
		b.Fatalf("memory %d", m)
	}
	return in, snap
}

func BenchmarkSnapshot1MiB(b *testing.B) {
	in, _ := oneMiB(b)
	b.SetBytes(1 << 20)
	for b.Loop() {
		if _, err := in.Snapshot(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRestore1MiB(b *testing.B) {
	in, snap := oneMiB(b)
	ctx := context.Background()
	b.SetBytes(1 << 20)
	for b.Loop() {
		if err := in.Restore(ctx, snap); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCreateLoadExecute(b *testing.B) {
	ctx := context.Background()
	bin := readTestdata(b, "small.wasm")
	rt := sharedRuntime()
	cfg := baseConfig()
	for b.Loop() {
		in, _ := rt.Create(cfg)
		if err := in.Load(ctx, bin); err != nil {
			b.Fatal(err)
		}
		if r := in.Execute(ctx, "add", []int{1, 2}); !r.OK {
			b.Fatal(r.Error)
		}
		in.Destroy()
	}
}
