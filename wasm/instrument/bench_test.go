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

// goCPUSource is a CPU-bound Go guest: SHA-256, sorting and a map.
const goCPUSource = `package main

import (
	"crypto/sha256"
	"fmt"
	"sort"
)

func main() {
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	var sum [32]byte
	for i := 0; i < 20; i++ {
		sum = sha256.Sum256(append(data, sum[:]...))
	}
	xs := make([]int, 300000)
	x := uint32(1)
	for i := range xs {
		x = x*1664525 + 1013904223
		xs[i] = int(x >> 8)
	}
	sort.Ints(xs)
	m := map[int]int{}
	for i := 0; i < 200000; i++ {
		m[xs[i]%1000] += i
	}
	fmt.Printf("%x %d %d\n", sum[:4], xs[len(xs)/2], len(m))
}
`

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

// TestFuelOverhead measures the slowdown fuel metering causes on CPU-bound
// C and Go guests and logs it (timings are too noisy to assert on shared
// machines; see also BenchmarkFuelOverhead).
func TestFuelOverhead(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	tests := []struct {
		name string
		bin  func(t *testing.T) []byte
		runs int
	}{
		{"C", func(t *testing.T) []byte { return readTestdata(t, "cpu.wasm") }, 5},
		{"Go", func(t *testing.T) []byte { return buildGo(t, goCPUSource) }, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := tt.bin(t)
			inst := mustInstrument(t, bin, Options{Fuel: true})
			orig, meter := newCPURunner(t, bin), newCPURunner(t, inst)
			// Alternate the two so that load from other processes hits
			// both alike, and keep the fastest run of each.
			d0, d1 := time.Duration(1<<62), time.Duration(1<<62)
			var out0, out1 string
			for range tt.runs {
				d0 = min(d0, threadCPU(func() { out0 = orig.run(t, "1") }))
				d1 = min(d1, threadCPU(func() { out1 = meter.run(t, "1") }))
			}
			if out0 != out1 || out0 == "" {
				t.Fatalf("outputs differ: %q vs %q", out0, out1)
			}
			t.Logf("original %v, instrumented %v: ratio %.3f", d0, d1, float64(d1)/float64(d0))
		})
	}
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
