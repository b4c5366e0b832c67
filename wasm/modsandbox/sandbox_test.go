package modsandbox

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/wazeroengine"
)

func wazeroFactory(ctx context.Context, hm []wasm.HostModule) (wasm.Engine, error) {
	return wazeroengine.New(ctx, wazeroengine.Config{HostModules: hm})
}

var (
	sharedOnce sync.Once
	shared     *Runtime
)

// runtime returns a Runtime on wazero shared by the tests.
func sharedRuntime() *Runtime {
	sharedOnce.Do(func() { shared = NewRuntime(wazeroFactory) })
	return shared
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// addHost is the host function guest.wasm imports: it adds, or fails on
// a = 99, or panics on a = 98.
func addHost(_ context.Context, _ wasm.Memory, args []uint64) ([]uint64, error) {
	switch int32(args[0]) {
	case 99:
		return nil, errors.New("refusing 99")
	case 98:
		panic("boom")
	case 97:
		return nil, nil // too few results
	}
	return []uint64{uint64(uint32(int32(args[0]) + int32(args[1])))}, nil
}

func baseConfig() Config {
	return Config{
		EventTimestamp: 1_700_000_000_000,
		HostFunctions: []HostFunction{{Name: "add_host", Params: []wasm.ValueType{wasm.I32, wasm.I32},
			Results: []wasm.ValueType{wasm.I32}, Fn: addHost}},
	}
}

// loaded returns a loaded instance of guest.wasm with cfg.
func loaded(t testing.TB, cfg Config) *Instance {
	t.Helper()
	in, err := sharedRuntime().Create(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(in.Destroy)
	if err := in.Load(context.Background(), readTestdata(t, "guest.wasm")); err != nil {
		t.Fatal(err)
	}
	return in
}

func wantCode(t *testing.T, what string, err error, code Code) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: err = %v, want code %s", what, err, code)
	}
	if e.Code != code {
		t.Fatalf("%s: code %s (%v), want %s", what, e.Code, e, code)
	}
}

