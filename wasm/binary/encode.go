package binary

// Encode returns the module in the binary format. Numbers are written in
// their shortest LEB128 form, so a module from a tool that pads them (Go's
// linker does) encodes shorter than it decoded, to the same module.
func (m *Module) Encode() []byte {
	return m.AppendEncode(make([]byte, 0, m.sizeHint()))
}

func (m *Module) sizeHint() int {
	n := 1024 + 64*(len(m.Imports)+len(m.Exports)+len(m.Types))
	for i := range m.Codes {
		n += len(m.Codes[i].Body) + 8 + 2*len(m.Codes[i].Locals)
	}
	for i := range m.Datas {
		n += len(m.Datas[i].Init) + len(m.Datas[i].Offset) + 8
	}
	for i := range m.Customs {
		n += len(m.Customs[i].Data) + len(m.Customs[i].Name) + 8
	}
	for i := range m.Elements {
		n += 5*len(m.Elements[i].Funcs) + 8*len(m.Elements[i].Exprs) + 16
	}
	return n + 4*len(m.Funcs) + 16*len(m.Globals)
}

// AppendEncode appends the encoded module to dst.
func (m *Module) AppendEncode(dst []byte) []byte {
	b := append(dst, Magic...)
	b = append(b, Version...)
	b = m.appendCustoms(b, SectionCustom)
	for _, id := range sectionOrder {
		if id == SectionCode || id == SectionData {
			// The big sections: write the size first instead of moving
			// the contents afterwards.
			if m.hasSection(id) {
				b = append(b, byte(id))
				b = AppendU32(b, uint32(m.sectionSize(id)))
				b = m.appendSection(b, id)
			}
		} else if m.hasSection(id) {
			start := len(b)
			b = append(b, byte(id), 0, 0, 0, 0, 0)
			b = m.appendSection(b, id)
			b = finishSection(b, start)
		}
		b = m.appendCustoms(b, id)
	}
	return b
}

func (m *Module) hasSection(id SectionID) bool {
	switch id {
	case SectionType:
		return len(m.Types) > 0
	case SectionImport:
		return len(m.Imports) > 0
	case SectionFunction:
		return len(m.Funcs) > 0
	case SectionTable:
		return len(m.Tables) > 0
	case SectionMemory:
		return len(m.Memories) > 0
	case SectionGlobal:
		return len(m.Globals) > 0
	case SectionExport:
		return len(m.Exports) > 0
	case SectionStart:
		return m.HasStart
	case SectionElement:
		return len(m.Elements) > 0
	case SectionDataCount:
		return m.HasDataCount
	case SectionCode:
		return len(m.Codes) > 0
	case SectionData:
		return len(m.Datas) > 0
	}
	return false
}

// sectionSize is the encoded size of the code or data section.
func (m *Module) sectionSize(id SectionID) int {
	n := 0
	if id == SectionCode {
		n = sizeU32(uint32(len(m.Codes)))
		for i := range m.Codes {
			c := codeSize(m.Codes[i].Locals, m.Codes[i].Body)
			n += sizeU32(uint32(c)) + c
		}
		return n
	}
	n = sizeU32(uint32(len(m.Datas)))
	for i := range m.Datas {
		s := &m.Datas[i]
		n += sizeU32(s.Flags) + sizeU32(uint32(len(s.Init))) + len(s.Init)
		if s.Flags == 2 {
			n += sizeU32(s.Memory)
		}
		if s.Flags != 1 {
			n += len(s.Offset)
		}
	}
	return n
}

func codeSize(locals []LocalDecl, body []byte) int {
	size := sizeU32(uint32(len(locals))) + len(body)
	for _, l := range locals {
		size += sizeU32(l.Count) + 1
	}
	return size
}

// finishSection writes the size of the section whose id byte is at
// b[start], followed by five reserved bytes, and closes the gap.
func finishSection(b []byte, start int) []byte {
	content := len(b) - start - 6
	var tmp [5]byte
	leb := AppendU32(tmp[:0], uint32(content))
	copy(b[start+1:], leb)
	if len(leb) < 5 {
		n := copy(b[start+1+len(leb):], b[start+6:])
		b = b[:start+1+len(leb)+n]
	}
	return b
}

func (m *Module) appendCustoms(b []byte, after SectionID) []byte {
	for i := range m.Customs {
		c := &m.Customs[i]
		if c.After != after {
			continue
		}
		b = append(b, byte(SectionCustom))
		b = AppendU32(b, uint32(sizeU32(uint32(len(c.Name)))+len(c.Name)+len(c.Data)))
		b = appendName(b, c.Name)
		b = append(b, c.Data...)
	}
	return b
}

func appendName(b []byte, s string) []byte {
	b = AppendU32(b, uint32(len(s)))
	return append(b, s...)
}

