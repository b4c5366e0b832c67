package instrument

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// TestDefaultOutputUnchanged pins the output of the options the shell uses:
// the determinism and snapshot options must not change it when off. The
// hashes were taken with those options off (and again when charges after
// a construct moved to the code before it, and when block, loop and end
// became free).
func TestDefaultOutputUnchanged(t *testing.T) {
	golden := []struct{ file, sum string }{
		{"prog.wasm", "6b5682b703bf2ed7dcbde44221199aa339e3220dd68a2ba46042a84f7d5a290f"},
		{"cpu.wasm", "f59e655a677a095701d6aa51fe03324e18ad97dd3eab47afb7f276293c695fc6"},
		{"tail.wasm", "7f24e2ecd9f1ca2f9492cdc17aec95ba6c06ab13c8a5b18534586081f04b70ab"},
		{"nomax.wasm", "cb0a2dfa62862a38177da195b9b4bf48a9387b2b6f99e8206aa8151cde5f0efd"},
		{"importmem.wasm", "1779a996c48bc542e52b50538e27b09bcfecf08446c21b3f5cddc514bb59e50f"},
	}
	for _, g := range golden {
		out := mustInstrument(t, readTestdata(t, g.file), Options{Fuel: true, MemoryLimitPages: 8})
		if sum := sha256.Sum256(out); hex.EncodeToString(sum[:]) != g.sum {
			t.Errorf("%s: output changed (sha256 %x)", g.file, sum)
		}
	}
}

// allGuards turns on every determinism and snapshot option.
func allGuards(fuel bool, depth uint32) Options {
	return Options{Fuel: fuel, CanonicalNaN: true, RejectRelaxedSIMD: true, MaxCallDepth: depth,
		CountFailedGrows: true, ExportState: true, MemoryLimitPages: 2}
}

func f32bits(v uint32) uint64 { return uint64(v) }

func TestCanonicalNaN(t *testing.T) {
	bin := readTestdata(t, "guard.wasm")
	const payload64 = 0x7ff0000000000123 // a signalling NaN with a payload
	const payload32 = 0x7f800001
	tests := []struct {
		fn     string
		params []uint64
		want   []uint64 // with CanonicalNaN
	}{
		{"div32", []uint64{f32bits(0), f32bits(0)}, []uint64{uint64(CanonicalNaN32)}},
		{"div32", []uint64{f32bits(math.Float32bits(1)), f32bits(math.Float32bits(4))}, []uint64{uint64(math.Float32bits(0.25))}},
		{"add64", []uint64{payload64, math.Float64bits(1)}, []uint64{CanonicalNaN64}},
		{"add64", []uint64{math.Float64bits(1), math.Float64bits(2)}, []uint64{math.Float64bits(3)}},
		{"sqrt64", []uint64{math.Float64bits(-1)}, []uint64{CanonicalNaN64}},
		{"neg32", []uint64{f32bits(payload32)}, []uint64{uint64(payload32 | 0x80000000)}}, // bits only: kept
		{"vadd32", []uint64{payload32, uint64(math.Float32bits(3))}, []uint64{uint64(CanonicalNaN32), uint64(CanonicalNaN32)}},
		{"vadd32", []uint64{uint64(math.Float32bits(1)), uint64(math.Float32bits(3))}, []uint64{uint64(math.Float32bits(2)), uint64(math.Float32bits(6))}},
		{"vadd64", []uint64{payload64}, []uint64{CanonicalNaN64}},
	}
	for _, fuel := range []bool{false, true} {
		out := mustInstrument(t, bin, Options{Fuel: fuel, CanonicalNaN: true})
		h := &host{slice: 1 << 20}
		mod := instantiate(t, newRuntime(t, h, api.CoreFeaturesV2|experimental.CoreFeaturesTailCall), out)
		for _, tt := range tests {
			got, err := mod.ExportedFunction(tt.fn).Call(context.Background(), tt.params...)
			if err != nil {
				t.Fatalf("%s: %v", tt.fn, err)
			}
			for i := range got {
				if uint32(got[i]) != uint32(tt.want[i]) || (tt.fn == "add64" || tt.fn == "sqrt64" || tt.fn == "vadd64") && got[i] != tt.want[i] {
					t.Errorf("fuel=%v %s(%#x) = %#x, want %#x", fuel, tt.fn, tt.params, got, tt.want)
				}
			}
		}
	}
}