func TestCreate(t *testing.T) {
	rt := NewRuntime(wazeroFactory)
	defer rt.Close(context.Background())
	cfg := baseConfig()
	cfg.ReadPrefixes = []string{"/data"}
	a, err := rt.Create(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rt.Create(cfg)
	if a.ID() != "sandbox-0" || b.ID() != "sandbox-1" {
		t.Errorf("ids %q %q, want sandbox-0 sandbox-1", a.ID(), b.ID())
	}
	if a.Status() != StatusCreated {
		t.Errorf("status %s", a.Status())
	}
	cfg.ReadPrefixes[0] = "/"
	cfg.HostFunctions[0].Name = "changed"
	got := a.Config()
	if got.ReadPrefixes[0] != "/data" || got.HostFunctions[0].Name != "add_host" {
		t.Error("the frozen config changed with the caller's slices")
	}
	got.ReadPrefixes[0] = "/x"
	if a.Config().ReadPrefixes[0] != "/data" {
		t.Error("Config() returned the frozen config itself")
	}
	if got.MaxGas != DefaultMaxGas || got.MaxMemoryBytes != DefaultMaxMemoryBytes || got.MaxExecutionMs != DefaultMaxExecutionMs ||
		got.HostCallGas != DefaultHostCallGas || got.MaxCallDepth != DefaultMaxCallDepth {
		t.Errorf("defaults not applied: %+v", got)
	}

	bad := []struct {
		name string
		edit func(*Config)
	}{
		{"no timestamp", func(c *Config) { c.EventTimestamp = 0 }},
		{"tiny memory", func(c *Config) { c.MaxMemoryBytes = 1000 }},
		{"negative timeout", func(c *Config) { c.MaxExecutionMs = -1 }},
		{"deep", func(c *Config) { c.MaxCallDepth = 1 << 20 }},
		{"reserved name", func(c *Config) { c.HostFunctions[0].Name = "__get_time" }},
		{"no name", func(c *Config) { c.HostFunctions[0].Name = "" }},
		{"no fn", func(c *Config) { c.HostFunctions[0].Fn = nil }},
		{"twice", func(c *Config) { c.HostFunctions = append(c.HostFunctions, c.HostFunctions[0]) }},
		{"bad type", func(c *Config) { c.HostFunctions[0].Params = []wasm.ValueType{0x7b} }},
	}
	for _, tt := range bad {
		c := baseConfig()
		tt.edit(&c)
		_, err := rt.Create(c)
		wantCode(t, tt.name, err, CodeInvalidConfig)
	}
}

func TestPresets(t *testing.T) {
	for _, tt := range []struct {
		name      string
		gas, mem  uint64
		timeoutMs int64
	}{
		{PresetMinimal, 1e9, 16 << 20, 5000},
		{PresetStandard, 1e10, 64 << 20, 30000},
		{PresetGenerous, 1e11, 256 << 20, 300000},
	} {
		c, ok := Preset(tt.name)
		if !ok || c.MaxGas != tt.gas || c.MaxMemoryBytes != tt.mem || c.MaxExecutionMs != tt.timeoutMs {
			t.Errorf("Preset(%q) = %+v, %v", tt.name, c, ok)
		}
		c.EventTimestamp = 1
		if _, err := sharedRuntime().Create(c); err != nil {
			t.Errorf("Create(%s): %v", tt.name, err)
		}
	}
	if _, ok := Preset("huge"); ok {
		t.Error("unknown preset accepted")
	}
}

// TestStatusMoves tries every operation in every status.
func TestStatusMoves(t *testing.T) {
	ctx := context.Background()
	guest := readTestdata(t, "guest.wasm")
	type op struct {
		name string
		do   func(in *Instance, snap []byte) error
	}
	ops := []op{
		{"load", func(in *Instance, _ []byte) error { return in.Load(ctx, guest) }},
		{"execute", func(in *Instance, _ []byte) error {
			if r := in.Execute(ctx, "noop", nil); !r.OK {
				return r.Error
			}
			return nil
		}},
		{"suspend", func(in *Instance, _ []byte) error { return in.Suspend() }},
		{"resume", func(in *Instance, _ []byte) error { return in.Resume(ctx) }},
		{"snapshot", func(in *Instance, _ []byte) error { _, err := in.Snapshot(); return err }},
		{"restore", func(in *Instance, snap []byte) error { return in.Restore(ctx, snap) }},
	}
	// want[status][op] is the status after op, or the error code.
	type outcome struct {
		status Status
		code   Code
	}
	ok := func(s Status) outcome { return outcome{status: s} }
	fail := func(c Code) outcome { return outcome{code: c} }
	want := map[Status]map[string]outcome{
		StatusCreated: {
			"load": ok(StatusLoaded), "execute": fail(CodeInvalidState), "suspend": fail(CodeInvalidState),
			"resume": fail(CodeInvalidState), "snapshot": fail(CodeInvalidState), "restore": fail(CodeInvalidState),
		},
		StatusLoaded: {
			"load": fail(CodeInvalidState), "execute": ok(StatusLoaded), "suspend": ok(StatusSuspended),
			"resume": fail(CodeInvalidState), "snapshot": ok(StatusLoaded), "restore": ok(StatusLoaded),
		},
		StatusSuspended: {
			"load": fail(CodeInvalidState), "execute": fail(CodeInvalidState), "suspend": fail(CodeInvalidState),
			"resume": ok(StatusLoaded), "snapshot": ok(StatusSuspended), "restore": ok(StatusLoaded),
		},
		StatusDestroyed: {
			"load": fail(CodeInstanceDestroyed), "execute": fail(CodeInstanceDestroyed), "suspend": fail(CodeInstanceDestroyed),
			"resume": fail(CodeInstanceDestroyed), "snapshot": fail(CodeInstanceDestroyed), "restore": fail(CodeInstanceDestroyed),
		},
	}
	setup := func(t *testing.T, s Status) (*Instance, []byte) {
		in, err := sharedRuntime().Create(baseConfig())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(in.Destroy)
		ref := loaded(t, baseConfig())
		snap, err := ref.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if s == StatusCreated {
			return in, snap
		}
		if err := in.Load(ctx, guest); err != nil {
			t.Fatal(err)
		}
		switch s {
		case StatusSuspended:
			if err := in.Suspend(); err != nil {
				t.Fatal(err)
			}
		case StatusDestroyed:
			in.Destroy()
		}
		return in, snap
	}
	for from, ops2 := range want {
		for _, o := range ops {
			t.Run(string(from)+"/"+o.name, func(t *testing.T) {
				in, snap := setup(t, from)
				w := ops2[o.name]
				err := o.do(in, snap)
				if w.code != "" {
					wantCode(t, o.name, err, w.code)
					if in.Status() != from {
						t.Errorf("status changed to %s by a refused %s", in.Status(), o.name)
					}
					return
				}
				if err != nil {
					t.Fatalf("%s: %v", o.name, err)
				}
				if in.Status() != w.status {
					t.Errorf("after %s: status %s, want %s", o.name, in.Status(), w.status)
				}
			})
		}
	}
	t.Run("destroy is idempotent", func(t *testing.T) {
		in, _ := setup(t, StatusLoaded)
		in.Destroy()
		in.Destroy()
		if in.Status() != StatusDestroyed {
			t.Errorf("status %s", in.Status())
		}
		if m := in.Metrics(); m.MemoryBytes != 0 {
			t.Errorf("destroyed instance holds %d bytes", m.MemoryBytes)
		}
	})
}

// TestRunning checks the running status: calls made while an execution
// is parked in a host function are refused, and Destroy stops it.
func TestRunning(t *testing.T) {
	ctx := context.Background()
	for _, destroy := range []bool{false, true} {
		entered, release := make(chan struct{}), make(chan struct{})
		cfg := baseConfig()
		cfg.MaxExecutionMs = 10_000
		cfg.HostFunctions[0].Fn = func(ctx context.Context, mem wasm.Memory, args []uint64) ([]uint64, error) {
			close(entered)
			<-release
			return []uint64{1}, nil
		}
		in := loaded(t, cfg)
		done := make(chan Result)
		go func() { done <- in.Execute(ctx, "callhost", []int{1, 2}) }()
		<-entered
		if s := in.Status(); s != StatusRunning {
			t.Errorf("status %s during the execution", s)
		}
		r := in.Execute(ctx, "noop", nil)
		wantCode(t, "execute while running", r.Error, CodeInvalidState)
		wantCode(t, "suspend while running", in.Suspend(), CodeInvalidState)
		_, err := in.Snapshot()
		wantCode(t, "snapshot while running", err, CodeInvalidState)
		if destroy {
			in.Destroy()
			in.Destroy()
		}
		close(release)
		r = <-done
		if destroy {
			wantCode(t, "destroyed during execution", r.Error, CodeInstanceDestroyed)
			if r.Value != nil || in.Status() != StatusDestroyed {
				t.Errorf("value %v, status %s", r.Value, in.Status())
			}
		} else if !r.OK || r.Value != int32(1) || in.Status() != StatusLoaded {
			t.Errorf("result %+v, status %s", r, in.Status())
		}
	}
}

func TestCallingConventions(t *testing.T) {
	in := loaded(t, baseConfig())
	ctx := context.Background()
	obj := map[string]any{"name": "ada", "n": []any{1.0, 2.5}}
	objJSON, _ := json.Marshal(obj)
	tests := []struct {
		name    string
		action  string
		payload any
		want    any
		code    Code
	}{
		{"no args, no result", "noop", nil, nil, ""},
		{"int args", "add", []int{2, 3}, int32(5), ""},
		{"JS numbers", "add", []any{2.0, -7.0}, int32(-5), ""},
		{"uint32 bits", "add", []uint32{0xffffffff, 1}, int32(0), ""},
		{"i64", "add64", []int64{1 << 40, 1 << 41}, int64(3 << 40), ""},
		{"f64", "mulf", []float64{1.5, 4}, 6.0, ""},
		{"f32", "halff", float32(3), float32(1.5), ""},
		{"single number", "fib", 10, int32(55), ""},
		{"two results", "divmod", []int32{17, 5}, []any{int32(3), int32(2)}, ""},
		{"canonical NaN", "nanbits", []float64{0, 0}, int64(0x7ff8000000000000), ""},
		{"object as JSON", "echo", obj, json.RawMessage(objJSON), ""},
		{"string as JSON", "echo2", "héllo", json.RawMessage(`"héllo"`), ""},
		{"raw JSON", "echo", json.RawMessage(`[1,2]`), json.RawMessage(`[1,2]`), ""},
		{"bytes", "echo2", []byte{0, 1, 2}, []byte{0, 1, 2}, ""},
		{"buffer, no result", "consume", "x", nil, ""},
		{"too few args", "add", 1, nil, CodeInvalidArgument},
		{"too many args", "noop", []int{1}, nil, CodeInvalidArgument},
		{"fraction to i32", "add", []float64{1.5, 1}, nil, CodeInvalidArgument},
		{"out of i32 range", "add", []int64{1 << 33, 1}, nil, CodeInvalidArgument},
		{"fraction to i64", "add64", []float64{0.5, 1}, nil, CodeInvalidArgument},
		{"unknown action", "nope", nil, nil, CodeInvalidArgument},
		{"internal export", "wasmsand_memory_grow", 1, nil, CodeInvalidArgument},
		{"JSON to a numeric action", "fib", "x", nil, CodeInvalidArgument},
		{"JSON to a bad signature", "mulf", "x", nil, CodeInvalidArgument},
		{"invalid raw JSON", "echo", json.RawMessage(`{`), nil, CodeInvalidArgument},
		{"unencodable", "echo", map[string]any{"f": func() {}}, nil, CodeInvalidArgument},
		{"result not JSON", "badjson", "x", nil, CodeInvalidResult},
		{"result outside memory", "outside", "x", nil, CodeInvalidResult},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := in.Execute(ctx, tt.action, tt.payload)
			if tt.code != "" {
				wantCode(t, tt.action, r.Error, tt.code)
				if r.OK || r.Value != nil {
					t.Errorf("failed execution returned ok=%v value %v", r.OK, r.Value)
				}
				return
			}
			if !r.OK {
				t.Fatalf("%s: %v", tt.action, r.Error)
			}
			if !reflect.DeepEqual(r.Value, tt.want) {
				t.Errorf("%s(%v) = %#v, want %#v", tt.action, tt.payload, r.Value, tt.want)
			}
			if r.Duration <= 0 || r.DurationMs() <= 0 || r.Metrics.Executions == 0 {
				t.Errorf("duration %v, metrics %+v", r.Duration, r.Metrics)
			}
		})
	}
}

