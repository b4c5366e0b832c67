package binary

// HasCustom reports whether bin, a WebAssembly module, has a custom
// section called name. It reads only the section headers, so it is cheap
// on large modules; a malformed module has none.
func HasCustom(bin []byte, name string) bool {
	if len(bin) < 8 || string(bin[:4]) != Magic {
		return false
	}
	pos := 8
	for pos < len(bin) {
		id := SectionID(bin[pos])
		size, p := readU32(bin, pos+1)
		if p < 0 || int(size) > len(bin)-p {
			return false
		}
		end := p + int(size)
		if id == SectionCustom {
			n, q := readU32(bin, p)
			if q >= 0 && int(n) <= end-q && string(bin[q:q+int(n)]) == name {
				return true
			}
		}
		pos = end
	}
	return false
}
