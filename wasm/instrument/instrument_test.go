package instrument

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/internal/gobuild"
)

var (
	errOutOfFuel = errors.New("out of fuel")
	errDeadline  = errors.New("deadline passed")
)

// host is the test's side of fuel metering: it hands out slices of fuel
// and stops the guest after maxRefuels slices or at the deadline.
type host struct {
	slice      int64
	maxRefuels int
	deadline   time.Time

	refuels int
	given   int64
	logged  []int32
}

func (h *host) refuel(_ context.Context, fuel int64) int64 {
	h.refuels++
	if h.maxRefuels > 0 && h.refuels > h.maxRefuels {
		panic(errOutOfFuel)
	}
	if !h.deadline.IsZero() && time.Now().After(h.deadline) {
		panic(errDeadline)
	}
	h.given += h.slice
	return fuel + h.slice
}

func newRuntime(t testing.TB, h *host, features api.CoreFeatures) wazero.Runtime {
	t.Helper()
	ctx := context.Background()
	cfg := wazero.NewRuntimeConfig()
	if features != 0 {
		cfg = cfg.WithCoreFeatures(features)
	}
	r := wazero.NewRuntimeWithConfig(ctx, cfg)
	t.Cleanup(func() { r.Close(ctx) })
	_, err := r.NewHostModuleBuilder(RefuelModule).
		NewFunctionBuilder().WithFunc(h.refuel).Export(RefuelName).
		Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.NewHostModuleBuilder("env").
		NewFunctionBuilder().WithFunc(func(_ context.Context, v int32) { h.logged = append(h.logged, v) }).Export("log").
		Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func instantiate(t testing.TB, r wazero.Runtime, bin []byte) api.Module {
	t.Helper()
	ctx := context.Background()
	cm, err := r.CompileModule(ctx, bin)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		t.Fatalf("instantiate: %v", err)
	}
	return mod
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustInstrument(t testing.TB, bin []byte, opts Options) []byte {
	t.Helper()
	out, err := Instrument(bin, opts)
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	return out
}

// fuelUsed runs fn and returns the fuel it consumed by the host's books.
func fuelUsed(t testing.TB, h *host, mod api.Module, fn func()) int64 {
	t.Helper()
	g := mod.ExportedGlobal(FuelGlobal)
	if g == nil {
		t.Fatalf("no exported global %q", FuelGlobal)
	}
	given0, left0 := h.given, int64(g.Get())
	fn()
	return (h.given - given0) - (int64(g.Get()) - left0)
}

func i32(v int32) uint64 { return api.EncodeI32(v) }

func TestSameResults(t *testing.T) {
	orig := readTestdata(t, "prog.wasm")
	inst := mustInstrument(t, orig, Options{Fuel: true})
	tests := []struct {
		fn     string
		params []uint64
		want   []uint64
	}{
		{"fib", []uint64{i32(0)}, []uint64{i32(0)}},
		{"fib", []uint64{i32(10)}, []uint64{i32(55)}},
		{"fib", []uint64{i32(20)}, []uint64{i32(6765)}},
		{"count", []uint64{i32(1000)}, []uint64{}},
		{"sum", []uint64{i32(100)}, []uint64{5050}},
		{"classify", []uint64{i32(0)}, []uint64{i32(100)}},
		{"classify", []uint64{i32(1)}, []uint64{i32(200)}},
		{"classify", []uint64{i32(2)}, []uint64{i32(300)}},
		{"classify", []uint64{i32(3)}, []uint64{i32(400)}},
		{"classify", []uint64{i32(99)}, []uint64{i32(400)}},
		{"dispatch", []uint64{i32(0), i32(7), i32(5)}, []uint64{i32(12)}},
		{"dispatch", []uint64{i32(1), i32(7), i32(5)}, []uint64{i32(2)}},
		{"dispatch", []uint64{i32(2), i32(7), i32(5)}, []uint64{i32(35)}},
		{"viaref", []uint64{i32(6), i32(7)}, []uint64{i32(42)}},
		{"divmod", []uint64{i32(17), i32(5)}, []uint64{i32(3), i32(2)}},
		{"swapif", []uint64{i32(1), i32(2), i32(1)}, []uint64{i32(2), i32(1)}},
		{"swapif", []uint64{i32(1), i32(2), i32(0)}, []uint64{i32(1), i32(2)}},
		{"size", nil, []uint64{i32(1)}},
		{"refs", nil, []uint64{i32(0)}},
		{"bulk", nil, []uint64{i32(7)}},
		{"getg", nil, []uint64{i32(7)}},
	}
	for _, variant := range []struct {
		name string
		bin  []byte
	}{{"original", orig}, {"instrumented", inst}} {
		t.Run(variant.name, func(t *testing.T) {
			h := &host{slice: 1 << 20}
			mod := instantiate(t, newRuntime(t, h, 0), variant.bin)
			for _, tt := range tests {
				got, err := mod.ExportedFunction(tt.fn).Call(context.Background(), tt.params...)
				if err != nil {
					t.Fatalf("%s%v: %v", tt.fn, tt.params, err)
				}
				if len(got) != len(tt.want) {
					t.Fatalf("%s%v = %v, want %v", tt.fn, tt.params, got, tt.want)
				}
				for i := range got {
					if uint32(got[i]) != uint32(tt.want[i]) || got[i]>>32 != tt.want[i]>>32 && tt.fn == "sum" {
						t.Errorf("%s%v = %v, want %v", tt.fn, tt.params, got, tt.want)
					}
				}
			}
			if _, err := mod.ExportedFunction("logn").Call(context.Background(), i32(3)); err != nil {
				t.Fatal(err)
			}
			if want := []int32{3, 2, 1}; !equalInt32(h.logged, want) {
				t.Errorf("logn(3) logged %v, want %v", h.logged, want)
			}
			if variant.name == "instrumented" && h.refuels == 0 {
				t.Error("refuel was never called")
			}
		})
	}
}

func equalInt32(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestExactFuel(t *testing.T) {
	inst := mustInstrument(t, readTestdata(t, "prog.wasm"), Options{Fuel: true})
	h := &host{slice: 1000}
	mod := instantiate(t, newRuntime(t, h, 0), inst)
	ctx := context.Background()
	call := func(fn string, params ...uint64) func() {
		return func() {
			if _, err := mod.ExportedFunction(fn).Call(ctx, params...); err != nil {
				t.Fatalf("%s: %v", fn, err)
			}
		}
	}
	// count(n): the loop body region = 6 per iteration; the loop and the
	// ends are free.
	for _, n := range []int32{1, 2, 10, 1000, 100000} {
		if got, want := fuelUsed(t, h, mod, call("count", i32(n))), int64(6*n); got != want {
			t.Errorf("count(%d) used %d fuel, want %d", n, got, want)
		}
	}
	// fib(n): entry region = 4 (local.get, i32.const, i32.lt_u, if); then
	// arm = 2 (local.get, else); else arm = 9 (two calls and what they
	// take, i32.add; the ends are free).
	var fibFuel func(n int32) int64
	fibFuel = func(n int32) int64 {
		if n < 2 {
			return 6
		}
		return 13 + fibFuel(n-1) + fibFuel(n-2)
	}
	for _, n := range []int32{0, 1, 2, 5, 15, 20} {
		if got, want := fuelUsed(t, h, mod, call("fib", i32(n))), fibFuel(n); got != want {
			t.Errorf("fib(%d) used %d fuel, want %d", n, got, want)
		}
	}
	// The same call twice costs the same.
	a := fuelUsed(t, h, mod, call("sum", i32(500)))
	b := fuelUsed(t, h, mod, call("sum", i32(500)))
	if a != b || a <= 500 {
		t.Errorf("sum(500) used %d then %d fuel", a, b)
	}
}

func TestRunawayStopped(t *testing.T) {
	inst := mustInstrument(t, readTestdata(t, "prog.wasm"), Options{Fuel: true})
	tail := mustInstrument(t, readTestdata(t, "tail.wasm"), Options{Fuel: true})
	tests := []struct {
		name, fn string
		bin      []byte
	}{
		{"loop br 0", "spin", inst},
		{"loop calling a checked function", "spincall", inst},
		{"endless tail calls", "forever", tail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Run("budget", func(t *testing.T) {
				h := &host{slice: 10000, maxRefuels: 5}
				mod := instantiate(t, newRuntime(t, h, api.CoreFeaturesV2|experimental.CoreFeaturesTailCall), tt.bin)
				_, err := mod.ExportedFunction(tt.fn).Call(context.Background())
				if !errors.Is(err, errOutOfFuel) {
					t.Fatalf("got %v, want %v", err, errOutOfFuel)
				}
				if h.refuels != 6 {
					t.Errorf("refuel called %d times, want 6", h.refuels)
				}
			})
			t.Run("deadline", func(t *testing.T) {
				start := time.Now()
				h := &host{slice: 100000, deadline: start.Add(50 * time.Millisecond)}
				mod := instantiate(t, newRuntime(t, h, api.CoreFeaturesV2|experimental.CoreFeaturesTailCall), tt.bin)
				_, err := mod.ExportedFunction(tt.fn).Call(context.Background())
				if !errors.Is(err, errDeadline) {
					t.Fatalf("got %v, want %v", err, errDeadline)
				}
				if d := time.Since(start); d > 5*time.Second {
					t.Errorf("stopped after %v", d)
				}
			})
		})
	}
}

func TestTailCalls(t *testing.T) {
	orig := readTestdata(t, "tail.wasm")
	inst := mustInstrument(t, orig, Options{Fuel: true})
	for _, bin := range [][]byte{orig, inst} {
		h := &host{slice: 1 << 30}
		mod := instantiate(t, newRuntime(t, h, api.CoreFeaturesV2|experimental.CoreFeaturesTailCall), bin)
		got, err := mod.ExportedFunction("loop").Call(context.Background(), i32(100000), 0)
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != 5000050000 {
			t.Errorf("loop(100000) = %d", got[0])
		}
	}
}

func TestMemoryClamp(t *testing.T) {
	ctx := context.Background()
	grow := func(t *testing.T, mod api.Module, pages int32) int32 {
		t.Helper()
		got, err := mod.ExportedFunction("grow").Call(ctx, i32(pages))
		if err != nil {
			t.Fatal(err)
		}
		return int32(got[0])
	}
	tests := []struct {
		file  string
		limit uint32
		grows []int32 // results of successive grow(1)
	}{
		{"prog.wasm", 0, []int32{1, 2, 3, -1}},    // its own maximum is 4
		{"prog.wasm", 2, []int32{1, -1}},          // clamped to 2
		{"prog.wasm", 1, []int32{-1}},             // clamped to its minimum
		{"nomax.wasm", 3, []int32{2, -1}},         // no maximum: gets 3
		{"nomax.wasm", 0, []int32{2, 3, 4, 5, 6}}, // no maximum: gets 65536
	}
	for _, tt := range tests {
		for _, fuel := range []bool{false, true} {
			h := &host{slice: 1 << 20}
			bin := mustInstrument(t, readTestdata(t, tt.file), Options{MemoryLimitPages: tt.limit, Fuel: fuel})
			mod := instantiate(t, newRuntime(t, h, 0), bin)
			for i, want := range tt.grows {
				if got := grow(t, mod, 1); got != want {
					t.Errorf("%s limit %d fuel %v: grow #%d = %d, want %d", tt.file, tt.limit, fuel, i+1, got, want)
				}
			}
		}
	}

	// A minimum above the limit is refused.
	_, err := Instrument(readTestdata(t, "nomax.wasm"), Options{MemoryLimitPages: 1})
	if !errors.Is(err, wasm.ErrInvalidModule) || !strings.Contains(err.Error(), "limit of 1 pages") {
		t.Errorf("min above limit: got %v", err)
	}

	// Imported memories are clamped in the import's type.
	out := mustInstrument(t, readTestdata(t, "importmem.wasm"), Options{MemoryLimitPages: 5})
	m, err := binary.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Imports[0].Memory; got != (binary.Limits{Min: 1, Max: 5, HasMax: true}) {
		t.Errorf("imported memory limits = %+v", got)
	}
}

func TestImportsRejected(t *testing.T) {
	bin := readTestdata(t, "prog.wasm")
	_, err := Instrument(bin, Options{AllowImport: func(module, name string) bool { return module == "wasi_snapshot_preview1" }})
	if !errors.Is(err, wasm.ErrInvalidModule) || !strings.Contains(err.Error(), `"env"."log"`) {
		t.Errorf("got %v, want an error naming env.log", err)
	}
	if _, err := Instrument(bin, Options{AllowImport: func(module, name string) bool { return module == "env" }}); err != nil {
		t.Errorf("allowed import refused: %v", err)
	}
	// Instrumenting twice is refused.
	once := mustInstrument(t, bin, Options{Fuel: true})
	if _, err := Instrument(once, Options{Fuel: true}); !errors.Is(err, wasm.ErrInvalidModule) {
		t.Errorf("instrumenting twice: got %v", err)
	}
}

func TestNameSection(t *testing.T) {
	out := mustInstrument(t, readTestdata(t, "prog.wasm"), Options{Fuel: true})
	m, err := binary.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []byte
	for _, c := range m.Customs {
		if c.Name == "name" {
			names = c.Data
		}
	}
	if names == nil {
		t.Fatal("name section dropped")
	}
	// Imported log is 0, refuel 1, so $add moved from 1 to 2.
	for _, want := range []string{"\x00\x03log", "\x01\x0fwasmsand.refuel", "\x02\x03add", "\x05\x03fib"} {
		if !bytes.Contains(names, []byte(want)) {
			t.Errorf("name section lacks %q", want)
		}
	}
}

const helloSource = `package main

import "fmt"

func main() { fmt.Println("hello, world") }
`

// buildGo builds a Go main package from one source file for wasip1.
func buildGo(t testing.TB, src string) []byte { return gobuild.Wasip1(t, src) }

func goHelloWasm(t testing.TB) []byte { return buildGo(t, helloSource) }

// runWASI runs a WASI command and returns its stdout and the fuel used.
func runWASI(t testing.TB, bin []byte, args ...string) (string, int64) {
	t.Helper()
	ctx := context.Background()
	h := &host{slice: 1 << 24}
	r := newRuntime(t, h, 0)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	cm, err := r.CompileModule(ctx, bin)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	var stdout, stderr bytes.Buffer
	cfg := wazero.NewModuleConfig().WithStdout(&stdout).WithStderr(&stderr).
		WithArgs(append([]string{"prog"}, args...)...).
		WithRandSource(bytes.NewReader(make([]byte, 1<<16))).
		WithStartFunctions()
	mod, err := r.InstantiateModule(ctx, cm, cfg)
	if err != nil {
		t.Fatalf("instantiate: %v", err)
	}
	_, err = mod.ExportedFunction("_start").Call(ctx)
	var exit interface{ ExitCode() uint32 }
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 0) {
		t.Fatalf("_start: %v (stderr %q)", err, stderr.String())
	}
	var used int64
	if g := mod.ExportedGlobal(FuelGlobal); g != nil {
		used = h.given - int64(g.Get())
	}
	return stdout.String(), used
}

