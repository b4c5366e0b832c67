package instrument

import (
	"bytes"
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

func BenchmarkInstrument(b *testing.B) {
	bin := goHelloWasm(b)
	opts := Options{Fuel: true, MemoryLimitPages: 16384}
	b.SetBytes(int64(len(bin)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Instrument(bin, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuRunner compiles a WASI command once and runs it many times.
type cpuRunner struct {
	r  wazero.Runtime
	cm wazero.CompiledModule
	h  *host
}

func newCPURunner(tb testing.TB, bin []byte) *cpuRunner {
	ctx := context.Background()
	h := &host{slice: 1 << 26}
	r := newRuntime(tb, h, 0)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	cm, err := r.CompileModule(ctx, bin)
	if err != nil {
		tb.Fatal(err)
	}
	return &cpuRunner{r: r, cm: cm, h: h}
}

func (c *cpuRunner) run(tb testing.TB, arg string) string {
	ctx := context.Background()
	var out bytes.Buffer
	cfg := wazero.NewModuleConfig().WithStdout(&out).WithArgs("cpu", arg).WithName("")
	mod, err := c.r.InstantiateModule(ctx, c.cm, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	mod.Close(ctx)
	return out.String()
}

// BenchmarkFuelOverhead runs the CPU-bound C guest (sieve, 64-bit mixing,
// Collatz) on wazero's compiler without and with fuel metering.
func BenchmarkFuelOverhead(b *testing.B) {
	bin := readTestdata(b, "cpu.wasm")
	inst := mustInstrument(b, bin, Options{Fuel: true})
	for _, v := range []struct {
		name string
		bin  []byte
	}{{"original", bin}, {"instrumented", inst}} {
		b.Run(v.name, func(b *testing.B) {
			c := newCPURunner(b, v.bin)
			for b.Loop() {
				c.run(b, "1")
			}
		})
	}
}

// TestFuelOverhead measures the slowdown fuel metering causes on the
// CPU-bound C guest and logs it (timings are too noisy to assert on
// shared machines; see BenchmarkFuelOverhead).
func TestFuelOverhead(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	bin := readTestdata(t, "cpu.wasm")
	inst := mustInstrument(t, bin, Options{Fuel: true})
	orig, meter := newCPURunner(t, bin), newCPURunner(t, inst)
	// Alternate the two so that load from other processes hits both alike,
	// and keep the fastest run of each.
	d0, d1 := time.Duration(1<<62), time.Duration(1<<62)
	var out0, out1 string
	for range 5 {
		d0 = min(d0, threadCPU(func() { out0 = orig.run(t, "1") }))
		d1 = min(d1, threadCPU(func() { out1 = meter.run(t, "1") }))
	}
	if out0 != out1 {
		t.Fatalf("outputs differ: %q vs %q", out0, out1)
	}
	t.Logf("original %v, instrumented %v: ratio %.3f (output %q)", d0, d1, float64(d1)/float64(d0), out0)
}

// TestFuelOverheadTightLoop measures the worst case: a loop of six cheap
// instructions, where the charge and check double the work.
func TestFuelOverheadTightLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	bin := readTestdata(t, "prog.wasm")
	inst := mustInstrument(t, bin, Options{Fuel: true})
	timeIt := func(bin []byte) time.Duration {
		h := &host{slice: 1 << 40}
		mod := instantiate(t, newRuntime(t, h, 0), bin)
		f := mod.ExportedFunction("count")
		d := time.Duration(1 << 62)
		for range 5 {
			d = min(d, threadCPU(func() {
				if _, err := f.Call(context.Background(), i32(100_000_000)); err != nil {
					t.Fatal(err)
				}
			}))
		}
		return d
	}
	d0, d1 := timeIt(bin), timeIt(inst)
	t.Logf("count(1e8): original %v, instrumented %v: ratio %.3f", d0, d1, float64(d1)/float64(d0))
}

// threadCPU returns the CPU time fn spends on the current OS thread (where
// wazero runs the guest), which other processes on a busy machine do not
// inflate the way they inflate wall-clock time.
func threadCPU(fn func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var r0, r1 syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if syscall.Getrusage(rusageThread, &r0) != nil {
		start := time.Now()
		fn()
		return time.Since(start)
	}
	fn()
	syscall.Getrusage(rusageThread, &r1)
	return time.Duration(r1.Utime.Nano()+r1.Stime.Nano()) - time.Duration(r0.Utime.Nano()+r0.Stime.Nano())
}
