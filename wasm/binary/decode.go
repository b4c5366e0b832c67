package binary

import (
	"unicode/utf8"
)

// Magic and Version start every module.
const (
	Magic   = "\x00asm"
	Version = "\x01\x00\x00\x00"
)

// decoder reads one section at a time; off is the offset of b[0] in the
// module.
type decoder struct {
	b   []byte
	pos int
	off int
}

func (d *decoder) errorf(format string, args ...any) error {
	return errorf(d.off+d.pos, format, args...)
}

func (d *decoder) u32(what string) (uint32, error) {
	v, p := readU32(d.b, d.pos)
	if p < 0 {
		return 0, d.errorf("malformed %s", what)
	}
	d.pos = p
	return v, nil
}

// count reads a vector length and checks that the section has at least
// minSize bytes left per element, so a bogus count cannot make us
// allocate more than the input justifies.
func (d *decoder) count(what string, minSize int) (int, error) {
	n, p := readU32(d.b, d.pos)
	if p < 0 {
		return 0, d.errorf("malformed %s count", what)
	}
	d.pos = p
	if uint64(n)*uint64(minSize) > uint64(len(d.b)-d.pos) {
		return 0, d.errorf("%s count %d exceeds the section size", what, n)
	}
	return int(n), nil
}

func (d *decoder) byte(what string) (byte, error) {
	if d.pos >= len(d.b) {
		return 0, d.errorf("unexpected end of section reading %s", what)
	}
	c := d.b[d.pos]
	d.pos++
	return c, nil
}

func (d *decoder) bytes(what string) ([]byte, error) {
	n, p := readU32(d.b, d.pos)
	if p < 0 {
		return nil, d.errorf("malformed %s length", what)
	}
	d.pos = p
	if int(n) > len(d.b)-d.pos {
		return nil, d.errorf("%s length %d exceeds the section size", what, n)
	}
	s := d.b[d.pos : d.pos+int(n) : d.pos+int(n)]
	d.pos += int(n)
	return s, nil
}

func (d *decoder) name(what string) (string, error) {
	start := d.pos
	s, err := d.bytes(what)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(s) {
		d.pos = start
		return "", d.errorf("%s is not valid UTF-8", what)
	}
	return string(s), nil
}

func (d *decoder) valType(what string) (ValType, error) {
	c, err := d.byte(what)
	if err != nil {
		return 0, err
	}
	if !validValType(c) {
		d.pos--
		return 0, d.errorf("unknown value type 0x%02x in %s", c, what)
	}
	return ValType(c), nil
}

func (d *decoder) refType(what string) (ValType, error) {
	c, err := d.byte(what)
	if err != nil {
		return 0, err
	}
	if c != byte(FuncRef) && c != byte(ExternRef) {
		d.pos--
		return 0, d.errorf("unknown reference type 0x%02x in %s", c, what)
	}
	return ValType(c), nil
}

func (d *decoder) limits(what string, memory bool) (Limits, error) {
	flags, err := d.byte(what + " limits")
	if err != nil {
		return Limits{}, err
	}
	switch {
	case flags <= 1:
	case memory && flags&2 != 0 && flags < 4:
		d.pos--
		return Limits{}, d.errorf("shared %s (threads) is not supported", what)
	case memory && flags < 8:
		d.pos--
		return Limits{}, d.errorf("64-bit %s (memory64) is not supported", what)
	default:
		d.pos--
		return Limits{}, d.errorf("unknown %s limits flags 0x%02x", what, flags)
	}
	var l Limits
	if l.Min, err = d.u32(what + " minimum"); err != nil {
		return l, err
	}
	if flags == 1 {
		l.HasMax = true
		if l.Max, err = d.u32(what + " maximum"); err != nil {
			return l, err
		}
	}
	return l, nil
}

func (d *decoder) tableType() (TableType, error) {
	e, err := d.refType("table element type")
	if err != nil {
		return TableType{}, err
	}
	l, err := d.limits("table", false)
	return TableType{Elem: e, Limits: l}, err
}

func (d *decoder) globalType() (GlobalType, error) {
	t, err := d.valType("global type")
	if err != nil {
		return GlobalType{}, err
	}
	m, err := d.byte("global mutability")
	if err != nil {
		return GlobalType{}, err
	}
	if m > 1 {
		d.pos--
		return GlobalType{}, d.errorf("global mutability must be 0 or 1, not %d", m)
	}
	return GlobalType{Type: t, Mutable: m == 1}, nil
}

