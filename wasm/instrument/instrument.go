// Package instrument rewrites guest WebAssembly modules so that the host
// can bound them: it checks their imports, clamps their memory and injects
// fuel metering.
//
// # Fuel metering
//
// With Options.Fuel the module gets a mutable i64 global exported as
// FuelGlobal, holding the fuel left in the current slice, and an imported
// function RefuelModule.RefuelName of type (i64) -> i64. The global starts
// at 0, so the first check asks the host for the first slice.
//
// The cost model is exact and deterministic: every instruction of the
// original code costs 1 unit, if and else included, except block, loop
// and end, which only mark where branches go and compile to no machine
// code, and instructions that can never run because they follow an
// unconditional branch (br, br_table, return, return_call,
// return_call_indirect, unreachable) in the same block. A loop still pays
// at least 1 an iteration (the branch back) and a call at least 1 (the
// call), so fuel bounds every run. Labels are free because compilers
// nest them deeply: Go's wasm backend opens each function that switches
// between its blocks with one block per resume point (2,147 in GoAWK's
// interpreter) before a br_table, and every jump inside the function
// passes them; counting them made fuel overstate Go code about fivefold.
// Code is split into
// regions that start at the function's entry and right after every loop,
// if, else and end (other than the function's last end); a region ends at
// the next such instruction or at an unconditional branch, which belongs
// to it. When control enters a region, the region's whole cost is charged
// at once:
//
//	global.get $fuel; i64.const COST; i64.sub; global.set $fuel
//
// A br_if, a call that does not return or a trap in the middle of a region
// therefore still pays for the rest of it; the instrumentation's own
// instructions are free.
//
// The region that starts right after the end of a block, loop or if is
// charged together with the region that entered the construct when no
// branch, return or tail call inside can leave the construct other than
// through its end: every run through the construct that does not trap
// (unreachable included), call a function that never returns or loop
// forever comes out there exactly once, so the fuel is the same, with
// fewer charges (CPython's instrumentation is about a fifth smaller).
// Those exceptions pay for the code after the end without running it, and
// a host call inside the construct sees that code already paid for. Code
// after a construct that a branch or return can skip, such as the case
// arms after a br_table, keeps a charge of its own. For example
// the function body
//
//	(loop (local.set 0 (i32.sub (local.get 0) (i32.const 1)))
//	      (br_if 0 (local.get 0)))
//
// costs 6 per iteration (local.get, i32.const, i32.sub, local.set,
// local.get, br_if): 6n for n iterations.
//
// Functions that contain a loop keep the balance in a new i64 local
// instead (a register in the hot loop): they load it from the global at
// entry and after every call, and store it back before every call,
// return_call, return, unreachable, branch to the function's own label
// and the final end, and before calling refuel. The global is therefore
// exact whenever the guest calls out (host functions, refuel included,
// see it) or returns to the host; only after a trap such as a division by
// zero can it miss the charges made since the trapping function's last
// call or check.
//
// Fuel used by a run is the sum of the slices the host handed out minus
// the value the global holds at the end.
//
// At function entry and at every loop header (after charging) the fuel is
// checked:
//
//	if fuel < 0 { fuel = refuel(fuel) }
//
// refuel receives the negative balance, checks the wall-clock deadline and
// the total budget and returns the new balance, normally fuel + slice so
// that the overdraft is paid for; to stop the guest it traps (a host
// function panics). Checks are left out where they cannot be needed to
// stop a runaway guest: in functions with no loop and no call (they run in
// bounded time); at the entry of a function whose first region goes
// straight, without calls or branches, into a loop (whose header then
// always checks); and at the header of a loop whose header region, before
// any branch, directly calls a defined function that has loops or calls
// (that callee checks before doing anything unbounded).
//
// Measured on wazero's compiler, metering costs a few percent on
// CPU-bound C and Go guests and up to about 3× on a loop of a handful of
// instructions, where the charge and check are as long as the loop body.
//
// Adding the import shifts every defined function's index by one: calls,
// ref.func, exports, the start function, element segments and the "name"
// section are renumbered (and the import is named "wasmsand.refuel").
// Custom sections that describe code offsets (".debug_*",
// "sourceMappingURL", "external_debug_info", "reloc.*", "linking") are
// dropped since the offsets no longer hold.
//
// # Determinism and snapshots
//
// Options.CanonicalNaN, RejectRelaxedSIMD, MaxCallDepth, CountFailedGrows
// and ExportState make a module behave the same on every engine and let a
// host save and restore its state (see each option). They run after fuel
// metering and add only globals, locals, types, exports and one function
// at the end of the function index space, so no existing index moves.
// With all of them off the output is byte for byte what it was without
// them.
//
// # Jumps
//
// Options.ThreadJumps, for modules built by Go, first makes their forward
// jumps branch straight to their targets (package jumpthread). The fuel
// model then counts the code as rewritten: a forward jump no longer pays
// for the dispatch it skips.
//
// Instrumentation is linear in the size of the module.
package instrument