// fibGas is the gas of fib(n): the instruction counts of package
// instrument's cost model (the function is the same as its test's).
func fibGas(n int) uint64 {
	if n < 2 {
		return 6
	}
	return 13 + fibGas(n-1) + fibGas(n-2)
}

func TestGas(t *testing.T) {
	ctx := context.Background()
	in := loaded(t, baseConfig())
	for _, n := range []int{0, 1, 10, 20} {
		r := in.Execute(ctx, "fib", n)
		if !r.OK || r.GasUsed != fibGas(n) {
			t.Errorf("fib(%d): ok=%v gas %d, want %d (%v)", n, r.OK, r.GasUsed, fibGas(n), r.Error)
		}
	}
	// The limit is exact.
	for _, tt := range []struct {
		max uint64
		ok  bool
	}{{fibGas(15), true}, {fibGas(15) - 1, false}, {fibGas(15) / 2, false}} {
		cfg := baseConfig()
		cfg.MaxGas = tt.max
		r := loaded(t, cfg).Execute(ctx, "fib", 15)
		if r.OK != tt.ok {
			t.Errorf("MaxGas %d: ok=%v (%v), want %v", tt.max, r.OK, r.Error, tt.ok)
		}
		if !tt.ok {
			wantCode(t, "fib over budget", r.Error, CodeGasExhausted)
			if r.GasUsed <= tt.max {
				t.Errorf("gas exhausted at %d, MaxGas %d", r.GasUsed, tt.max)
			}
		}
	}
	// Host calls cost HostCallGas each.
	gasWith := func(hostGas uint64) uint64 {
		cfg := baseConfig()
		cfg.HostCallGas = hostGas
		r := loaded(t, cfg).Execute(ctx, "callhost", []int{1, 2})
		if !r.OK {
			t.Fatal(r.Error)
		}
		return r.GasUsed
	}
	if a, b := gasWith(100), gasWith(1100); b-a != 1000 {
		t.Errorf("host call gas: %d with 100 per call, %d with 1100", a, b)
	}
}

