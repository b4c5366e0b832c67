package modsandbox

import (
	"context"
	"io/fs"
	"slices"
	"strings"

	"github.com/wasmsand/wasmsand/wasm"
)

// Defaults used for zero fields of Config.
const (
	DefaultMaxMemoryBytes = 16 << 20
	DefaultMaxGas         = 1_000_000
	DefaultMaxExecutionMs = 50
	DefaultHostCallGas    = 100
	DefaultMaxCallDepth   = 1000
)

// Config configures one instance. Create copies it; the copy is frozen
// for the instance's life (Instance.Config returns it).
type Config struct {
	// MaxMemoryBytes caps linear memory, rounded down to 64 KiB pages
	// (at least one). memory.grow past it fails inside the guest.
	MaxMemoryBytes uint64
	// MaxGas caps the gas of one Execute: one unit per instruction of the
	// guest plus HostCallGas per host call.
	MaxGas uint64
	// MaxExecutionMs caps the wall-clock time of one Execute.
	MaxExecutionMs int64
	// HostFunctions are the functions the guest may import from "env",
	// besides the built-ins (see the package documentation).
	HostFunctions []HostFunction
	// DeterministicSeed seeds the Mulberry32 generator behind __get_random.
	DeterministicSeed uint32
	// EventTimestamp is what __get_time returns (for example Unix
	// milliseconds of the event being processed). Required: 0 is refused
	// as the likely sign of a forgotten field.
	EventTimestamp int64

	// HostCallGas is the gas charged per host call (default 100).
	HostCallGas uint64
	// MaxCallDepth is the deterministic call-depth limit; deeper calls
	// trap with "stack overflow" on every engine (default 1000, at most
	// 10000).
	MaxCallDepth uint32

	// ReadPrefixes are the path prefixes __read_file may read, from FS.
	// Empty: every read is denied.
	ReadPrefixes []string
	// FS is where __read_file reads (paths without the leading "/").
	FS fs.FS
	// FetchHosts are the host names (as in URL.Host) __fetch may reach,
	// through Fetch. Empty, or Fetch nil: every fetch is denied.
	FetchHosts []string
	// Fetch performs an allowed fetch. ctx carries the execution's
	// deadline.
	Fetch func(ctx context.Context, url string) ([]byte, error)
}

// HostFunc implements a host function. args are the guest's arguments
// as raw bits (i32 in the low 32 bits, floats as their IEEE bits); it
// returns one raw value per declared result. mem is the guest's memory
// (nil if it has none), valid only during the call. A non-nil error stops
// the guest with CodeHostFunctionError.
type HostFunc func(ctx context.Context, mem wasm.Memory, args []uint64) ([]uint64, error)

// HostFunction declares one function guests may import from "env".
type HostFunction struct {
	Name    string
	Params  []wasm.ValueType
	Results []wasm.ValueType
	Fn      HostFunc
	// NonBlocking promises that Fn never waits (see wasm.HostFunc): under
	// GOOS=js such a function runs directly on the guest's call, without
	// a trip through the event loop.
	NonBlocking bool
}

// Preset names.
const (
	PresetMinimal  = "minimal"
	PresetStandard = "standard"
	PresetGenerous = "generous"
)

// Preset returns the limits of a named preset (fuel 1e9/1e10/1e11,
// memory 16/64/256 MiB, timeout 5/30/300 s); ok is false for an unknown
// name. EventTimestamp and the capabilities are left for the caller.
func Preset(name string) (cfg Config, ok bool) {
	switch name {
	case PresetMinimal:
		return Config{MaxGas: 1e9, MaxMemoryBytes: 16 << 20, MaxExecutionMs: 5_000}, true
	case PresetStandard:
		return Config{MaxGas: 1e10, MaxMemoryBytes: 64 << 20, MaxExecutionMs: 30_000}, true
	case PresetGenerous:
		return Config{MaxGas: 1e11, MaxMemoryBytes: 256 << 20, MaxExecutionMs: 300_000}, true
	}
	return Config{}, false
}

const maxCallDepthLimit = 10000

