package binary

import "fmt"

// Opcode identifies an instruction: its byte for one-byte opcodes, or
// prefix<<16 | sub-opcode for the 0xFC (misc) and 0xFD (SIMD) families.
type Opcode uint32

// Opcodes the instrumenter and tests refer to by name. Every other valid
// opcode is decoded too; it just has no constant here.
const (
	OpUnreachable        Opcode = 0x00
	OpNop                Opcode = 0x01
	OpBlock              Opcode = 0x02
	OpLoop               Opcode = 0x03
	OpIf                 Opcode = 0x04
	OpElse               Opcode = 0x05
	OpEnd                Opcode = 0x0b
	OpBr                 Opcode = 0x0c
	OpBrIf               Opcode = 0x0d
	OpBrTable            Opcode = 0x0e
	OpReturn             Opcode = 0x0f
	OpCall               Opcode = 0x10
	OpCallIndirect       Opcode = 0x11
	OpReturnCall         Opcode = 0x12
	OpReturnCallIndirect Opcode = 0x13
	OpDrop               Opcode = 0x1a
	OpSelect             Opcode = 0x1b
	OpSelectT            Opcode = 0x1c
	OpLocalGet           Opcode = 0x20
	OpLocalSet           Opcode = 0x21
	OpLocalTee           Opcode = 0x22
	OpGlobalGet          Opcode = 0x23
	OpGlobalSet          Opcode = 0x24
	OpTableGet           Opcode = 0x25
	OpTableSet           Opcode = 0x26
	OpI32Load            Opcode = 0x28
	OpI64Load            Opcode = 0x29
	OpI32Store           Opcode = 0x36
	OpI64Store           Opcode = 0x37
	OpMemorySize         Opcode = 0x3f
	OpMemoryGrow         Opcode = 0x40
	OpI32Const           Opcode = 0x41
	OpI64Const           Opcode = 0x42
	OpF32Const           Opcode = 0x43
	OpF64Const           Opcode = 0x44
	OpI32Eqz             Opcode = 0x45
	OpI64LtS             Opcode = 0x53
	OpI32Add             Opcode = 0x6a
	OpI32Sub             Opcode = 0x6b
	OpI64Add             Opcode = 0x7c
	OpI64Sub             Opcode = 0x7d
	OpRefNull            Opcode = 0xd0
	OpRefIsNull          Opcode = 0xd1
	OpRefFunc            Opcode = 0xd2

	OpMemoryInit Opcode = 0xfc<<16 | 8
	OpDataDrop   Opcode = 0xfc<<16 | 9
	OpMemoryCopy Opcode = 0xfc<<16 | 10
	OpMemoryFill Opcode = 0xfc<<16 | 11
	OpTableInit  Opcode = 0xfc<<16 | 12
	OpElemDrop   Opcode = 0xfc<<16 | 13
	OpTableCopy  Opcode = 0xfc<<16 | 14
	OpTableGrow  Opcode = 0xfc<<16 | 15
	OpTableSize  Opcode = 0xfc<<16 | 16
	OpTableFill  Opcode = 0xfc<<16 | 17

	OpV128Const    Opcode = 0xfd<<16 | 0x0c
	OpI8x16Shuffle Opcode = 0xfd<<16 | 0x0d
)

var opNames = map[Opcode]string{
	OpUnreachable: "unreachable", OpNop: "nop", OpBlock: "block", OpLoop: "loop",
	OpIf: "if", OpElse: "else", OpEnd: "end", OpBr: "br", OpBrIf: "br_if",
	OpBrTable: "br_table", OpReturn: "return", OpCall: "call",
	OpCallIndirect: "call_indirect", OpReturnCall: "return_call",
	OpReturnCallIndirect: "return_call_indirect", OpDrop: "drop",
	OpSelect: "select", OpSelectT: "select", OpLocalGet: "local.get",
	OpLocalSet: "local.set", OpLocalTee: "local.tee", OpGlobalGet: "global.get",
	OpGlobalSet: "global.set", OpMemorySize: "memory.size",
	OpMemoryGrow: "memory.grow", OpI32Const: "i32.const", OpI64Const: "i64.const",
	OpF32Const: "f32.const", OpF64Const: "f64.const", OpRefNull: "ref.null",
	OpRefIsNull: "ref.is_null", OpRefFunc: "ref.func",
}

// String returns the instruction's text-format name when this package
// knows it, else its hex encoding.
func (op Opcode) String() string {
	if s, ok := opNames[op]; ok {
		return s
	}
	if op > 0xff {
		return fmt.Sprintf("0x%02x 0x%02x", op>>16, op&0xffff)
	}
	return fmt.Sprintf("0x%02x", uint32(op))
}

