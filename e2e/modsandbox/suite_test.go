package modsandbox

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm"
	ms "github.com/wasmsand/wasmsand/wasm/modsandbox"
	"github.com/wasmsand/wasmsand/wasm/modsandbox/native"
)

// suite is testdata/suite.json.
type suite struct {
	Config caseConfig  `json:"config"`
	Cases  []suiteCase `json:"cases"`
}

type caseConfig struct {
	EventTimestamp    *int64   `json:"eventTimestamp"`
	DeterministicSeed *uint32  `json:"deterministicSeed"`
	MaxGas            *uint64  `json:"maxGas"`
	MaxMemoryBytes    *uint64  `json:"maxMemoryBytes"`
	MaxExecutionMs    *int64   `json:"maxExecutionMs"`
	HostFunctions     []string `json:"hostFunctions"`
}

type suiteCase struct {
	Name string `json:"name"`
	// KnownDifference, when set, says why JavaScript engines give other
	// results for this case: a bug to fix, reported but not failed on.
	KnownDifference string     `json:"knownDifference"`
	Module          string     `json:"module"`
	Config          caseConfig `json:"config"`
	Steps           []step     `json:"steps"`
}

type step struct {
	Op       string          `json:"op"`
	Action   string          `json:"action"`
	Args     []any           `json:"args"`
	JSON     json.RawMessage `json:"json"`
	String   *string         `json:"string"`
	Truncate *int            `json:"truncate"`
	Corrupt  *int            `json:"corrupt"`
}

func readSuite(t testing.TB) *suite {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s suite
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("testdata/suite.json: %v", err)
	}
	return &s
}

func readModule(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("%v (rebuild the modules with wat2wasm, see the .wat files)", err)
	}
	return b
}

// goHostFunctions are suite.mjs's hostFunctions in Go.
var goHostFunctions = map[string]ms.HostFunction{
	"add_host": {Params: []wasm.ValueType{wasm.I32, wasm.I32}, Results: []wasm.ValueType{wasm.I32}, NonBlocking: true,
		Fn: func(_ context.Context, _ wasm.Memory, a []uint64) ([]uint64, error) {
			if int32(a[0]) == 99 {
				return nil, errors.New("refusing 99")
			}
			return []uint64{uint64(uint32(int32(a[0]) + int32(a[1])))}, nil
		}},
	"mix64": {Params: []wasm.ValueType{wasm.I64, wasm.I32}, Results: []wasm.ValueType{wasm.I64}, NonBlocking: true,
		Fn: func(_ context.Context, _ wasm.Memory, a []uint64) ([]uint64, error) {
			return []uint64{uint64(int64(a[0])*31 + int64(int32(a[1])))}, nil
		}},
	"fadd": {Params: []wasm.ValueType{wasm.F64, wasm.F64}, Results: []wasm.ValueType{wasm.F64}, NonBlocking: true,
		Fn: func(_ context.Context, _ wasm.Memory, a []uint64) ([]uint64, error) {
			return []uint64{math.Float64bits(math.Float64frombits(a[0]) + math.Float64frombits(a[1]))}, nil
		}},
}

// config merges a case's config over the suite's.
func (s *suite) config(c *suiteCase) ms.Config {
	var cfg ms.Config
	for _, cc := range []caseConfig{s.Config, c.Config} {
		if cc.EventTimestamp != nil {
			cfg.EventTimestamp = *cc.EventTimestamp
		}
		if cc.DeterministicSeed != nil {
			cfg.DeterministicSeed = *cc.DeterministicSeed
		}
		if cc.MaxGas != nil {
			cfg.MaxGas = *cc.MaxGas
		}
		if cc.MaxMemoryBytes != nil {
			cfg.MaxMemoryBytes = *cc.MaxMemoryBytes
		}
		if cc.MaxExecutionMs != nil {
			cfg.MaxExecutionMs = *cc.MaxExecutionMs
		}
		if cc.HostFunctions != nil {
			cfg.HostFunctions = nil
			for _, name := range cc.HostFunctions {
				hf := goHostFunctions[name]
				hf.Name = name
				cfg.HostFunctions = append(cfg.HostFunctions, hf)
			}
		}
	}
	return cfg
}