func TestGoHelloWorld(t *testing.T) {
	bin := goHelloWasm(t)
	allow := func(module, name string) bool { return module == "wasi_snapshot_preview1" }
	out := mustInstrument(t, bin, Options{Fuel: true, MemoryLimitPages: 16384, AllowImport: allow})
	got, used := runWASI(t, out)
	if got != "hello, world\n" {
		t.Errorf("stdout = %q", got)
	}
	if used <= 0 {
		t.Errorf("fuel used = %d", used)
	}
	// wazero's clocks and our random source are fixed: so is the fuel.
	if _, again := runWASI(t, out); again != used {
		t.Errorf("fuel used %d then %d", used, again)
	}
	t.Logf("module %d -> %d bytes, hello world used %d fuel", len(bin), len(out), used)
	if _, err := Instrument(bin, Options{AllowImport: func(string, string) bool { return false }}); err == nil {
		t.Error("Go module with every import refused was accepted")
	}
}

func TestCProgram(t *testing.T) {
	bin := readTestdata(t, "cpu.wasm")
	want, _ := runWASI(t, bin, "0")
	out := mustInstrument(t, bin, Options{Fuel: true, MemoryLimitPages: 256})
	got, used1 := runWASI(t, out, "0")
	if got != want || !strings.HasPrefix(got, "primes=") {
		t.Errorf("instrumented output %q, original %q", got, want)
	}
	_, used2 := runWASI(t, out, "0")
	if used1 != used2 || used1 <= 0 {
		t.Errorf("fuel used %d then %d: not deterministic", used1, used2)
	}
}

