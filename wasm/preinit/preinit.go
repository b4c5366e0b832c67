// Package preinit turns a WASI reactor into a pre-initialised WASI
// command, in the manner of Wizer: it runs the reactor's _initialize once,
// then writes a new module whose linear memory and mutable globals start
// where that initialisation left them, and whose _start calls the
// reactor's entry function.
//
// A Go program built with GOOS=wasip1 -buildmode=c-shared does its whole
// start-up (the runtime, then every package's init) in _initialize; an
// image made from it skips that work in every process that runs it, and
// each process still gets a fresh instance of its own. The image is an
// ordinary module: any engine runs it, and instrumenting it (fuel, memory
// caps) works as on any other module.
//
// Initialisation runs in wazero's interpreter against a small, fixed WASI
// host: arguments and environment from Options, no files but the three
// standard streams (whose output is kept for error messages) and a
// preopened "/", a clock that starts at Options.Time and advances one
// microsecond per reading, and random bytes from a fixed seed. So the same
// module and Options always give the same image, byte for byte. A call to
// any other host function fails the initialisation (WASI calls answer
// ENOSYS). What the program reads from its process during initialisation
// is the image's forever: the entry function must read again whatever must
// differ between processes (arguments, environment, working directory).
//
// Image requires a module that defines one memory and imports no memory,
// table or global, has an _initialize export and an entry export taking and
// returning nothing, has only active data segments and no instruction that
// writes a table. Other modules are refused with an error wrapping
// ErrNotReactor or ErrUnsupported.
package preinit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// EntryName is the entry export Image calls from _start unless
// Options.Entry names another.
const EntryName = "wasmsand_main"

// InitName is the reactor's initialisation export.
const InitName = "_initialize"

// pageSize is the size of a WebAssembly memory page.
const pageSize = 1 << 16

// maxGap is the longest run of zero bytes kept inside one data segment:
// a fresh memory is zero, but one more segment costs an engine about as
// much as copying that many bytes.
const maxGap = 4096

var (
	// ErrNotReactor is wrapped by the errors about a module that is not a
	// reactor with an entry: no _initialize, or no entry export.
	ErrNotReactor = errors.New("not a WASI reactor with an entry export")
	// ErrUnsupported is wrapped by the errors about a reactor that Image
	// cannot snapshot faithfully (an imported memory, passive data, tables
	// written at run time, ...).
	ErrUnsupported = errors.New("module cannot be pre-initialised")
)

// Options configure Image.
type Options struct {
	// Entry is the export _start calls; EntryName if empty.
	Entry string
	// Args and Env are what initialisation sees through args_get and
	// environ_get (Env as KEY=VALUE). Args defaults to {"main"}.
	Args, Env []string
	// Time is the wall-clock time initialisation starts at; the Unix
	// epoch if zero.
	Time time.Time
}

// InitError reports that the reactor's initialisation failed: it trapped,
// exited or called a host function that has no answer during
// initialisation.
type InitError struct {
	Err error
	// Output is what the reactor wrote to its standard output and error
	// (at most 64 KiB), often the reason in its own words.
	Output []byte
}

func (e *InitError) Error() string {
	msg := "preinit: initialisation failed: " + e.Err.Error()
	if out := bytes.TrimSpace(e.Output); len(out) > 0 {
		msg += "\n" + string(out)
	}
	return msg
}

func (e *InitError) Unwrap() error { return e.Err }

// Image runs the reactor's initialisation once and returns a WASI command
// module that starts from the state it left: see the package
// documentation. Invalid bytes give an error wrapping
// wasm.ErrInvalidModule.
func Image(ctx context.Context, reactor []byte, opts Options) ([]byte, error) {
	if opts.Entry == "" {
		opts.Entry = EntryName
	}
	if opts.Args == nil {
		opts.Args = []string{"main"}
	}
	m, err := binary.Decode(reactor)
	if err != nil {
		return nil, err
	}
	entry, err := check(m, opts.Entry)
	if err != nil {
		return nil, err
	}
	mem, globals, err := run(ctx, m, opts)
	if err != nil {
		return nil, err
	}
	return build(m, entry, mem, globals)
}

