package hostwasm

import (
	"errors"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// Guests' memories are recycled (see memoryPoolSource): a WebAssembly.Memory
// that V8 creates for a new instance is fresh virtual memory, and the
// kernel faults in and zeroes every page the data segments touch — about
// three quarters of the cost of starting a Go tool whose pre-initialised
// image fills 4 MB. A memory whose pages were touched before costs only a
// copy. An instance can only be given a memory it imports, so the engine
// compiles each module with its one memory turned into an import of
// memImportModule.memImportName with the same limits; every instance then
// gets a zeroed memory of exactly the module's initial size, as a memory of
// its own would be.
const (
	memImportModule = "wasmsand:memory"
	memImportName   = "memory"
)

var errNoMemoryImport = errors.New("hostwasm: module not eligible for an imported memory")

// importMemory returns bin with its memory section dropped and an import
// of memImportModule.memImportName with limits lim appended to its import
// section. m is bin decoded; it must define exactly one memory and import
// only functions (so the memory keeps index 0 and no other index moves).
// Other modules, and one without an import section, give
// errNoMemoryImport.
func importMemory(bin []byte, m *binary.Module) (out []byte, lim binary.Limits, err error) {
	if len(m.Memories) != 1 || len(bin) < 8 {
		return nil, lim, errNoMemoryImport
	}
	for _, imp := range m.Imports {
		if imp.Kind != binary.ExternFunc {
			return nil, lim, errNoMemoryImport
		}
	}
	lim = m.Memories[0]
	out = make([]byte, 0, len(bin)+64)
	out = append(out, bin[:8]...)
	pos := 8
	sawImports, sawMemory := false, false
	for pos < len(bin) {
		id := bin[pos]
		size, n, ok := readU32(bin[pos+1:])
		start := pos + 1 + n
		end := start + int(size)
		if !ok || end > len(bin) || end < start {
			return nil, lim, errNoMemoryImport
		}
		switch binary.SectionID(id) {
		case binary.SectionImport:
			count, k, ok := readU32(bin[start:end])
			if !ok || int(count) != len(m.Imports) || sawImports {
				return nil, lim, errNoMemoryImport
			}
			var body []byte
			body = binary.AppendU32(body, count+1)
			body = append(body, bin[start+k:end]...)
			body = appendName(body, memImportModule)
			body = appendName(body, memImportName)
			body = append(body, byte(binary.ExternMemory))
			if lim.HasMax {
				body = append(body, 1)
				body = binary.AppendU32(body, lim.Min)
				body = binary.AppendU32(body, lim.Max)
			} else {
				body = append(body, 0)
				body = binary.AppendU32(body, lim.Min)
			}
			out = append(out, id)
			out = binary.AppendU32(out, uint32(len(body)))
			out = append(out, body...)
			sawImports = true
		case binary.SectionMemory:
			// Dropped: the memory is now the import's.
			if sawMemory {
				return nil, lim, errNoMemoryImport
			}
			sawMemory = true
		default:
			out = append(out, bin[pos:end]...)
		}
		pos = end
	}
	if !sawImports || !sawMemory {
		return nil, lim, errNoMemoryImport
	}
	return out, lim, nil
}

func appendName(b []byte, s string) []byte {
	b = binary.AppendU32(b, uint32(len(s)))
	return append(b, s...)
}

// readU32 reads an unsigned LEB128 number of at most 5 bytes.
func readU32(b []byte) (v uint32, n int, ok bool) {
	var shift uint
	for n < len(b) && n < 5 {
		c := b[n]
		n++
		if n == 5 && c > 0x0f {
			return 0, n, false
		}
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, n, true
		}
		shift += 7
	}
	return 0, n, false
}