// expr reads a constant expression up to and including its final end.
func (d *decoder) expr() ([]byte, error) {
	// Fast path for the common i32.const N end.
	if d.pos < len(d.b) && d.b[d.pos] == byte(OpI32Const) {
		if _, p := readS32(d.b, d.pos+1); p > 0 && p < len(d.b) && d.b[p] == byte(OpEnd) {
			e := d.b[d.pos : p+1 : p+1]
			d.pos = p + 1
			return e, nil
		}
	}
	var r Reader
	r.Reset(d.b[d.pos:], d.off+d.pos)
	var in Instr
	for r.More() {
		if err := r.Next(&in); err != nil {
			return nil, err
		}
	}
	e := d.b[d.pos : d.pos+r.pos : d.pos+r.pos]
	d.pos += r.pos
	return e, nil
}

// Decode decodes a binary module. The Module aliases bin.
//
// Function bodies are split from their local declarations but their
// instructions are not decoded: walk them with a Reader (or CheckBody).
func Decode(bin []byte) (*Module, error) {
	if len(bin) < 8 || string(bin[:4]) != Magic {
		return nil, errorf(0, "not a WebAssembly module (bad magic number)")
	}
	if string(bin[4:8]) != Version {
		return nil, errorf(4, "unsupported binary version % x (components and pre-1.0 modules are not supported)", bin[4:8])
	}
	m := &Module{}
	pos := 8
	lastRank := 0
	lastID := SectionCustom
	var funcCount int
	haveFuncs := false
	for pos < len(bin) {
		start := pos
		id := SectionID(bin[pos])
		size, p := readU32(bin, pos+1)
		if p < 0 {
			return nil, errorf(pos+1, "malformed size of section %d", id)
		}
		if int(size) > len(bin)-p {
			return nil, errorf(pos+1, "section %d size %d exceeds the module (%d bytes left)", id, size, len(bin)-p)
		}
		d := decoder{b: bin[p : p+int(size) : p+int(size)], off: p}
		pos = p + int(size)
		if id == SectionCustom {
			name, err := d.name("custom section name")
			if err != nil {
				return nil, err
			}
			m.Customs = append(m.Customs, Custom{Name: name, Data: d.b[d.pos:], After: lastID})
			continue
		}
		if id == SectionTag {
			return nil, errorf(start, "tag section: exception handling is not supported")
		}
		if int(id) >= len(rank) || rank[id] == 0 {
			return nil, errorf(start, "unknown section id %d", id)
		}
		if rank[id] <= lastRank {
			return nil, errorf(start, "section %d is out of order or repeated", id)
		}
		lastRank, lastID = rank[id], id
		var err error
		switch id {
		case SectionType:
			err = d.types(m)
		case SectionImport:
			err = d.imports(m)
		case SectionFunction:
			err = d.funcs(m)
			funcCount, haveFuncs = len(m.Funcs), true
		case SectionTable:
			err = d.tables(m)
		case SectionMemory:
			err = d.memories(m)
		case SectionGlobal:
			err = d.globals(m)
		case SectionExport:
			err = d.exports(m)
		case SectionStart:
			m.HasStart = true
			m.Start, err = d.u32("start function index")
		case SectionElement:
			err = d.elements(m)
		case SectionDataCount:
			m.HasDataCount = true
			m.DataCount, err = d.u32("data count")
		case SectionCode:
			err = d.codes(m)
			if err == nil && len(m.Codes) != funcCount {
				err = errorf(start, "code section has %d bodies but the function section declares %d functions", len(m.Codes), funcCount)
			}
		case SectionData:
			err = d.datas(m)
			if err == nil && m.HasDataCount && uint32(len(m.Datas)) != m.DataCount {
				err = errorf(start, "data section has %d segments but the data count section says %d", len(m.Datas), m.DataCount)
			}
		}
		if err != nil {
			return nil, err
		}
		if d.pos != len(d.b) {
			return nil, d.errorf("%d unread bytes at the end of section %d", len(d.b)-d.pos, id)
		}
	}
	if haveFuncs && funcCount > 0 && m.Codes == nil {
		return nil, errorf(len(bin), "function section declares %d functions but there is no code section", funcCount)
	}
	if m.HasDataCount && m.DataCount > 0 && m.Datas == nil {
		return nil, errorf(len(bin), "data count section says %d segments but there is no data section", m.DataCount)
	}
	return m, nil
}