// check verifies m can be snapshotted and returns its entry function.
func check(m *binary.Module, entryName string) (uint32, error) {
	var hasInit, hasEntry bool
	var entry uint32
	for _, e := range m.Exports {
		if e.Kind != binary.ExternFunc || (e.Name != InitName && e.Name != entryName) {
			continue
		}
		t, ok := funcType(m, e.Index)
		if !ok {
			return 0, fmt.Errorf("preinit: export %q: function %d does not exist: %w", e.Name, e.Index, ErrNotReactor)
		}
		if len(t.Params) != 0 || len(t.Results) != 0 {
			return 0, fmt.Errorf("preinit: export %q must take and return nothing: %w", e.Name, ErrNotReactor)
		}
		if e.Name == InitName {
			hasInit = true
		} else {
			hasEntry, entry = true, e.Index
		}
	}
	if !hasInit {
		return 0, fmt.Errorf("preinit: no %s export: %w", InitName, ErrNotReactor)
	}
	if !hasEntry {
		return 0, fmt.Errorf("preinit: no %s export: %w", entryName, ErrNotReactor)
	}
	for _, imp := range m.Imports {
		if imp.Kind != binary.ExternFunc {
			return 0, fmt.Errorf("preinit: imports %s.%s, which is not a function: %w", imp.Module, imp.Name, ErrUnsupported)
		}
	}
	if len(m.Memories) != 1 {
		return 0, fmt.Errorf("preinit: defines %d memories, want 1: %w", len(m.Memories), ErrUnsupported)
	}
	if m.HasDataCount {
		return 0, fmt.Errorf("preinit: has a data count section (memory.init or data.drop): %w", ErrUnsupported)
	}
	for i := range m.Datas {
		if m.Datas[i].Mode != binary.SegmentActive || m.Datas[i].Memory != 0 {
			return 0, fmt.Errorf("preinit: data segment %d is not active on memory 0: %w", i, ErrUnsupported)
		}
	}
	for i := range m.Globals {
		g := m.Globals[i].Type
		if g.Mutable && (g.Type == binary.V128 || g.Type == binary.FuncRef || g.Type == binary.ExternRef) {
			return 0, fmt.Errorf("preinit: mutable global %d of type %#x: %w", i, byte(g.Type), ErrUnsupported)
		}
	}
	var r binary.Reader
	var in binary.Instr
	for i := range m.Codes {
		c := &m.Codes[i]
		r.Reset(c.Body, c.BodyOffset)
		for r.More() {
			if err := r.Next(&in); err != nil {
				return 0, err
			}
			switch in.Op {
			case binary.OpTableSet, binary.OpTableInit, binary.OpTableCopy, binary.OpTableGrow, binary.OpTableFill, binary.OpElemDrop:
				return 0, fmt.Errorf("preinit: function %d writes a table (%v): %w", m.NumImported(binary.ExternFunc)+uint32(i), in.Op, ErrUnsupported)
			}
		}
	}
	return entry, nil
}

// funcType returns the type of function idx.
func funcType(m *binary.Module, idx uint32) (binary.FuncType, bool) {
	var ti uint32
	n := uint32(0)
	found := false
	for _, imp := range m.Imports {
		if imp.Kind != binary.ExternFunc {
			continue
		}
		if n == idx {
			ti, found = imp.Func, true
			break
		}
		n++
	}
	if !found {
		d := idx - n
		if idx < n || d >= uint32(len(m.Funcs)) {
			return binary.FuncType{}, false
		}
		ti = m.Funcs[d]
	}
	if ti >= uint32(len(m.Types)) {
		return binary.FuncType{}, false
	}
	return m.Types[ti], true
}

// globalExport is the name run exports mutable global i under.
func globalExport(i int) string { return fmt.Sprintf("preinit.global.%d", i) }

// run instantiates m with every mutable global exported, calls
// _initialize and returns the memory and the mutable globals' values (by
// defined global index).
func run(ctx context.Context, m *binary.Module, opts Options) ([]byte, map[int]uint64, error) {
	probe := *m
	probe.Exports = append([]binary.Export(nil), m.Exports...)
	nGlobalImports := m.NumImported(binary.ExternGlobal)
	for i := range m.Globals {
		if m.Globals[i].Type.Mutable {
			probe.Exports = append(probe.Exports, binary.Export{
				Name: globalExport(i), Kind: binary.ExternGlobal, Index: nGlobalImports + uint32(i)})
		}
	}
	bin := probe.Encode()

	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter().WithCloseOnContextDone(true))
	defer rt.Close(context.WithoutCancel(ctx))
	h := newHost(opts)
	if err := h.instantiate(ctx, rt, m); err != nil {
		return nil, nil, err
	}
	compiled, err := rt.CompileModule(ctx, bin)
	if err != nil {
		return nil, nil, fmt.Errorf("preinit: compiling: %w", err)
	}
	mod, err := rt.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, nil, &InitError{Err: h.cause(err), Output: h.out.Bytes()}
	}
	if _, err := mod.ExportedFunction(InitName).Call(ctx); err != nil {
		return nil, nil, &InitError{Err: h.cause(err), Output: h.out.Bytes()}
	}
	if h.failed != nil {
		// A host function failed but the guest carried on.
		return nil, nil, &InitError{Err: h.failed, Output: h.out.Bytes()}
	}
	memory := mod.Memory()
	if memory == nil {
		return nil, nil, fmt.Errorf("preinit: the instance has no memory: %w", ErrUnsupported)
	}
	view, ok := memory.Read(0, memory.Size())
	if !ok {
		return nil, nil, fmt.Errorf("preinit: reading the memory: %w", ErrUnsupported)
	}
	mem := bytes.Clone(view)
	globals := map[int]uint64{}
	for i := range m.Globals {
		if !m.Globals[i].Type.Mutable {
			continue
		}
		g := mod.ExportedGlobal(globalExport(i))
		if g == nil {
			return nil, nil, fmt.Errorf("preinit: global %d is not visible: %w", i, ErrUnsupported)
		}
		globals[i] = g.Get()
	}
	return mem, globals, nil
}