func TestMaxCallDepth(t *testing.T) {
	bin := readTestdata(t, "guard.wasm")
	for _, fuel := range []bool{false, true} {
		out := mustInstrument(t, bin, Options{Fuel: fuel, MaxCallDepth: 100})
		h := &host{slice: 1 << 20}
		mod := instantiate(t, newRuntime(t, h, api.CoreFeaturesV2|experimental.CoreFeaturesTailCall), out)
		depth := mod.ExportedGlobal(DepthGlobal).(api.MutableGlobal)
		tests := []struct {
			fn        string
			arg       int32
			want      []uint64
			overflows bool
		}{
			{"depth", 0, []uint64{0}, false},
			{"depth", 99, []uint64{99}, false}, // 100 frames
			{"depth", 100, nil, true},          // 101 frames
			{"depthbr", 0, []uint64{0}, false},
			{"depthbr", 1, []uint64{7}, false},
			{"depthbr", 99, []uint64{105}, false},
			{"depthbr", 100, []uint64{106}, false}, // 100 frames: depthbr(1) returns by br_table
			{"depthbr", 101, nil, true},
			{"pair", 0, []uint64{3, 4}, false},
			{"pair", 1, []uint64{1, 2}, false},
			{"tail", 5000, []uint64{42}, false}, // tail calls do not nest
		}
		for _, tt := range tests {
			depth.Set(0)
			got, err := mod.ExportedFunction(tt.fn).Call(context.Background(), i32(tt.arg))
			if tt.overflows {
				if err == nil || !strings.Contains(err.Error(), "unreachable") {
					t.Errorf("fuel=%v %s(%d): err = %v, want unreachable", fuel, tt.fn, tt.arg, err)
				}
				if d := int32(depth.Get()); d != 101 {
					t.Errorf("fuel=%v %s(%d): depth after the trap = %d, want 101", fuel, tt.fn, tt.arg, d)
				}
				continue
			}
			if err != nil {
				t.Fatalf("fuel=%v %s(%d): %v", fuel, tt.fn, tt.arg, err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("fuel=%v %s(%d) = %v, want %v", fuel, tt.fn, tt.arg, got, tt.want)
			}
			for i := range got {
				if uint32(got[i]) != uint32(tt.want[i]) {
					t.Errorf("fuel=%v %s(%d) = %v, want %v", fuel, tt.fn, tt.arg, got, tt.want)
				}
			}
			if d := depth.Get(); d != 0 {
				t.Errorf("fuel=%v %s(%d): depth after return = %d, want 0", fuel, tt.fn, tt.arg, d)
			}
		}
	}
}

func TestFailedGrowsAndState(t *testing.T) {
	out := mustInstrument(t, readTestdata(t, "guard.wasm"), allGuards(true, 1000))
	m, err := binary.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	exports := map[string]binary.ExternKind{}
	for _, e := range m.Exports {
		exports[e.Name] = e.Kind
	}
	for name, kind := range map[string]binary.ExternKind{
		"wasmsand_global_0": binary.ExternGlobal, "wasmsand_global_2": binary.ExternGlobal,
		MemoryExport: binary.ExternMemory, GrowFunc: binary.ExternFunc, FuelGlobal: binary.ExternGlobal,
		DepthGlobal: binary.ExternGlobal, GrowFailuresGlobal: binary.ExternGlobal,
	} {
		if k, ok := exports[name]; !ok || k != kind {
			t.Errorf("export %q: kind %v, present %v; want kind %v", name, k, ok, kind)
		}
	}
	if _, ok := exports["wasmsand_global_1"]; ok {
		t.Error("immutable global 1 exported")
	}
	if _, ok := exports["wasmsand_global_3"]; ok {
		t.Error("the fuel global is exported as a module global")
	}

	h := &host{slice: 1 << 20}
	mod := instantiate(t, newRuntime(t, h, api.CoreFeaturesV2|experimental.CoreFeaturesTailCall), out)
	ctx := context.Background()
	grow := mod.ExportedFunction("grow")
	fails := mod.ExportedGlobal(GrowFailuresGlobal)
	for i, want := range []int32{1, -1, -1} { // the cap is 2 pages
		got, err := grow.Call(ctx, i32(1))
		if err != nil {
			t.Fatal(err)
		}
		if int32(got[0]) != want {
			t.Errorf("grow %d returned %d, want %d", i, int32(got[0]), want)
		}
	}
	if n := fails.Get(); n != 2 {
		t.Errorf("%s = %d, want 2", GrowFailuresGlobal, n)
	}
	if got, err := mod.ExportedFunction(GrowFunc).Call(ctx, i32(0)); err != nil || got[0] != 2 {
		t.Errorf("%s(0) = %v, %v; want 2 pages", GrowFunc, got, err)
	}
	if _, err := mod.ExportedFunction("bump").Call(ctx); err != nil {
		t.Fatal(err)
	}
	if v := mod.ExportedGlobal("wasmsand_global_0").Get(); v != 6 {
		t.Errorf("counter global = %d, want 6", v)
	}
	if v := mod.ExportedGlobal("wasmsand_global_2").Get(); v != math.MaxUint64 {
		t.Errorf("wide global = %#x, want all ones", v)
	}
}

func TestRelaxedSIMD(t *testing.T) {
	bin := readTestdata(t, "relaxed.wasm")
	if _, err := Instrument(bin, Options{Fuel: true}); err != nil {
		t.Errorf("relaxed SIMD refused without RejectRelaxedSIMD: %v", err)
	}
	_, err := Instrument(bin, Options{RejectRelaxedSIMD: true})
	if err == nil || !strings.Contains(err.Error(), "relaxed SIMD") {
		t.Errorf("err = %v, want a relaxed SIMD refusal", err)
	}
}

func TestGuardsTwice(t *testing.T) {
	once := mustInstrument(t, readTestdata(t, "guard.wasm"), Options{MaxCallDepth: 10})
	if _, err := Instrument(once, Options{MaxCallDepth: 10}); err == nil {
		t.Error("instrumenting twice for call depth was accepted")
	}
}

// TestGuardedPrograms runs the control-flow test program, the C program
// and Go's hello world with every option on: same results.
func TestGuardedPrograms(t *testing.T) {
	t.Run("prog", func(t *testing.T) {
		out := mustInstrument(t, readTestdata(t, "prog.wasm"), allGuards(true, 500))
		h := &host{slice: 1 << 20}
		mod := instantiate(t, newRuntime(t, h, 0), out)
		for _, c := range []struct {
			fn   string
			args []uint64
			want uint64
		}{
			{"fib", []uint64{i32(20)}, 6765},
			{"sum", []uint64{i32(100)}, 5050},
			{"classify", []uint64{i32(2)}, 300},
			{"dispatch", []uint64{i32(2), i32(7), i32(5)}, 35},
		} {
			got, err := mod.ExportedFunction(c.fn).Call(context.Background(), c.args...)
			if err != nil || len(got) != 1 || uint32(got[0]) != uint32(c.want) {
				t.Errorf("%s = %v, %v; want %d", c.fn, got, err, c.want)
			}
		}
	})
	t.Run("C", func(t *testing.T) {
		bin := readTestdata(t, "cpu.wasm")
		want, _ := runWASI(t, bin, "0")
		opts := allGuards(true, 10000)
		opts.MemoryLimitPages = 256
		got, used := runWASI(t, mustInstrument(t, bin, opts), "0")
		if got != want || used <= 0 {
			t.Errorf("output %q (fuel %d), want %q", got, used, want)
		}
	})
	t.Run("Go", func(t *testing.T) {
		if testing.Short() {
			t.Skip("builds a Go program")
		}
		opts := allGuards(true, 10000)
		opts.MemoryLimitPages = 16384
		got, _ := runWASI(t, mustInstrument(t, goHelloWasm(t), opts))
		if got != "hello, world\n" {
			t.Errorf("stdout = %q", got)
		}
	})
}

// TestCountFailedGrowsAlone checks the short way CountFailedGrows takes
// with fuel metering and no other guard (only the bodies meterCode saw a
// memory.grow in are rewritten): the output is byte for byte that of the
// full pass over every body, and the count still works.
func TestCountFailedGrowsAlone(t *testing.T) {
	opts := Options{Fuel: true, CountFailedGrows: true, MemoryLimitPages: 2}
	for _, bin := range [][]byte{readTestdata(t, "guard.wasm"), goHelloWasm(t)} {
		if len(bin) > 1<<20 {
			opts.MemoryLimitPages = 16384
		}
		out := mustInstrument(t, bin, opts)
		m, err := binary.Decode(bin)
		if err != nil {
			t.Fatal(err)
		}
		own := len(m.Globals)
		if err := clampMemory(m, opts.MemoryLimitPages); err != nil {
			t.Fatal(err)
		}
		if err := addFuel(m, nil); err != nil {
			t.Fatal(err)
		}
		if err := guard(m, &opts, own, nil); err != nil {
			t.Fatal(err)
		}
		if full := m.Encode(); !bytes.Equal(out, full) {
			t.Errorf("module of %d bytes: the short way gives %d bytes, the full pass %d", len(bin), len(out), len(full))
		}
	}

	out := mustInstrument(t, readTestdata(t, "guard.wasm"), Options{Fuel: true, CountFailedGrows: true, MemoryLimitPages: 2})
	mod := instantiate(t, newRuntime(t, &host{slice: 1 << 20}, api.CoreFeaturesV2|experimental.CoreFeaturesTailCall), out)
	ctx := context.Background()
	for range 3 {
		if _, err := mod.ExportedFunction("grow").Call(ctx, i32(1)); err != nil {
			t.Fatal(err)
		}
	}
	if n := mod.ExportedGlobal(GrowFailuresGlobal).Get(); n != 2 {
		t.Errorf("failed grows = %d, want 2", n)
	}
}