func TestErrorCodes(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		edit    func(*Config)
		action  string
		payload any
		code    Code
		trap    wasm.TrapKind
	}{
		{"gas", nil, "spin", nil, CodeGasExhausted, ""},
		{"timeout", func(c *Config) { c.MaxGas = 1 << 62; c.MaxExecutionMs = 20 }, "spin", nil, CodeTimeout, ""},
		{"stack overflow", nil, "recurse", 1, CodeWasmTrap, wasm.TrapStackOverflow},
		{"divide by zero", nil, "div", []int{1, 0}, CodeWasmTrap, wasm.TrapDivideByZero},
		{"overflow", nil, "div", []int{-1 << 31, -1}, CodeWasmTrap, wasm.TrapIntegerOverflow},
		{"out of bounds", nil, "oob", nil, CodeWasmTrap, wasm.TrapOutOfBounds},
		{"unreachable", nil, "trap", nil, CodeWasmTrap, wasm.TrapUnreachable},
		{"memory", func(c *Config) { c.MaxMemoryBytes = 4 << 16 }, "hog", nil, CodeMemoryExceeded, wasm.TrapUnreachable},
		{"host error", nil, "callhost", []int{99, 1}, CodeHostFunctionError, ""},
		{"host panic", nil, "callhost", []int{98, 1}, CodeHostFunctionError, ""},
		{"host result count", nil, "callhost", []int{97, 1}, CodeHostFunctionError, ""},
		{"log out of bounds", nil, "sayoob", nil, CodeHostFunctionError, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			if tt.edit != nil {
				tt.edit(&cfg)
			}
			in := loaded(t, cfg)
			start := time.Now()
			r := in.Execute(ctx, tt.action, tt.payload)
			wantCode(t, tt.action, r.Error, tt.code)
			if r.Error.Trap != tt.trap {
				t.Errorf("trap %q, want %q", r.Error.Trap, tt.trap)
			}
			if r.OK || r.Value != nil {
				t.Errorf("ok=%v value=%v", r.OK, r.Value)
			}
			if !errors.Is(r.Error, &Error{Code: tt.code}) {
				t.Errorf("errors.Is does not match the code")
			}
			if tt.code == CodeTimeout && time.Since(start) > time.Second {
				t.Errorf("timeout took %v", time.Since(start))
			}
			// The instance stays usable.
			if r := in.Execute(ctx, "add", []int{1, 2}); !r.OK {
				t.Errorf("after %s: %v", tt.name, r.Error)
			}
		})
	}
	t.Run("refused grow survived", func(t *testing.T) {
		in := loaded(t, baseConfig())
		r := in.Execute(ctx, "tryhog", nil)
		if !r.OK || r.Value != int32(-1) || r.Metrics.FailedGrows != 1 {
			t.Errorf("tryhog: %+v", r)
		}
		r = in.Execute(ctx, "growmem", 3)
		if !r.OK || r.Value != int32(1) || r.Metrics.MemoryBytes != 4<<16 {
			t.Errorf("growmem(3): %+v", r)
		}
	})
}