import (
	"fmt"
	"strings"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/jumpthread"
)

// Names of the fuel import and export added by Options.Fuel.
const (
	RefuelModule = "wasmsand"
	RefuelName   = "refuel"
	FuelGlobal   = "wasmsand_fuel"
)

// Options says what Instrument does.
type Options struct {
	// MemoryLimitPages clamps the maximum of every memory, defined or
	// imported, to this many 64 KiB pages (0, or more than 65536, means
	// 65536); memories without a maximum get this one. A module whose
	// memory minimum exceeds it is rejected.
	MemoryLimitPages uint32
	// AllowImport, if not nil, is asked about every import; any import it
	// refuses makes Instrument fail with an error naming it.
	AllowImport func(module, name string) bool
	// Fuel injects fuel metering (see the package documentation).
	Fuel bool
	// ThreadJumps makes the forward jumps of Go-compiled functions branch
	// straight to their target (see package jumpthread) before anything
	// else; fuel counts the code as rewritten.
	ThreadJumps bool

	// The options below make a module deterministic across engines and
	// its state readable for snapshots; the shell leaves them off. Their
	// instructions cost no fuel.

	// CanonicalNaN follows every float operation that may produce a NaN
	// whose bits differ between engines (arithmetic, sqrt, min, max,
	// rounding, promote and demote, scalar and SIMD) with code replacing a
	// NaN result by CanonicalNaN32 or CanonicalNaN64.
	CanonicalNaN bool
	// RejectRelaxedSIMD refuses modules using relaxed SIMD instructions,
	// whose results differ between engines by design.
	RejectRelaxedSIMD bool
	// MaxCallDepth, if not 0, counts the call depth in a mutable i32
	// global exported as DepthGlobal: every function increments it at
	// entry, traps with unreachable when it then exceeds MaxCallDepth,
	// and decrements it when it returns (every exit goes through a block
	// wrapping the body; return becomes a branch out of it). The host
	// resets the global to 0 before calling in; a trap with DepthGlobal
	// above MaxCallDepth is a stack overflow, at the same depth on every
	// engine. Keep it below the engine's own limit (wazero: tens of
	// thousands of small frames) and below 1<<31.
	MaxCallDepth uint32
	// CountFailedGrows counts memory.grow instructions that returned -1
	// (the module hit its memory cap) in a mutable i32 global exported as
	// GrowFailuresGlobal. The guest still sees -1.
	CountFailedGrows bool
	// ExportState exports each mutable global the module defines as
	// GlobalExportName(index), memory 0 as MemoryExport (a module with
	// another export of that name is refused), and a function GrowFunc,
	// so that a host can save and restore the whole state of an instance.
	ExportState bool
}

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", wasm.ErrInvalidModule, fmt.Sprintf(format, args...))
}

// Instrument decodes bin, applies opts and returns the new module. Errors
// wrap wasm.ErrInvalidModule.
func Instrument(bin []byte, opts Options) ([]byte, error) {
	if len(bin) >= 1<<31 {
		return nil, invalidf("module of %d bytes is too large", len(bin))
	}
	m, err := binary.Decode(bin)
	if err != nil {
		return nil, err
	}
	ownGlobals := len(m.Globals)
	if opts.AllowImport != nil {
		for i := range m.Imports {
			im := &m.Imports[i]
			if !opts.AllowImport(im.Module, im.Name) {
				return nil, invalidf("import %q.%q is not allowed in this sandbox", im.Module, im.Name)
			}
		}
	}
	if err := clampMemory(m, opts.MemoryLimitPages); err != nil {
		return nil, err
	}
	if opts.ThreadJumps {
		if _, err := jumpthread.Module(m); err != nil {
			return nil, err
		}
	}
	// grows, when fuel metering reads every body first, marks the bodies
	// with a memory.grow: the only ones CountFailedGrows alone changes.
	var grows []bool
	if opts.Fuel {
		if opts.CountFailedGrows {
			grows = make([]bool, len(m.Codes))
		}
		if err := addFuel(m, grows); err != nil {
			return nil, err
		}
	}
	if opts.guarded() {
		if err := guard(m, &opts, ownGlobals, grows); err != nil {
			return nil, err
		}
	}
	return m.Encode(), nil
}

