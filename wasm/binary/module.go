// Package binary decodes WebAssembly binary modules into their sections,
// encodes them back, and walks the instructions of function bodies.
//
// It does the structural work an instrumenter needs and no more: sections,
// vectors, LEB128 numbers and every instruction's immediates are checked,
// but types are not (the engine validates the result). Decode never panics
// and never allocates more than a small multiple of its input, whatever the
// bytes; every error it returns is an *Error wrapping wasm.ErrInvalidModule.
//
// Supported: the WebAssembly 2.0 feature set (MVP, sign extension,
// non-trapping float-to-int, bulk memory, reference types, multi-value,
// mutable globals, 128-bit SIMD), relaxed SIMD, tail calls and
// multi-memory immediates. Rejected with an error: threads and atomics
// (0xFE), exception handling, typed function references, GC, memory64 and
// any unknown opcode or type.
//
// A decoded Module aliases the input bytes: do not modify them while the
// Module is in use.
package binary

// SectionID is a section's id byte.
type SectionID byte

// The known section ids.
const (
	SectionCustom    SectionID = 0
	SectionType      SectionID = 1
	SectionImport    SectionID = 2
	SectionFunction  SectionID = 3
	SectionTable     SectionID = 4
	SectionMemory    SectionID = 5
	SectionGlobal    SectionID = 6
	SectionExport    SectionID = 7
	SectionStart     SectionID = 8
	SectionElement   SectionID = 9
	SectionCode      SectionID = 10
	SectionData      SectionID = 11
	SectionDataCount SectionID = 12
	SectionTag       SectionID = 13
)

// sectionOrder is the order non-custom sections must appear in.
var sectionOrder = [...]SectionID{
	SectionType, SectionImport, SectionFunction, SectionTable, SectionMemory,
	SectionGlobal, SectionExport, SectionStart, SectionElement,
	SectionDataCount, SectionCode, SectionData,
}

// rank gives each section id its place in sectionOrder, starting at 1;
// 0 means unknown.
var rank = [...]int{
	SectionType: 1, SectionImport: 2, SectionFunction: 3, SectionTable: 4,
	SectionMemory: 5, SectionGlobal: 6, SectionExport: 7, SectionStart: 8,
	SectionElement: 9, SectionDataCount: 10, SectionCode: 11, SectionData: 12,
	SectionTag: 0,
}

// ValType is a value type byte.
type ValType byte

// The value types this package accepts.
const (
	I32       ValType = 0x7f
	I64       ValType = 0x7e
	F32       ValType = 0x7d
	F64       ValType = 0x7c
	V128      ValType = 0x7b
	FuncRef   ValType = 0x70
	ExternRef ValType = 0x6f
)

func validValType(b byte) bool {
	switch ValType(b) {
	case I32, I64, F32, F64, V128, FuncRef, ExternRef:
		return true
	}
	return false
}

// ExternKind is the kind of an import or export.
type ExternKind byte

// The import and export kinds.
const (
	ExternFunc   ExternKind = 0
	ExternTable  ExternKind = 1
	ExternMemory ExternKind = 2
	ExternGlobal ExternKind = 3
)

// FuncType is a function signature.
type FuncType struct {
	Params, Results []ValType
}

// Equal reports whether t and u are the same signature.
func (t FuncType) Equal(u FuncType) bool {
	if len(t.Params) != len(u.Params) || len(t.Results) != len(u.Results) {
		return false
	}
	for i, p := range t.Params {
		if u.Params[i] != p {
			return false
		}
	}
	for i, r := range t.Results {
		if u.Results[i] != r {
			return false
		}
	}
	return true
}

// Limits are the size bounds of a table or memory.
type Limits struct {
	Min    uint32
	Max    uint32 // meaningful only when HasMax
	HasMax bool
}

// TableType is a table's element type and limits.
type TableType struct {
	Elem   ValType // FuncRef or ExternRef
	Limits Limits
}

// GlobalType is a global's value type and mutability.
type GlobalType struct {
	Type    ValType
	Mutable bool
}

// Import is one entry of the import section. Exactly one of the typed
// fields is meaningful, as Kind says.
type Import struct {
	Module, Name string
	Kind         ExternKind
	Func         uint32 // type index, for ExternFunc
	Table        TableType
	Memory       Limits
	Global       GlobalType
}

// Global is a global defined by the module.
type Global struct {
	Type GlobalType
	Init []byte // constant expression, including its final end (0x0b)
}

// Export is one entry of the export section.
type Export struct {
	Name  string
	Kind  ExternKind
	Index uint32
}

// SegmentMode says when an element or data segment is applied.
type SegmentMode byte

// The segment modes.
const (
	SegmentActive SegmentMode = iota
	SegmentPassive
	SegmentDeclarative // element segments only
)

// Element is an element segment. Flags is the segment's encoding (0–7 as
// in the binary format); Encode writes the segment back in that form, so
// keep Flags consistent with the other fields when changing them.
type Element struct {
	Flags  uint32
	Mode   SegmentMode
	Table  uint32
	Offset []byte // constant expression for active segments
	// Kind is the element kind byte (0x00 = funcref) for flags 1–3 or the
	// reference type for flags 5–7; unused for flags 0 and 4.
	Kind  byte
	Funcs []uint32 // function indices, for flags 0–3
	Exprs [][]byte // constant expressions, for flags 4–7
}

// UsesExprs reports whether the segment lists expressions rather than
// function indices.
func (e *Element) UsesExprs() bool { return e.Flags&4 != 0 }

// Data is a data segment. Flags is its encoding (0–2).
type Data struct {
	Flags  uint32
	Mode   SegmentMode
	Memory uint32
	Offset []byte // constant expression for active segments
	Init   []byte
}

// LocalDecl declares Count locals of one type.
type LocalDecl struct {
	Count uint32
	Type  ValType
}

// Code is a function body.
type Code struct {
	Locals []LocalDecl
	// Body is the instruction sequence, including the final end.
	Body []byte
	// BodyOffset is where Body started in the decoded module, for error
	// messages; 0 for bodies that were not decoded.
	BodyOffset int
}

// Custom is a custom section, kept verbatim.
type Custom struct {
	Name string
	Data []byte // contents after the name
	// After is the id of the last non-custom section before this one in
	// the decoded module (0 if none); Encode writes it back at that place.
	After SectionID
}

// Module is a decoded module. Empty slices mean absent sections.
type Module struct {
	Types    []FuncType
	Imports  []Import
	Funcs    []uint32 // type index of each defined function
	Tables   []TableType
	Memories []Limits
	Globals  []Global
	Exports  []Export

	HasStart bool
	Start    uint32

	Elements []Element

	HasDataCount bool
	DataCount    uint32

	Codes   []Code
	Datas   []Data
	Customs []Custom
}

// NumImported counts the imports of one kind: indices of that kind below
// this number refer to imports, the others to the module's definitions.
func (m *Module) NumImported(kind ExternKind) uint32 {
	var n uint32
	for i := range m.Imports {
		if m.Imports[i].Kind == kind {
			n++
		}
	}
	return n
}