func appendLimits(b []byte, l Limits) []byte {
	if l.HasMax {
		b = append(b, 1)
		b = AppendU32(b, l.Min)
		return AppendU32(b, l.Max)
	}
	b = append(b, 0)
	return AppendU32(b, l.Min)
}

func appendValTypes(b []byte, vs []ValType) []byte {
	b = AppendU32(b, uint32(len(vs)))
	for _, v := range vs {
		b = append(b, byte(v))
	}
	return b
}

func appendGlobalType(b []byte, g GlobalType) []byte {
	if g.Mutable {
		return append(b, byte(g.Type), 1)
	}
	return append(b, byte(g.Type), 0)
}

func (m *Module) appendSection(b []byte, id SectionID) []byte {
	switch id {
	case SectionType:
		b = AppendU32(b, uint32(len(m.Types)))
		for _, t := range m.Types {
			b = append(b, 0x60)
			b = appendValTypes(b, t.Params)
			b = appendValTypes(b, t.Results)
		}
	case SectionImport:
		b = AppendU32(b, uint32(len(m.Imports)))
		for i := range m.Imports {
			im := &m.Imports[i]
			b = appendName(b, im.Module)
			b = appendName(b, im.Name)
			b = append(b, byte(im.Kind))
			switch im.Kind {
			case ExternFunc:
				b = AppendU32(b, im.Func)
			case ExternTable:
				b = append(b, byte(im.Table.Elem))
				b = appendLimits(b, im.Table.Limits)
			case ExternMemory:
				b = appendLimits(b, im.Memory)
			case ExternGlobal:
				b = appendGlobalType(b, im.Global)
			}
		}
	case SectionFunction:
		b = AppendU32(b, uint32(len(m.Funcs)))
		for _, f := range m.Funcs {
			b = AppendU32(b, f)
		}
	case SectionTable:
		b = AppendU32(b, uint32(len(m.Tables)))
		for _, t := range m.Tables {
			b = append(b, byte(t.Elem))
			b = appendLimits(b, t.Limits)
		}
	case SectionMemory:
		b = AppendU32(b, uint32(len(m.Memories)))
		for _, l := range m.Memories {
			b = appendLimits(b, l)
		}
	case SectionGlobal:
		b = AppendU32(b, uint32(len(m.Globals)))
		for i := range m.Globals {
			b = appendGlobalType(b, m.Globals[i].Type)
			b = append(b, m.Globals[i].Init...)
		}
	case SectionExport:
		b = AppendU32(b, uint32(len(m.Exports)))
		for i := range m.Exports {
			b = appendName(b, m.Exports[i].Name)
			b = append(b, byte(m.Exports[i].Kind))
			b = AppendU32(b, m.Exports[i].Index)
		}
	case SectionStart:
		b = AppendU32(b, m.Start)
	case SectionElement:
		b = AppendU32(b, uint32(len(m.Elements)))
		for i := range m.Elements {
			b = appendElement(b, &m.Elements[i])
		}
	case SectionDataCount:
		b = AppendU32(b, m.DataCount)
	case SectionCode:
		b = AppendU32(b, uint32(len(m.Codes)))
		for i := range m.Codes {
			b = AppendCode(b, m.Codes[i].Locals, m.Codes[i].Body)
		}
	case SectionData:
		b = AppendU32(b, uint32(len(m.Datas)))
		for i := range m.Datas {
			s := &m.Datas[i]
			b = AppendU32(b, s.Flags)
			if s.Flags == 2 {
				b = AppendU32(b, s.Memory)
			}
			if s.Flags != 1 {
				b = append(b, s.Offset...)
			}
			b = AppendU32(b, uint32(len(s.Init)))
			b = append(b, s.Init...)
		}
	}
	return b
}

func appendElement(b []byte, e *Element) []byte {
	b = AppendU32(b, e.Flags)
	if e.Flags == 2 || e.Flags == 6 {
		b = AppendU32(b, e.Table)
	}
	if e.Flags&1 == 0 {
		b = append(b, e.Offset...)
	}
	if e.Flags != 0 && e.Flags != 4 {
		b = append(b, e.Kind)
	}
	if e.Flags < 4 {
		b = AppendU32(b, uint32(len(e.Funcs)))
		for _, f := range e.Funcs {
			b = AppendU32(b, f)
		}
		return b
	}
	b = AppendU32(b, uint32(len(e.Exprs)))
	for _, x := range e.Exprs {
		b = append(b, x...)
	}
	return b
}

// AppendCode appends one entry of the code section: the size, the local
// declarations and the body.
func AppendCode(b []byte, locals []LocalDecl, body []byte) []byte {
	b = AppendU32(b, uint32(codeSize(locals, body)))
	b = AppendU32(b, uint32(len(locals)))
	for _, l := range locals {
		b = AppendU32(b, l.Count)
		b = append(b, byte(l.Type))
	}
	return append(b, body...)
}