// Instr is one decoded instruction. Which immediate fields are meaningful
// depends on Op; the rest are zero.
type Instr struct {
	Op Opcode
	// Pos is the offset of the opcode byte in the body, Imm the offset of
	// its first immediate (after any sub-opcode) and End the offset just
	// past the instruction.
	Pos, Imm, End int

	// Index is the first index immediate: the label of br and br_if, the
	// default label of br_table, the function of call, return_call and
	// ref.func, the type of call_indirect, the local, global, table,
	// memory, data or element index of the instructions taking one, the
	// lane of extract_lane and replace_lane.
	Index uint32
	// Index2 is the second index immediate: the table of call_indirect,
	// the memory of memory.init and the destination-then-source pairs of
	// memory.copy and table.copy (Index is the destination), the table of
	// table.init, the lane of load_lane and store_lane, the number of
	// non-default labels of br_table.
	Index2 uint32

	// BlockType is the block type of block, loop and if as a signed
	// 33-bit number: -64 for no result (0x40), -1…-17 for a value type
	// byte read as negative, or a type index ≥ 0.
	BlockType int64

	// Memarg of loads, stores and SIMD memory instructions.
	Align  uint32
	Memory uint32
	Offset uint64

	// Const is the value of i32.const and i64.const (sign-extended) and
	// the bits of f32.const and f64.const.
	Const uint64
}

// BlockTypeEmpty is the BlockType of a block without parameters or results.
const BlockTypeEmpty int64 = -64

// immediate kinds of one-byte opcodes
const (
	kInvalid uint8 = iota
	kNone
	kBlock // block, loop, if
	kEnd
	kLabel
	kBrTable
	kIndex
	kIndex2
	kSelectT
	kMemarg
	kI32
	kI64
	kF32
	kF64
	kRefNull
	kMisc
	kSIMD
	kEH
	kTypedRef
	kAtomic
	kGC
)

var opKinds = func() (t [256]uint8) {
	set := func(lo, hi int, k uint8) {
		for i := lo; i <= hi; i++ {
			t[i] = k
		}
	}
	set(0x00, 0x01, kNone)
	set(0x02, 0x04, kBlock)
	t[0x05] = kNone
	set(0x06, 0x0a, kEH)
	t[0x0b] = kEnd
	set(0x0c, 0x0d, kLabel)
	t[0x0e] = kBrTable
	t[0x0f] = kNone
	t[0x10] = kIndex
	t[0x11] = kIndex2
	t[0x12] = kIndex
	t[0x13] = kIndex2
	set(0x14, 0x15, kTypedRef)
	set(0x18, 0x19, kEH)
	set(0x1a, 0x1b, kNone)
	t[0x1c] = kSelectT
	t[0x1f] = kEH
	set(0x20, 0x26, kIndex)
	set(0x28, 0x3e, kMemarg)
	set(0x3f, 0x40, kIndex) // memory index
	t[0x41] = kI32
	t[0x42] = kI64
	t[0x43] = kF32
	t[0x44] = kF64
	set(0x45, 0xc4, kNone)
	t[0xd0] = kRefNull
	t[0xd1] = kNone
	t[0xd2] = kIndex
	set(0xd3, 0xd6, kTypedRef)
	t[0xfb] = kGC
	t[0xfc] = kMisc
	t[0xfd] = kSIMD
	t[0xfe] = kAtomic
	return t
}()

// simd immediate kinds
const (
	sInvalid uint8 = iota
	sNone
	sMemarg
	sMemargLane
	sBytes16
	sLane
)

var simdKinds = func() (t [0x114]uint8) {
	set := func(lo, hi int, k uint8) {
		for i := lo; i <= hi; i++ {
			t[i] = k
		}
	}
	set(0x00, 0x0b, sMemarg)
	set(0x0c, 0x0d, sBytes16)
	set(0x0e, 0x14, sNone)
	set(0x15, 0x22, sLane)
	set(0x23, 0x53, sNone)
	set(0x54, 0x5b, sMemargLane)
	set(0x5c, 0x5d, sMemarg)
	set(0x5e, 0x113, sNone)
	for _, gap := range []int{0x9a, 0xa2, 0xa5, 0xa6, 0xaf, 0xb0, 0xb2, 0xb3, 0xb4,
		0xbb, 0xc2, 0xc5, 0xc6, 0xcf, 0xd0, 0xd2, 0xd3, 0xd4, 0xe2, 0xee} {
		t[gap] = sInvalid
	}
	return t
}()

// Reader walks the instructions of a function body or constant
// expression. The zero Reader is empty; use Reset to start one.
//
//	var r binary.Reader
//	r.Reset(code.Body, code.BodyOffset)
//	var in binary.Instr
//	for r.More() {
//		if err := r.Next(&in); err != nil { ... }
//	}
//
// The Reader tracks block nesting: More reports false after the end that
// closes the body. Bytes after it are left for the caller (Pos says where
// it stopped); Body checks there are none.
type Reader struct {
	b     []byte
	pos   int
	base  int
	depth int
	done  bool
}

