package wazeroengine

import (
	"context"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
)

// BenchmarkInstantiate measures spawning Go's hello world from a compiled
// module: Instantiate, run _start (Go runtime init and main), Close.
func BenchmarkInstantiate(b *testing.B) {
	bin := helloWasm(b)
	cases := append(engines[:len(engines):len(engines)], struct {
		name string
		cfg  Config
	}{"compiler-wazeromemory", Config{}})
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			cfg := tc.cfg
			cfg.HostModules = []wasm.HostModule{testWASI()}
			e, err := New(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			if tc.name == "compiler-wazeromemory" {
				e.ownAlloc = false // wazero's own allocation, for comparison
			}
			defer e.Close(context.Background())
			m, err := e.Compile(context.Background(), bin)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				runHello(b, m)
			}
			reportCPU(b, start)
		})
	}
}

// BenchmarkInstantiateOnly measures Instantiate and Close without running
// the guest.
func BenchmarkInstantiateOnly(b *testing.B) {
	bin := helloWasm(b)
	e, err := New(context.Background(), Config{HostModules: []wasm.HostModule{testWASI()}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close(context.Background())
	m, err := e.Compile(context.Background(), bin)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		inst, err := m.Instantiate(ctx)
		if err != nil {
			b.Fatal(err)
		}
		inst.Close(ctx)
	}
	reportCPU(b, start)
}

// BenchmarkCompile measures compiling the hello world module: cold on a new
// engine, from a warm disk cache on a new engine, and memoized on the same
// engine (the very same slice, or a copy that must be hashed).
func BenchmarkCompile(b *testing.B) {
	bin := helloWasm(b)
	ctx := context.Background()
	fresh := func(b *testing.B, cfg Config) {
		for b.Loop() {
			e, err := New(ctx, cfg)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := e.Compile(ctx, bin); err != nil {
				b.Fatal(err)
			}
			e.Close(ctx)
		}
	}
	b.Run("cold/compiler", func(b *testing.B) { fresh(b, Config{}) })
	b.Run("cold/interpreter", func(b *testing.B) { fresh(b, Config{Interpreter: true}) })
	b.Run("diskcache/compiler", func(b *testing.B) {
		dir := b.TempDir()
		e, err := New(ctx, Config{CacheDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.Compile(ctx, bin); err != nil {
			b.Fatal(err)
		}
		e.Close(ctx)
		b.ResetTimer()
		fresh(b, Config{CacheDir: dir})
	})
	memo := func(b *testing.B, same bool) {
		e, err := New(ctx, Config{})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close(ctx)
		if _, err := e.Compile(ctx, bin); err != nil {
			b.Fatal(err)
		}
		other := append([]byte(nil), bin...)
		for b.Loop() {
			in := other
			if same {
				in = bin
			}
			m, err := e.Compile(ctx, in)
			if err != nil {
				b.Fatal(err)
			}
			m.Close(ctx)
		}
	}
	b.Run("memo/same-slice", func(b *testing.B) { memo(b, true) })
	b.Run("memo/copy", func(b *testing.B) { memo(b, false) })
}

// reportCPU reports the CPU time per iteration since start (all threads,
// the garbage collector's included).
func reportCPU(b *testing.B, start time.Duration) {
	if start != 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkHostCall measures one guest-to-host call and back.
func BenchmarkHostCall(b *testing.B) {
	for _, tc := range engines {
		b.Run(tc.name, func(b *testing.B) {
			e := newEngine(b, tc.cfg)
			inst := instantiate(b, e, "host.wasm")
			ctx := context.WithValue(context.Background(), hostKey{}, &hostState{})
			const n = 1000
			b.ReportAllocs()
			for b.Loop() {
				if _, err := inst.Call(ctx, "host_loop", n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/hostcall")
		})
	}
}

// BenchmarkCall measures calling a trivial export from the host.
func BenchmarkCall(b *testing.B) {
	e := newEngine(b, Config{})
	inst := instantiate(b, e, "host.wasm")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := inst.Call(ctx, "bump"); err != nil {
			b.Fatal(err)
		}
	}
}
