package binary

// HasCustom reports whether bin, a WebAssembly module, has a custom
// section called name. It reads only the section headers, so it is cheap
// on large modules; a malformed module has none.
func HasCustom(bin []byte, name string) bool {
	_, ok := CustomData(bin, name)
	return ok
}

// CustomData returns the contents (after the name) of bin's first custom
// section called name. Like HasCustom it reads only the section headers;
// a malformed module has none.
func CustomData(bin []byte, name string) ([]byte, bool) {
	if len(bin) < 8 || string(bin[:4]) != Magic {
		return nil, false
	}
	pos := 8
	for pos < len(bin) {
		id := SectionID(bin[pos])
		size, p := readU32(bin, pos+1)
		if p < 0 || int(size) > len(bin)-p {
			return nil, false
		}
		end := p + int(size)
		if id == SectionCustom {
			n, q := readU32(bin, p)
			if q >= 0 && int(n) <= end-q && string(bin[q:q+int(n)]) == name {
				return bin[q+int(n) : end], true
			}
		}
		pos = end
	}
	return nil, false
}

// AppendCustom appends to b a custom section called name holding data.
func AppendCustom(b []byte, name string, data []byte) []byte {
	body := AppendU32(nil, uint32(len(name)))
	body = append(body, name...)
	b = append(b, byte(SectionCustom))
	b = AppendU32(b, uint32(len(body)+len(data)))
	b = append(b, body...)
	return append(b, data...)
}