func TestInvalidModules(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		bin  []byte
		code Code
		msg  string
	}{
		{"garbage", []byte("\x00asm\x01\x00\x00\x00\x01\xff"), CodeInvalidModule, ""},
		{"empty", nil, CodeInvalidModule, ""},
		{"WASI", readTestdata(t, "wasi.wasm"), CodeInvalidModule, `"wasi_snapshot_preview1"."fd_write"`},
		{"undeclared", readTestdata(t, "undeclared.wasm"), CodeInvalidModule, `"env"."secret"`},
		{"wrong type", readTestdata(t, "badtype.wasm"), CodeInvalidModule, `"env"."__get_time"`},
		{"text", readTestdata(t, "small.wat"), CodeInvalidModule, "wat2wasm"},
		{"endless start", readTestdata(t, "start.wasm"), CodeGasExhausted, ""},
		{"undeclared host function", readTestdata(t, "guest.wasm"), CodeInvalidModule, `"env"."add_host"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			if tt.name == "undeclared host function" {
				cfg.HostFunctions = nil
			}
			in, err := sharedRuntime().Create(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Destroy()
			err = in.Load(ctx, tt.bin)
			wantCode(t, tt.name, err, tt.code)
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not name %s", err, tt.msg)
			}
			if in.Status() != StatusCreated {
				t.Errorf("status %s after a failed load", in.Status())
			}
		})
	}
}

func TestHostCalls(t *testing.T) {
	ctx := context.Background()
	files := fstest.MapFS{"data/a.txt": {Data: []byte("alpha")}, "database/x": {Data: []byte("no")}}
	fetched := 0
	cfg := baseConfig()
	cfg.DeterministicSeed = 42
	cfg.FS = files
	cfg.ReadPrefixes = []string{"/data"}
	cfg.FetchHosts = []string{"example.com"}
	cfg.Fetch = func(ctx context.Context, url string) ([]byte, error) {
		if _, ok := ctx.Deadline(); !ok {
			t.Error("fetch ctx has no deadline")
		}
		fetched++
		if strings.HasSuffix(url, "/fail") {
			return nil, errors.New("503")
		}
		return []byte("page " + url), nil
	}
	in := loaded(t, cfg)

	r := in.Execute(ctx, "callhost", []int{20, 22})
	if !r.OK || r.Value != int32(42) {
		t.Fatalf("callhost: %+v", r)
	}
	want := HostCall{Seq: 0, Name: "add_host", Inputs: []uint64{20, 22}, Outputs: []uint64{42}, GasAtCall: r.HostCalls[0].GasAtCall}
	if len(r.HostCalls) != 1 || !reflect.DeepEqual(r.HostCalls[0], want) || want.GasAtCall == 0 {
		t.Errorf("log %+v, want %+v", r.HostCalls, want)
	}
	if !reflect.DeepEqual(in.HostCallLog(), r.HostCalls) {
		t.Error("HostCallLog differs from the result's log")
	}

	r = in.Execute(ctx, "callhost", []int{99, 1})
	if len(r.HostCalls) != 1 || r.HostCalls[0].Error != "refusing 99" || r.HostCalls[0].Outputs != nil {
		t.Errorf("failed call log %+v", r.HostCalls)
	}

	if r := in.Execute(ctx, "now", nil); r.Value != int64(1_700_000_000_000) {
		t.Errorf("__get_time = %v", r.Value)
	}
	var got []int64
	for range 3 {
		r := in.Execute(ctx, "rand", nil)
		got = append(got, int64(uint32(r.Value.(int32))))
	}
	if want := []int64{2581720956, 1925393290, 3661312704}; !reflect.DeepEqual(got, want) { // mulberry32(42) in JS
		t.Errorf("__get_random = %v, want %v", got, want)
	}

	r = in.Execute(ctx, "say", []byte("hello, host"))
	if !r.OK || !reflect.DeepEqual(r.Logs, []string{"hello, host"}) || r.HostCalls[0].Detail != "hello, host" {
		t.Errorf("__log: %+v", r)
	}

	read := func(path string) (string, int32, HostCall) {
		r := in.Execute(ctx, "read", []byte(path))
		if !r.OK {
			t.Fatalf("read %s: %v", path, r.Error)
		}
		last := in.Execute(ctx, "last", nil)
		return string(r.Value.([]byte)), last.Value.(int32), r.HostCalls[0]
	}
	for _, tt := range []struct {
		path, data string
		code       int32
		capability string
		granted    bool
	}{
		{"/data/a.txt", "alpha", 5, "read:/data/a.txt", true},
		{"data/a.txt", "alpha", 5, "read:/data/a.txt", true},
		{"/data/missing", "", ResultFailed, "read:/data/missing", true},
		{"/database/x", "", ResultDenied, "read:/database/x", false},
		{"/data/../database/x", "", ResultDenied, "read:/database/x", false},
	} {
		data, code, rec := read(tt.path)
		if data != tt.data || code != tt.code || rec.Capability != tt.capability || rec.Granted != tt.granted {
			t.Errorf("read %s: %q %d %+v", tt.path, data, code, rec)
		}
	}

	fetch := func(in *Instance, url string) (string, int32, HostCall) {
		r := in.Execute(ctx, "fetch", []byte(url))
		if !r.OK {
			t.Fatalf("fetch %s: %v", url, r.Error)
		}
		last := in.Execute(ctx, "last", nil)
		return string(r.Value.([]byte)), last.Value.(int32), r.HostCalls[0]
	}
	for _, tt := range []struct {
		url, data  string
		code       int32
		capability string
		granted    bool
	}{
		{"https://example.com/x", "page https://example.com/x", 26, "fetch:example.com", true},
		{"https://example.com/fail", "", ResultFailed, "fetch:example.com", true},
		{"https://evil.com/x", "", ResultDenied, "fetch:evil.com", false},
		{"file:///etc/passwd", "", ResultDenied, "fetch:?", false},
	} {
		data, code, rec := fetch(in, tt.url)
		if data != tt.data || code != tt.code || rec.Capability != tt.capability || rec.Granted != tt.granted {
			t.Errorf("fetch %s: %q %d %+v", tt.url, data, code, rec)
		}
	}
	if fetched != 2 {
		t.Errorf("Fetch called %d times, want 2", fetched)
	}

	// Denied by default.
	plain := loaded(t, baseConfig())
	if data, code, rec := fetch(plain, "https://example.com/x"); data != "" || code != ResultDenied || rec.Granted {
		t.Errorf("default fetch: %q %d %+v", data, code, rec)
	}
	r = plain.Execute(ctx, "read", []byte("/data/a.txt"))
	if r.HostCalls[0].Granted || plain.Execute(ctx, "last", nil).Value != int32(ResultDenied) {
		t.Errorf("default read: %+v", r.HostCalls)
	}
}

func TestIsolation(t *testing.T) {
	ctx := context.Background()
	a, b := loaded(t, baseConfig()), loaded(t, baseConfig())
	a.Execute(ctx, "poke", []int{64, 1234})
	a.Execute(ctx, "bump", nil)
	if r := b.Execute(ctx, "peek", 64); r.Value != int32(0) {
		t.Errorf("b sees a's memory: %v", r.Value)
	}
	if r := b.Execute(ctx, "bump", nil); r.Value != int32(1) {
		t.Errorf("b sees a's globals: %v", r.Value)
	}
}

func TestPressure(t *testing.T) {
	ctx := context.Background()
	a, b, c := loaded(t, baseConfig()), loaded(t, baseConfig()), loaded(t, baseConfig())
	b.Execute(ctx, "growmem", 3) // 4 pages
	c.Execute(ctx, "growmem", 1) // 2 pages
	all := []*Instance{a, b, c}
	const page = 1 << 16 // in use: 1+4+2 = 7 pages
	for _, tt := range []struct {
		avail uint64
		want  PressureLevel
	}{
		{100 * page, PressureNormal}, {10 * page, PressureWarning}, {8 * page, PressurePressure},
		{7*page + page/4, PressureCritical}, {7 * page, PressureOOM}, {page, PressureOOM}, {0, PressureOOM},
	} {
		if got := GetMemoryPressure(all, tt.avail); got != tt.want {
			t.Errorf("available %d pages: %s, want %s", tt.avail/page, got, tt.want)
		}
	}
	for _, tt := range []struct {
		level   PressureLevel
		fg      string
		action  Action
		targets []string
	}{
		{PressureNormal, a.ID(), ActionNone, nil},
		{PressureWarning, a.ID(), ActionLog, nil},
		{PressurePressure, a.ID(), ActionSuspend, []string{b.ID()}},
		{PressurePressure, b.ID(), ActionSuspend, []string{c.ID()}},
		{PressureCritical, b.ID(), ActionSuspend, []string{c.ID(), a.ID()}},
		{PressureOOM, c.ID(), ActionEmergencySave, []string{c.ID(), a.ID(), b.ID()}},
	} {
		adv := Advise(tt.level, all, tt.fg)
		if adv.Action != tt.action || !reflect.DeepEqual(adv.Targets, tt.targets) {
			t.Errorf("Advise(%s, fg %s) = %+v, want %s %v", tt.level, tt.fg, adv, tt.action, tt.targets)
		}
	}
	// Suspending frees memory.
	if err := b.Suspend(); err != nil {
		t.Fatal(err)
	}
	if got := GetMemoryPressure(all, 5*page); got != PressureNormal {
		t.Errorf("after suspending b: %s", got)
	}
	if adv := Advise(PressureCritical, []*Instance{b}, ""); adv.Action != ActionLog {
		t.Errorf("advice with nothing to suspend: %+v", adv)
	}
}

func TestValidateDeterminism(t *testing.T) {
	ctx := context.Background()
	guest := readTestdata(t, "guest.wasm")
	for _, tt := range []struct{ action string }{{"fib"}, {"mix"}, {"spin"}, {"callhost"}} {
		payload := any(nil)
		switch tt.action {
		case "fib":
			payload = 15
		case "callhost":
			payload = []int{1, 2}
		}
		rep, err := sharedRuntime().ValidateDeterminism(ctx, guest, tt.action, payload, baseConfig())
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Deterministic {
			t.Errorf("%s: %v", tt.action, rep.Differences)
		}
	}
	// A host function with hidden state is caught.
	calls := int32(0)
	cfg := baseConfig()
	cfg.HostFunctions[0].Fn = func(context.Context, wasm.Memory, []uint64) ([]uint64, error) {
		calls++
		return []uint64{uint64(calls)}, nil
	}
	rep, err := sharedRuntime().ValidateDeterminism(ctx, guest, "callhost", []int{1, 2}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Deterministic || len(rep.Differences) == 0 {
		t.Errorf("hidden state not detected: %+v", rep)
	}
	if _, err := sharedRuntime().ValidateDeterminism(ctx, []byte("junk"), "x", nil, baseConfig()); err == nil {
		t.Error("junk module validated")
	}
}