// The canonical steps, in the key order of suite.mjs.
type (
	executeStep struct {
		Op        string     `json:"op"`
		Action    string     `json:"action"`
		OK        bool       `json:"ok"`
		Value     string     `json:"value"`
		Error     string     `json:"error"`
		Gas       string     `json:"gas"`
		HostCalls []hostCall `json:"hostCalls"`
		Logs      []string   `json:"logs"`
		State     string     `json:"state"`
	}
	hostCall struct {
		Seq        string   `json:"seq"`
		Name       string   `json:"name"`
		Inputs     []string `json:"inputs"`
		Outputs    []string `json:"outputs"`
		GasAtCall  string   `json:"gasAtCall"`
		Capability string   `json:"capability"`
		Granted    bool     `json:"granted"`
		Detail     string   `json:"detail"`
		Error      string   `json:"error"`
	}
	snapshotStep struct {
		Op    string `json:"op"`
		Size  string `json:"size"`
		State string `json:"state"`
	}
	restoreStep struct {
		Op    string `json:"op"`
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	caseResult struct {
		Name  string `json:"name"`
		Steps []any  `json:"steps"`
	}
)

// f64 describes a number as JavaScript holds it: its float64 bits.
func f64(x float64) string {
	return "f64:" + fmt.Sprintf("%016x", math.Float64bits(x))
}

// canonical describes a value of Result.Value as suite.mjs's canonical
// describes its JavaScript form.
func canonical(v any) string {
	switch x := v.(type) {
	case nil:
		return "none"
	case int32:
		return f64(float64(x))
	case int64:
		return "i64:" + strconv.FormatInt(x, 10)
	case float32:
		return f64(float64(x))
	case float64:
		return f64(x)
	case []byte:
		return "bytes:" + hex.EncodeToString(x)
	case json.RawMessage:
		var b bytes.Buffer
		if err := json.Compact(&b, x); err != nil {
			return "bad json: " + err.Error()
		}
		return "json:" + b.String()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = canonical(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return fmt.Sprintf("unknown %T", v)
}

// rawCanonical describes a raw host-call value of type t.
func rawCanonical(t wasm.ValueType, raw uint64) string {
	switch t {
	case wasm.I32:
		return canonical(int32(uint32(raw)))
	case wasm.I64:
		return canonical(int64(raw))
	case wasm.F32:
		return canonical(math.Float32frombits(uint32(raw)))
	}
	return canonical(math.Float64frombits(raw))
}

func errorKey(e *ms.Error) string {
	if e == nil {
		return ""
	}
	parts := []string{string(e.Code)}
	if e.Trap != "" {
		parts = append(parts, string(e.Trap))
	}
	if e.Check != "" {
		parts = append(parts, e.Check)
	}
	return strings.Join(parts, "/")
}

func stateHash(t testing.TB, in *ms.Instance) (string, []byte) {
	t.Helper()
	snap, err := in.Snapshot()
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	sum := sha256.Sum256(snap)
	return hex.EncodeToString(sum[:]), snap
}

// payload is a step's payload as the Go API takes it.
func (st *step) payload() any {
	switch {
	case st.JSON != nil:
		var b bytes.Buffer
		json.Compact(&b, st.JSON)
		return json.RawMessage(b.Bytes())
	case st.String != nil:
		return *st.String
	case st.Args != nil:
		return st.Args
	}
	return nil
}

// runCase runs one case on rt and returns its canonical steps.
func runCase(t testing.TB, rt *ms.Runtime, s *suite, c *suiteCase) []any {
	t.Helper()
	ctx := context.Background()
	cfg := s.config(c)
	in, err := rt.Create(cfg)
	if err != nil {
		t.Fatalf("%s: create: %v", c.Name, err)
	}
	defer in.Destroy()
	if err := in.Load(ctx, readModule(t, c.Module)); err != nil {
		t.Fatalf("%s: load: %v", c.Name, err)
	}
	frozen := in.Config()
	var out []any
	var snap []byte
	for _, st := range c.Steps {
		switch st.Op {
		case "", "execute":
			r := in.Execute(ctx, st.Action, st.payload())
			es := executeStep{Op: "execute", Action: st.Action, OK: r.OK, Error: errorKey(r.Error),
				Gas: strconv.FormatUint(r.GasUsed, 10), HostCalls: []hostCall{}, Logs: r.Logs}
			if r.OK {
				es.Value = canonical(r.Value)
			}
			if es.Logs == nil {
				es.Logs = []string{}
			}
			for _, h := range r.HostCalls {
				params, results, _ := frozen.Signature(h.Name)
				hc := hostCall{Seq: strconv.Itoa(h.Seq), Name: h.Name, Inputs: []string{}, Outputs: []string{},
					GasAtCall: strconv.FormatUint(h.GasAtCall, 10), Capability: h.Capability, Granted: h.Granted,
					Detail: h.Detail, Error: h.Error}
				for i, x := range h.Inputs {
					hc.Inputs = append(hc.Inputs, rawCanonical(params[i], x))
				}
				for i, x := range h.Outputs {
					hc.Outputs = append(hc.Outputs, rawCanonical(results[i], x))
				}
				es.HostCalls = append(es.HostCalls, hc)
			}
			es.State, _ = stateHash(t, in)
			out = append(out, es)
		case "snapshot":
			var h string
			h, snap = stateHash(t, in)
			out = append(out, snapshotStep{Op: "snapshot", Size: strconv.Itoa(len(snap)), State: h})
		case "restore":
			b := snap
			if st.Truncate != nil {
				b = snap[:*st.Truncate]
			}
			if st.Corrupt != nil {
				b = bytes.Clone(snap)
				b[*st.Corrupt] ^= 0xff
			}
			rs := restoreStep{Op: "restore", OK: true}
			if err := in.Restore(ctx, b); err != nil {
				var e *ms.Error
				errors.As(err, &e)
				rs.OK, rs.Error = false, errorKey(e)
			}
			out = append(out, rs)
		default:
			t.Fatalf("%s: unknown op %q", c.Name, st.Op)
		}
	}
	return out
}

// runSuite runs the suite on rt: one line of JSON per case, as
// suite.mjs's runSuite.
func runSuite(t testing.TB, rt *ms.Runtime, s *suite) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for i := range s.Cases {
		c := &s.Cases[i]
		if err := enc.Encode(caseResult{Name: c.Name, Steps: runCase(t, rt, s, c)}); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// wazeroResults runs the suite on wazero.
func wazeroResults(t testing.TB) string {
	t.Helper()
	rt := native.New()
	defer rt.Close(context.Background())
	return runSuite(t, rt, readSuite(t))
}

// TestWazero runs the suite on wazero, twice, and checks what it must
// show whatever the engine.
func TestWazero(t *testing.T) {
	out := wazeroResults(t)
	if again := wazeroResults(t); again != out {
		t.Fatalf("two runs on wazero differ:\n%s", lineDiff(out, again))
	}
	steps := map[string][]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var cr struct {
			Name  string           `json:"name"`
			Steps []map[string]any `json:"steps"`
		}
		if err := json.Unmarshal([]byte(line), &cr); err != nil {
			t.Fatal(err)
		}
		steps[cr.Name] = cr.Steps
	}
	for _, w := range []struct {
		name  string
		step  int
		key   string
		value string
	}{
		{"fib", 0, "value", f64(42)},
		{"fib", 1, "value", f64(math.MinInt32)},
		{"fib", 2, "value", f64(6765)},
		{"fib", 3, "value", "i64:2880067194370816120"},
		{"fib", 5, "error", "WASM_TRAP/stack overflow"},
		{"fib", 6, "error", "GAS_EXHAUSTED"},
		{"floats", 0, "value", "i64:" + strconv.FormatInt(0x7ff8000000000000, 10)},
		{"floats", 3, "value", "i64:" + strconv.FormatInt(0x7ff8000000000000, 10)},
		{"floats", 5, "value", f64(0x7fc00000)},
		{"floats", 8, "value", "f64:7ff8000000000000"},
		{"signed zero", 0, "value", "f64:8000000000000000"},
		{"signed zero", 1, "value", "f64:8000000000000000"},
		{"memory", 1, "value", f64(1)},
		{"memory", 4, "value", f64(-1)},
		{"memory", 5, "error", "WASM_TRAP/out of bounds memory access"},
		{"memory", 6, "error", "MEMORY_EXCEEDED/unreachable"},
		{"memory", 7, "value", f64(4)},
		{"host", 0, "value", "i64:1700000000000"},
		{"host", 2, "value", f64(5)},
		{"host", 3, "error", "HOST_FUNCTION_ERROR"},
		{"host", 4, "value", "i64:-148"},
		{"host", 7, "value", `json:{"a":[1,2,"x"],"b":true,"c":null}`},
		{"host", 8, "value", `json:"héllo <tag> & \"quotes\""`},
		{"snapshot round trip", 7, "error", "SNAPSHOT_ERROR/length"},
		{"snapshot round trip", 8, "error", "SNAPSHOT_ERROR/checksum"},
		{"snapshot round trip", 9, "value", f64(7)},
		{"gas limit in a host loop", 0, "error", "GAS_EXHAUSTED"},
	} {
		s := steps[w.name]
		if w.step >= len(s) {
			t.Errorf("%s: no step %d", w.name, w.step)
			continue
		}
		if got := fmt.Sprint(s[w.step][w.key]); got != w.value {
			t.Errorf("%s step %d: %s = %s, want %s", w.name, w.step, w.key, got, w.value)
		}
	}
	// The round trip: after restore, the same steps give the same results.
	rt := steps["snapshot round trip"]
	for _, pair := range [][2]int{{2, 5}, {3, 6}} {
		a, _ := json.Marshal(rt[pair[0]])
		b, _ := json.Marshal(rt[pair[1]])
		if !bytes.Equal(a, b) {
			t.Errorf("after restore, step %d differs from step %d:\n%s\n%s", pair[1], pair[0], b, a)
		}
	}
	if rt[1]["state"] == rt[2]["state"] {
		t.Error("the state did not change between the snapshot and the next step")
	}
}

// compareResults fails t for every case whose line differs between
// wazero's results and another engine's, and logs the differences of
// cases with a known difference.
func compareResults(t *testing.T, engine, want, got string) {
	t.Helper()
	known := map[string]string{}
	for _, c := range readSuite(t).Cases {
		known[c.Name] = c.KnownDifference
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	if len(w) != len(g) {
		t.Fatalf("%s gave %d lines, wazero %d:\n%s", engine, len(g), len(w), lineDiff(want, got))
	}
	for i := range w {
		if w[i] == g[i] {
			continue
		}
		var c struct {
			Name string `json:"name"`
		}
		json.Unmarshal([]byte(w[i]), &c)
		if why := known[c.Name]; why != "" {
			t.Logf("case %q: %s differs from wazero, a known difference: %s", c.Name, engine, why)
			continue
		}
		t.Errorf("case %q: %s differs from wazero:\n%s", c.Name, engine, lineDiff(w[i], g[i]))
	}
}

// lineDiff shows the first differing line of two outputs.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\nwazero: %s\nother:  %s", i+1, a, b)
		}
	}
	return "(no difference)"
}