func clampMemory(m *binary.Module, limit uint32) error {
	if limit == 0 || limit > 65536 {
		limit = 65536
	}
	clamp := func(l *binary.Limits, what string) error {
		if l.Min > limit {
			return invalidf("%s needs %d pages of 64 KiB at start, more than the limit of %d pages", what, l.Min, limit)
		}
		if !l.HasMax || l.Max > limit {
			l.Max, l.HasMax = limit, true
		}
		return nil
	}
	for i := range m.Imports {
		if im := &m.Imports[i]; im.Kind == binary.ExternMemory {
			if err := clamp(&im.Memory, fmt.Sprintf("imported memory %q.%q", im.Module, im.Name)); err != nil {
				return err
			}
		}
	}
	for i := range m.Memories {
		if err := clamp(&m.Memories[i], fmt.Sprintf("memory %d", i)); err != nil {
			return err
		}
	}
	return nil
}

// droppedCustom reports custom sections whose contents refer to code
// offsets or indices that instrumentation changes.
func droppedCustom(name string) bool {
	return strings.HasPrefix(name, ".debug_") || strings.HasPrefix(name, "reloc.") ||
		name == "linking" || name == "sourceMappingURL" || name == "external_debug_info"
}

func addFuel(m *binary.Module, grows []bool) error {
	for i := range m.Imports {
		if m.Imports[i].Module == RefuelModule && m.Imports[i].Name == RefuelName {
			return invalidf("module already imports %s.%s (instrumented twice?)", RefuelModule, RefuelName)
		}
	}
	for i := range m.Exports {
		if m.Exports[i].Name == FuelGlobal {
			return invalidf("module already exports %q (instrumented twice?)", FuelGlobal)
		}
	}

	// The refuel import: type (i64) -> i64, index = number of imported
	// functions; every defined function moves up by one.
	refuelType := binary.FuncType{Params: []binary.ValType{binary.I64}, Results: []binary.ValType{binary.I64}}
	typeIdx := -1
	for i := range m.Types {
		if m.Types[i].Equal(refuelType) {
			typeIdx = i
			break
		}
	}
	if typeIdx < 0 {
		typeIdx = len(m.Types)
		m.Types = append(m.Types, refuelType)
	}
	nImp := m.NumImported(binary.ExternFunc)
	if uint64(nImp)+uint64(len(m.Funcs)) >= 1<<32-1 {
		return invalidf("too many functions")
	}
	m.Imports = append(m.Imports, binary.Import{
		Module: RefuelModule, Name: RefuelName, Kind: binary.ExternFunc, Func: uint32(typeIdx),
	})

	// The fuel global, appended after every existing global so no global
	// index moves.
	fuelIdx := m.NumImported(binary.ExternGlobal) + uint32(len(m.Globals))
	m.Globals = append(m.Globals, binary.Global{
		Type: binary.GlobalType{Type: binary.I64, Mutable: true},
		Init: []byte{byte(binary.OpI64Const), 0, byte(binary.OpEnd)},
	})
	m.Exports = append(m.Exports, binary.Export{Name: FuelGlobal, Kind: binary.ExternGlobal, Index: fuelIdx})

	remap := func(f uint32) uint32 {
		if f >= nImp {
			return f + 1
		}
		return f
	}
	for i := range m.Exports {
		if m.Exports[i].Kind == binary.ExternFunc {
			m.Exports[i].Index = remap(m.Exports[i].Index)
		}
	}
	if m.HasStart {
		m.Start = remap(m.Start)
	}
	var err error
	for i := range m.Globals {
		if m.Globals[i].Init, err = remapExpr(m.Globals[i].Init, nImp); err != nil {
			return err
		}
	}
	for i := range m.Elements {
		e := &m.Elements[i]
		for j, f := range e.Funcs {
			e.Funcs[j] = remap(f)
		}
		for j := range e.Exprs {
			if e.Exprs[j], err = remapExpr(e.Exprs[j], nImp); err != nil {
				return err
			}
		}
	}
	customs := m.Customs[:0]
	for _, c := range m.Customs {
		if droppedCustom(c.Name) {
			continue
		}
		if c.Name == "name" {
			data, ok := remapNames(c.Data, nImp)
			if !ok {
				continue // a name section we cannot read is dropped, not trusted
			}
			c.Data = data
		}
		customs = append(customs, c)
	}
	m.Customs = customs

	return meterCode(m, nImp, fuelIdx, grows)
}

// remapExpr renumbers the ref.func instructions of a constant expression.
func remapExpr(expr []byte, nImp uint32) ([]byte, error) {
	var r binary.Reader
	r.Reset(expr, 0)
	var in binary.Instr
	var out []byte
	prev := 0
	for r.More() {
		if err := r.Next(&in); err != nil {
			return nil, err
		}
		if in.Op == binary.OpRefFunc && in.Index >= nImp {
			out = append(out, expr[prev:in.Imm]...)
			out = binary.AppendU32(out, in.Index+1)
			prev = in.End
		}
	}
	if out == nil {
		return expr, nil
	}
	return append(out, expr[prev:]...), nil
}