// TestCBuild compiles the C test program afresh with several code
// generation options when clang can target wasm32-wasi (SIMD, tail calls,
// no optimization) and checks the instrumented program prints the same.
func TestCBuild(t *testing.T) {
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang not installed")
	}
	for _, flags := range [][]string{
		{"-O0"},
		{"-O2"},
		{"-O3", "-msimd128"},
		{"-Os", "-mtail-call", "-mbulk-memory", "-msign-ext", "-mnontrapping-fptoint"},
	} {
		t.Run(strings.Join(flags, " "), func(t *testing.T) {
			wasmPath := filepath.Join(t.TempDir(), "cpu.wasm")
			args := append([]string{"--target=wasm32-wasi", "-o", wasmPath, filepath.Join("testdata", "cpu.c")}, flags...)
			if out, err := exec.Command("clang", args...).CombinedOutput(); err != nil {
				t.Skipf("clang cannot build for wasm32-wasi: %v: %s", err, out)
			}
			bin, err := os.ReadFile(wasmPath)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := runWASI(t, bin, "0")
			got, used := runWASI(t, mustInstrument(t, bin, Options{Fuel: true}), "0")
			if got != want || !strings.HasPrefix(got, "primes=") {
				t.Errorf("instrumented output %q, original %q", got, want)
			}
			if used <= 0 {
				t.Errorf("fuel used %d", used)
			}
			opts := allGuards(true, 10000)
			opts.MemoryLimitPages = 256
			if got, _ := runWASI(t, mustInstrument(t, bin, opts), "0"); got != want {
				t.Errorf("output with every guard %q, original %q", got, want)
			}
		})
	}
}