// Reset starts reading the instructions in b; base is b's offset in the
// module, used in error messages.
func (r *Reader) Reset(b []byte, base int) {
	*r = Reader{b: b, base: base, depth: 1}
}

// More reports whether the body's final end has not been read yet.
func (r *Reader) More() bool { return !r.done }

// Pos is the offset in the body of the next instruction.
func (r *Reader) Pos() int { return r.pos }

// Depth is the number of open blocks, counting the function body itself.
func (r *Reader) Depth() int { return r.depth }

func (r *Reader) errorf(pos int, format string, args ...any) error {
	r.done = true
	return errorf(r.base+pos, format, args...)
}

func (r *Reader) u32(in *Instr, what string) (uint32, error) {
	v, p := readU32(r.b, r.pos)
	if p < 0 {
		return 0, r.errorf(r.pos, "malformed %s immediate of %v", what, in.Op)
	}
	r.pos = p
	return v, nil
}

// Next decodes the next instruction into in.
func (r *Reader) Next(in *Instr) error {
	if r.done {
		return r.errorf(r.pos, "read past the end of the body")
	}
	b := r.b
	start := r.pos
	if start >= len(b) {
		return r.errorf(start, "body ends without its final end instruction")
	}
	op := b[start]
	*in = Instr{Op: Opcode(op), Pos: start}
	r.pos = start + 1
	var err error
	switch opKinds[op] {
	case kNone:
	case kEnd:
		r.depth--
		if r.depth == 0 {
			r.done = true
		}
	case kBlock:
		if r.pos >= len(b) {
			return r.errorf(r.pos, "missing block type of %v", in.Op)
		}
		c := b[r.pos]
		if c == 0x40 || validValType(c) {
			in.BlockType = int64(c) - 0x80
			r.pos++
		} else {
			v, p := readS33(b, r.pos)
			if p < 0 || v < 0 {
				return r.errorf(r.pos, "malformed block type of %v", in.Op)
			}
			in.BlockType = v
			r.pos = p
		}
		r.depth++
	case kLabel, kIndex:
		if p := r.pos; p < len(b) && b[p] < 0x80 { // one byte: the common case
			in.Index, r.pos = uint32(b[p]), p+1
		} else {
			in.Index, err = r.u32(in, "index")
		}
	case kIndex2:
		if in.Index, err = r.u32(in, "type index"); err == nil {
			in.Index2, err = r.u32(in, "table index")
		}
	case kBrTable:
		var n uint32
		if n, err = r.u32(in, "label count"); err != nil {
			return err
		}
		if int(n) > len(b)-r.pos {
			return r.errorf(r.pos, "br_table label count %d exceeds the body", n)
		}
		for i := uint32(0); i < n; i++ {
			if _, err = r.u32(in, "label"); err != nil {
				return err
			}
		}
		in.Index2 = n
		in.Index, err = r.u32(in, "default label")
	case kSelectT:
		var n uint32
		if n, err = r.u32(in, "type count"); err != nil {
			return err
		}
		if int(n) > len(b)-r.pos {
			return r.errorf(r.pos, "select type count %d exceeds the body", n)
		}
		for i := uint32(0); i < n; i++ {
			if !validValType(b[r.pos]) {
				return r.errorf(r.pos, "unknown value type 0x%02x in select", b[r.pos])
			}
			r.pos++
		}
	case kMemarg:
		err = r.memarg(in)
	case kI32:
		v, p := readS32(b, r.pos)
		if p < 0 {
			return r.errorf(r.pos, "malformed i32.const")
		}
		in.Const, r.pos = uint64(int64(v)), p
	case kI64:
		v, p := readS64(b, r.pos)
		if p < 0 {
			return r.errorf(r.pos, "malformed i64.const")
		}
		in.Const, r.pos = uint64(v), p
	case kF32:
		if len(b)-r.pos < 4 {
			return r.errorf(r.pos, "truncated f32.const")
		}
		p := r.pos
		in.Const = uint64(b[p]) | uint64(b[p+1])<<8 | uint64(b[p+2])<<16 | uint64(b[p+3])<<24
		r.pos += 4
	case kF64:
		if len(b)-r.pos < 8 {
			return r.errorf(r.pos, "truncated f64.const")
		}
		var v uint64
		for i := 7; i >= 0; i-- {
			v = v<<8 | uint64(b[r.pos+i])
		}
		in.Const = v
		r.pos += 8
	case kRefNull:
		if r.pos >= len(b) || (b[r.pos] != byte(FuncRef) && b[r.pos] != byte(ExternRef)) {
			return r.errorf(r.pos, "ref.null needs funcref or externref")
		}
		in.Index = uint32(b[r.pos])
		r.pos++
	case kMisc:
		err = r.misc(in)
	case kSIMD:
		err = r.simd(in)
	case kEH:
		return r.errorf(start, "exception handling (opcode 0x%02x) is not supported", op)
	case kTypedRef, kGC:
		return r.errorf(start, "typed function references and GC (opcode 0x%02x) are not supported", op)
	case kAtomic:
		return r.errorf(start, "threads and atomics (opcode 0xfe) are not supported")
	default:
		return r.errorf(start, "unknown opcode 0x%02x", op)
	}
	if err != nil {
		return err
	}
	in.End = r.pos
	if in.Imm == 0 {
		in.Imm = start + 1
	}
	return nil
}