// frozen validates cfg, fills in defaults and returns a deep copy.
func (cfg Config) frozen() (Config, error) {
	c := cfg
	if c.EventTimestamp == 0 {
		return c, newError(CodeInvalidConfig, "EventTimestamp is required: set it to the time of the event being processed")
	}
	if c.MaxMemoryBytes == 0 {
		c.MaxMemoryBytes = DefaultMaxMemoryBytes
	}
	if c.MaxMemoryBytes < 1<<16 {
		return c, newError(CodeInvalidConfig, "MaxMemoryBytes must be at least one 64 KiB page")
	}
	if c.MaxMemoryBytes > 1<<32 {
		c.MaxMemoryBytes = 1 << 32
	}
	c.MaxMemoryBytes &^= 1<<16 - 1
	if c.MaxGas == 0 {
		c.MaxGas = DefaultMaxGas
	}
	if c.MaxGas > 1<<62 {
		return c, newError(CodeInvalidConfig, "MaxGas must be at most 2^62")
	}
	if c.MaxExecutionMs == 0 {
		c.MaxExecutionMs = DefaultMaxExecutionMs
	}
	if c.MaxExecutionMs < 0 {
		return c, newError(CodeInvalidConfig, "MaxExecutionMs must be positive")
	}
	if c.HostCallGas == 0 {
		c.HostCallGas = DefaultHostCallGas
	}
	if c.MaxCallDepth == 0 {
		c.MaxCallDepth = DefaultMaxCallDepth
	}
	if c.MaxCallDepth > maxCallDepthLimit {
		return c, newError(CodeInvalidConfig, "MaxCallDepth must be at most 10000")
	}
	c.HostFunctions = make([]HostFunction, len(cfg.HostFunctions))
	seen := map[string]bool{}
	for i, hf := range cfg.HostFunctions {
		switch {
		case hf.Name == "":
			return c, newError(CodeInvalidConfig, "a host function has no name")
		case strings.HasPrefix(hf.Name, "__"):
			return c, newError(CodeInvalidConfig, "host function "+hf.Name+": names starting with __ are reserved for built-ins")
		case seen[hf.Name]:
			return c, newError(CodeInvalidConfig, "host function "+hf.Name+" is declared twice")
		case hf.Fn == nil:
			return c, newError(CodeInvalidConfig, "host function "+hf.Name+" has no Fn")
		}
		for _, t := range append(slices.Clone(hf.Params), hf.Results...) {
			if t != wasm.I32 && t != wasm.I64 && t != wasm.F32 && t != wasm.F64 {
				return c, newError(CodeInvalidConfig, "host function "+hf.Name+" has a parameter or result that is not i32, i64, f32 or f64")
			}
		}
		seen[hf.Name] = true
		c.HostFunctions[i] = HostFunction{Name: hf.Name, Params: slices.Clone(hf.Params), Results: slices.Clone(hf.Results), Fn: hf.Fn, NonBlocking: hf.NonBlocking}
	}
	slices.SortFunc(c.HostFunctions, func(a, b HostFunction) int { return strings.Compare(a.Name, b.Name) })
	c.ReadPrefixes = slices.Clone(cfg.ReadPrefixes)
	c.FetchHosts = slices.Clone(cfg.FetchHosts)
	return c, nil
}

// clone returns a copy of a frozen config that shares nothing mutable.
func (cfg *Config) clone() Config {
	c := *cfg
	c.HostFunctions = slices.Clone(cfg.HostFunctions)
	for i := range c.HostFunctions {
		c.HostFunctions[i].Params = slices.Clone(c.HostFunctions[i].Params)
		c.HostFunctions[i].Results = slices.Clone(c.HostFunctions[i].Results)
	}
	c.ReadPrefixes = slices.Clone(cfg.ReadPrefixes)
	c.FetchHosts = slices.Clone(cfg.FetchHosts)
	return c
}

// Signature returns the types of the "env" function name guests of an
// instance with this config may import: a built-in or one of
// HostFunctions. ok is false for any other name.
func (cfg *Config) Signature(name string) (params, results []wasm.ValueType, ok bool) {
	for _, b := range builtins {
		if b.name == name {
			return slices.Clone(b.params), slices.Clone(b.results), true
		}
	}
	for _, hf := range cfg.HostFunctions {
		if hf.Name == name {
			return slices.Clone(hf.Params), slices.Clone(hf.Results), true
		}
	}
	return nil, nil, false
}