// TestMergedRegions checks that code after a construct nothing leaves
// early is charged with the code before it — fewer charges, the same fuel
// — and that code a branch or return can skip keeps a charge of its own.
func TestMergedRegions(t *testing.T) {
	inst := mustInstrument(t, readTestdata(t, "merge.wasm"), Options{Fuel: true})
	h := &host{slice: 1000}
	mod := instantiate(t, newRuntime(t, h, 0), inst)
	ctx := context.Background()
	run := func(fn string, arg int32) int64 {
		return fuelUsed(t, h, mod, func() {
			if _, err := mod.ExportedFunction(fn).Call(ctx, i32(arg)); err != nil {
				t.Fatalf("%s(%d): %v", fn, arg, err)
			}
		})
	}
	for x := int32(0); x < 8; x++ {
		// $a 6, the if 4 and an arm (then 5 with its else, else 4), the
		// inner if 4 and then br 1 or the code after it 4, the result 1.
		want := int64(6 + 4 + 4 + 4 + 4 + 1)
		if x&2 != 0 {
			want++
		}
		if x&4 != 0 {
			want -= 3
		}
		if got := run("paths", x); got != want {
			t.Errorf("paths(%d) used %d fuel, want %d", x, got, want)
		}
	}
	for _, n := range []int32{1, 5, 6, 100} {
		want := 8*int64(n) + 7
		if n > 5 {
			want = 8*int64(n) + 6
		}
		if got := run("loopret", n); got != want {
			t.Errorf("loopret(%d) used %d fuel, want %d", n, got, want)
		}
	}

	// Count the charges: each is one i64.sub, which the functions do not
	// use themselves.
	m, err := binary.Decode(inst)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{5, 5} { // paths, loopret
		var r binary.Reader
		var in binary.Instr
		c := m.Codes[i]
		r.Reset(c.Body, c.BodyOffset)
		n := 0
		for r.More() {
			if err := r.Next(&in); err != nil {
				t.Fatal(err)
			}
			if in.Op == binary.OpI64Sub {
				n++
			}
		}
		if n != want {
			t.Errorf("function %d has %d charges, want %d", i, n, want)
		}
	}
}