func (r *Reader) memarg(in *Instr) error {
	a, p := readU32(r.b, r.pos)
	if p < 0 {
		return r.errorf(r.pos, "malformed memarg alignment of %v", in.Op)
	}
	r.pos = p
	if a&0x40 != 0 { // multi-memory: a memory index follows
		a &^= 0x40
		m, p := readU32(r.b, r.pos)
		if p < 0 {
			return r.errorf(r.pos, "malformed memarg memory index of %v", in.Op)
		}
		in.Memory, r.pos = m, p
	}
	if a >= 0x40 {
		return r.errorf(in.Pos, "memarg alignment 2**%d of %v is too large", a, in.Op)
	}
	in.Align = a
	o, p := readU32(r.b, r.pos)
	if p < 0 {
		return r.errorf(r.pos, "malformed memarg offset of %v (64-bit memories are not supported)", in.Op)
	}
	in.Offset, r.pos = uint64(o), p
	return nil
}

func (r *Reader) misc(in *Instr) error {
	sub, p := readU32(r.b, r.pos)
	if p < 0 {
		return r.errorf(r.pos, "malformed 0xfc sub-opcode")
	}
	in.Op = Opcode(0xfc<<16 | sub)
	r.pos = p
	in.Imm = p
	var err error
	switch {
	case sub <= 7: // trunc_sat
	case sub == 8 || sub == 10 || sub == 12 || sub == 14:
		if in.Index, err = r.u32(in, "index"); err == nil {
			in.Index2, err = r.u32(in, "index")
		}
	case sub <= 17:
		in.Index, err = r.u32(in, "index")
	default:
		return r.errorf(in.Pos, "unknown opcode 0xfc %d", sub)
	}
	return err
}

func (r *Reader) simd(in *Instr) error {
	sub, p := readU32(r.b, r.pos)
	if p < 0 {
		return r.errorf(r.pos, "malformed 0xfd sub-opcode")
	}
	in.Op = Opcode(0xfd<<16 | sub)
	r.pos = p
	in.Imm = p
	kind := sInvalid
	if int(sub) < len(simdKinds) {
		kind = simdKinds[sub]
	}
	switch kind {
	case sNone:
	case sMemarg:
		return r.memarg(in)
	case sMemargLane:
		if err := r.memarg(in); err != nil {
			return err
		}
		if r.pos >= len(r.b) {
			return r.errorf(r.pos, "missing lane index of %v", in.Op)
		}
		in.Index2 = uint32(r.b[r.pos])
		r.pos++
	case sBytes16:
		if len(r.b)-r.pos < 16 {
			return r.errorf(r.pos, "truncated 16-byte immediate of %v", in.Op)
		}
		r.pos += 16
	case sLane:
		if r.pos >= len(r.b) {
			return r.errorf(r.pos, "missing lane index of %v", in.Op)
		}
		in.Index = uint32(r.b[r.pos])
		r.pos++
	default:
		return r.errorf(in.Pos, "unknown SIMD opcode 0xfd %#x", sub)
	}
	return nil
}

// BrTableLabels appends the non-default labels of the br_table instruction
// in (decoded from body by a Reader) to dst.
func BrTableLabels(dst []uint32, body []byte, in *Instr) []uint32 {
	if in.Op != OpBrTable {
		return dst
	}
	_, p := readU32(body, in.Imm)
	for i := uint32(0); i < in.Index2 && p >= 0; i++ {
		var l uint32
		l, p = readU32(body, p)
		dst = append(dst, l)
	}
	return dst
}

// CheckBody walks every instruction of a function body and reports the
// first malformed one, or bytes left after the final end.
func CheckBody(body []byte, base int) error {
	var r Reader
	r.Reset(body, base)
	var in Instr
	for r.More() {
		if err := r.Next(&in); err != nil {
			return err
		}
	}
	if r.pos != len(body) {
		return errorf(base+r.pos, "%d bytes after the function's final end", len(body)-r.pos)
	}
	return nil
}