func (d *decoder) types(m *Module) error {
	n, err := d.count("type", 3)
	if err != nil {
		return err
	}
	m.Types = make([]FuncType, n)
	for i := range m.Types {
		form, err := d.byte("type form")
		if err != nil {
			return err
		}
		if form != 0x60 {
			d.pos--
			return d.errorf("type %d: form 0x%02x is not a function type (GC types are not supported)", i, form)
		}
		var t FuncType
		if t.Params, err = d.valTypes("parameter"); err != nil {
			return err
		}
		if t.Results, err = d.valTypes("result"); err != nil {
			return err
		}
		m.Types[i] = t
	}
	return nil
}

func (d *decoder) valTypes(what string) ([]ValType, error) {
	n, err := d.count(what, 1)
	if err != nil || n == 0 {
		return nil, err
	}
	vs := make([]ValType, n)
	for j := range vs {
		if vs[j], err = d.valType(what + " type"); err != nil {
			return nil, err
		}
	}
	return vs, nil
}

func (d *decoder) imports(m *Module) error {
	n, err := d.count("import", 4)
	if err != nil {
		return err
	}
	m.Imports = make([]Import, n)
	for i := range m.Imports {
		im := &m.Imports[i]
		if im.Module, err = d.name("import module name"); err != nil {
			return err
		}
		if im.Name, err = d.name("import name"); err != nil {
			return err
		}
		k, err := d.byte("import kind")
		if err != nil {
			return err
		}
		im.Kind = ExternKind(k)
		switch im.Kind {
		case ExternFunc:
			if im.Func, err = d.u32("import type index"); err == nil && int(im.Func) >= len(m.Types) {
				err = d.errorf("import %q %q: type index %d out of range (%d types)", im.Module, im.Name, im.Func, len(m.Types))
			}
		case ExternTable:
			im.Table, err = d.tableType()
		case ExternMemory:
			im.Memory, err = d.limits("memory", true)
		case ExternGlobal:
			im.Global, err = d.globalType()
		case 4:
			d.pos--
			return d.errorf("import %q %q: tags (exception handling) are not supported", im.Module, im.Name)
		default:
			d.pos--
			return d.errorf("import %q %q: unknown kind %d", im.Module, im.Name, k)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) funcs(m *Module) error {
	n, err := d.count("function", 1)
	if err != nil {
		return err
	}
	m.Funcs = make([]uint32, n)
	for i := range m.Funcs {
		if m.Funcs[i], err = d.u32("function type index"); err != nil {
			return err
		}
		if int(m.Funcs[i]) >= len(m.Types) {
			return d.errorf("function %d: type index %d out of range (%d types)", i, m.Funcs[i], len(m.Types))
		}
	}
	return nil
}

func (d *decoder) tables(m *Module) error {
	n, err := d.count("table", 3)
	if err != nil {
		return err
	}
	m.Tables = make([]TableType, n)
	for i := range m.Tables {
		if d.pos < len(d.b) && d.b[d.pos] == 0x40 {
			return d.errorf("tables with initializer expressions are not supported")
		}
		if m.Tables[i], err = d.tableType(); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) memories(m *Module) error {
	n, err := d.count("memory", 2)
	if err != nil {
		return err
	}
	m.Memories = make([]Limits, n)
	for i := range m.Memories {
		if m.Memories[i], err = d.limits("memory", true); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) globals(m *Module) error {
	n, err := d.count("global", 3)
	if err != nil {
		return err
	}
	m.Globals = make([]Global, n)
	for i := range m.Globals {
		g := &m.Globals[i]
		if g.Type, err = d.globalType(); err != nil {
			return err
		}
		if g.Init, err = d.expr(); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) exports(m *Module) error {
	n, err := d.count("export", 3)
	if err != nil {
		return err
	}
	m.Exports = make([]Export, n)
	for i := range m.Exports {
		e := &m.Exports[i]
		if e.Name, err = d.name("export name"); err != nil {
			return err
		}
		k, err := d.byte("export kind")
		if err != nil {
			return err
		}
		if k > 3 {
			d.pos--
			return d.errorf("export %q: unknown kind %d", e.Name, k)
		}
		e.Kind = ExternKind(k)
		if e.Index, err = d.u32("export index"); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) elements(m *Module) error {
	n, err := d.count("element segment", 2)
	if err != nil {
		return err
	}
	m.Elements = make([]Element, n)
	for i := range m.Elements {
		e := &m.Elements[i]
		if e.Flags, err = d.u32("element segment flags"); err != nil {
			return err
		}
		if e.Flags > 7 {
			return d.errorf("element segment %d: unknown flags %d", i, e.Flags)
		}
		switch {
		case e.Flags&1 == 0:
			e.Mode = SegmentActive
		case e.Flags&2 == 0:
			e.Mode = SegmentPassive
		default:
			e.Mode = SegmentDeclarative
		}
		if e.Flags == 2 || e.Flags == 6 {
			if e.Table, err = d.u32("element table index"); err != nil {
				return err
			}
		}
		if e.Mode == SegmentActive {
			if e.Offset, err = d.expr(); err != nil {
				return err
			}
		}
		if e.Flags != 0 && e.Flags != 4 {
			if e.Kind, err = d.byte("element kind"); err != nil {
				return err
			}
			if e.Flags < 4 && e.Kind != 0 {
				d.pos--
				return d.errorf("element segment %d: unknown element kind 0x%02x", i, e.Kind)
			}
			if e.Flags >= 4 && e.Kind != byte(FuncRef) && e.Kind != byte(ExternRef) {
				d.pos--
				return d.errorf("element segment %d: unknown reference type 0x%02x", i, e.Kind)
			}
		}
		if e.Flags < 4 {
			c, err := d.count("element", 1)
			if err != nil {
				return err
			}
			e.Funcs = make([]uint32, c)
			for j := range e.Funcs {
				if e.Funcs[j], err = d.u32("element function index"); err != nil {
					return err
				}
			}
		} else {
			c, err := d.count("element expression", 1)
			if err != nil {
				return err
			}
			e.Exprs = make([][]byte, c)
			for j := range e.Exprs {
				if e.Exprs[j], err = d.expr(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (d *decoder) codes(m *Module) error {
	n, err := d.count("function body", 2)
	if err != nil {
		return err
	}
	m.Codes = make([]Code, n)
	var locals []LocalDecl // shared backing array for every body's locals
	for i := range m.Codes {
		size, err := d.u32("function body size")
		if err != nil {
			return err
		}
		if int(size) > len(d.b)-d.pos {
			return d.errorf("function body %d: size %d exceeds the section", i, size)
		}
		end := d.pos + int(size)
		body := decoder{b: d.b[:end:end], pos: d.pos, off: d.off}
		nl, err := body.count("local declaration", 2)
		if err != nil {
			return err
		}
		first := len(locals)
		var total uint64
		for j := 0; j < nl; j++ {
			c, err := body.u32("local count")
			if err != nil {
				return err
			}
			total += uint64(c)
			if total > 50000 {
				return body.errorf("function body %d declares more than 50000 locals", i)
			}
			t, err := body.valType("local declaration")
			if err != nil {
				return err
			}
			locals = append(locals, LocalDecl{Count: c, Type: t})
		}
		c := &m.Codes[i]
		if nl > 0 {
			c.Locals = locals[first:len(locals):len(locals)]
		}
		if body.pos >= end {
			return body.errorf("function body %d is empty (it needs at least an end)", i)
		}
		c.Body = d.b[body.pos:end:end]
		c.BodyOffset = d.off + body.pos
		d.pos = end
	}
	return nil
}

func (d *decoder) datas(m *Module) error {
	n, err := d.count("data segment", 2)
	if err != nil {
		return err
	}
	m.Datas = make([]Data, n)
	for i := range m.Datas {
		s := &m.Datas[i]
		if s.Flags, err = d.u32("data segment flags"); err != nil {
			return err
		}
		switch s.Flags {
		case 0:
		case 1:
			s.Mode = SegmentPassive
		case 2:
			if s.Memory, err = d.u32("data memory index"); err != nil {
				return err
			}
		default:
			return d.errorf("data segment %d: unknown flags %d", i, s.Flags)
		}
		if s.Mode == SegmentActive {
			if s.Offset, err = d.expr(); err != nil {
				return err
			}
		}
		if s.Init, err = d.bytes("data segment"); err != nil {
			return err
		}
	}
	return nil
}