// build writes the image: m with mem as its data, globals as the mutable
// globals' initial values, and a _start calling entry.
func build(m *binary.Module, entry uint32, mem []byte, globals map[int]uint64) ([]byte, error) {
	out := *m
	// The memory.
	pages := uint32(len(mem) / pageSize)
	lim := m.Memories[0]
	if pages > lim.Min {
		lim.Min = pages
	}
	if lim.HasMax && lim.Min > lim.Max {
		return nil, fmt.Errorf("preinit: initialisation grew the memory past its maximum: %w", ErrUnsupported)
	}
	out.Memories = []binary.Limits{lim}
	out.Datas = segments(mem)

	// The globals.
	out.Globals = make([]binary.Global, len(m.Globals))
	for i, g := range m.Globals {
		if g.Type.Mutable {
			g.Init = constExpr(g.Type.Type, globals[i])
		}
		out.Globals[i] = g
	}

	// _start: a new function that calls the entry.
	var void uint32
	found := false
	for i, t := range m.Types {
		if len(t.Params) == 0 && len(t.Results) == 0 {
			void, found = uint32(i), true
			break
		}
	}
	if !found {
		out.Types = append(append([]binary.FuncType(nil), m.Types...), binary.FuncType{})
		void = uint32(len(m.Types))
	}
	start := m.NumImported(binary.ExternFunc) + uint32(len(m.Funcs))
	out.Funcs = append(append([]uint32(nil), m.Funcs...), void)
	body := append([]byte{byte(binary.OpCall)}, binary.AppendU32(nil, entry)...)
	out.Codes = append(append([]binary.Code(nil), m.Codes...), binary.Code{Body: append(body, byte(binary.OpEnd))})

	out.Exports = nil
	for _, e := range m.Exports {
		if e.Kind == binary.ExternFunc && (e.Name == InitName || e.Name == "_start") {
			continue
		}
		out.Exports = append(out.Exports, e)
	}
	out.Exports = append(out.Exports, binary.Export{Name: "_start", Kind: binary.ExternFunc, Index: start})
	// The start function, if any, ran during initialisation.
	out.HasStart, out.Start = false, 0
	return out.Encode(), nil
}

// segments returns active data segments holding the non-zero bytes of
// mem, joining runs that lie less than maxGap apart.
func segments(mem []byte) []binary.Data {
	var ds []binary.Data
	i := 0
	for {
		for i < len(mem) && mem[i] == 0 {
			i++
		}
		if i == len(mem) {
			return ds
		}
		start, end := i, i
		for i < len(mem) {
			if mem[i] != 0 {
				i++
				end = i
				continue
			}
			z := i
			for i < len(mem) && mem[i] == 0 && i-z < maxGap {
				i++
			}
			if i == len(mem) || mem[i] == 0 {
				break
			}
		}
		ds = append(ds, binary.Data{
			Mode:   binary.SegmentActive,
			Offset: constExpr(binary.I32, uint64(start)),
			Init:   mem[start:end],
		})
		i = end
	}
}

// constExpr is the constant expression giving v as a value of type t (raw
// bits, as wazero's api.Global.Get returns them).
func constExpr(t binary.ValType, v uint64) []byte {
	var b []byte
	switch t {
	case binary.I32:
		b = binary.AppendS64([]byte{byte(binary.OpI32Const)}, int64(int32(uint32(v))))
	case binary.I64:
		b = binary.AppendS64([]byte{byte(binary.OpI64Const)}, int64(v))
	case binary.F32:
		b = []byte{byte(binary.OpF32Const), byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
	case binary.F64:
		b = []byte{byte(binary.OpF64Const)}
		for s := 0; s < 64; s += 8 {
			b = append(b, byte(v>>s))
		}
	}
	return append(b, byte(binary.OpEnd))
}
