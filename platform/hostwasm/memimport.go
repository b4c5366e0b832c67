package hostwasm

import (
	"errors"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// Guests' memories and function tables are recycled (see glueSource's
// pools). A WebAssembly.Memory that V8 creates for a new instance is fresh
// virtual memory, and the kernel faults in and zeroes every page the data
// segments touch — about three quarters of the cost of starting a Go tool
// whose pre-initialised image fills 4 MB. A table is worse for its size:
// V8 allocates each one's dispatch table as a large object of its own,
// faults its pages in and clears every entry, and the garbage drives V8's
// major collections; a Go tool's table of 7,000 entries cost about 0.8 ms
// of CPU to create, against 70 µs to clear a used one. An instance can
// only be given a memory or table it imports, so the engine compiles each
// module with its one memory and its one funcref table turned into imports
// of the same limits (memImportModule.memImportName and
// memImportModule.tableImportName); every instance then gets a zeroed
// memory of exactly the module's initial size and a table of its initial
// length holding only nulls, as its own would be.
const (
	memImportModule = "wasmsand:memory"
	memImportName   = "memory"
	tableImportName = "table"
)

var errNoMemoryImport = errors.New("hostwasm: module not eligible for an imported memory or table")

// hoisted is what importDefs turned into imports: the memory's limits and
// the table's type, each nil when the module keeps its own.
type hoisted struct {
	mem   *binary.Limits
	table *binary.TableType
}

// importDefs returns bin with its memory and table sections dropped and
// imports of memImportModule.memImportName and, after it,
// memImportModule.tableImportName with their limits appended to its
// import section. m is bin decoded; it must import only functions (so the
// memory and the table keep index 0 and no other index moves). Only a
// module's one memory and its one funcref table move; a module with
// neither, or one without an import section, gives errNoMemoryImport.
func importDefs(bin []byte, m *binary.Module) ([]byte, hoisted, error) {
	mem := len(m.Memories) == 1
	table := len(m.Tables) == 1 && m.Tables[0].Elem == binary.FuncRef
	if !mem && !table {
		return nil, hoisted{}, errNoMemoryImport
	}
	return rewriteImports(bin, m, mem, table)
}

func rewriteImports(bin []byte, m *binary.Module, mem, table bool) (out []byte, h hoisted, err error) {
	if len(bin) < 8 {
		return nil, h, errNoMemoryImport
	}
	for _, imp := range m.Imports {
		if imp.Kind != binary.ExternFunc {
			return nil, h, errNoMemoryImport
		}
	}
	out = make([]byte, 0, len(bin)+64)
	out = append(out, bin[:8]...)
	pos := 8
	sawImports := false
	for pos < len(bin) {
		id := bin[pos]
		size, n, ok := readU32(bin[pos+1:])
		start := pos + 1 + n
		end := start + int(size)
		if !ok || end > len(bin) || end < start {
			return nil, hoisted{}, errNoMemoryImport
		}
		switch sid := binary.SectionID(id); {
		case sid == binary.SectionImport:
			count, k, ok := readU32(bin[start:end])
			if !ok || int(count) != len(m.Imports) || sawImports {
				return nil, hoisted{}, errNoMemoryImport
			}
			var body []byte
			if mem {
				count++
			}
			if table {
				count++
			}
			body = binary.AppendU32(body, count)
			body = append(body, bin[start+k:end]...)
			if mem {
				lim := m.Memories[0]
				body = appendName(body, memImportModule)
				body = appendName(body, memImportName)
				body = append(body, byte(binary.ExternMemory))
				body = appendLimits(body, lim)
				h.mem = &lim
			}
			if table {
				t := m.Tables[0]
				body = appendName(body, memImportModule)
				body = appendName(body, tableImportName)
				body = append(body, byte(binary.ExternTable), byte(t.Elem))
				body = appendLimits(body, t.Limits)
				h.table = &t
			}
			out = append(out, id)
			out = binary.AppendU32(out, uint32(len(body)))
			out = append(out, body...)
			sawImports = true
		case sid == binary.SectionMemory && mem, sid == binary.SectionTable && table:
			// Dropped: the definition is now an import.
		default:
			out = append(out, bin[pos:end]...)
		}
		pos = end
	}
	if !sawImports {
		return nil, hoisted{}, errNoMemoryImport
	}
	return out, h, nil
}

func appendName(b []byte, s string) []byte {
	b = binary.AppendU32(b, uint32(len(s)))
	return append(b, s...)
}

func appendLimits(b []byte, lim binary.Limits) []byte {
	if lim.HasMax {
		b = append(b, 1)
		b = binary.AppendU32(b, lim.Min)
		return binary.AppendU32(b, lim.Max)
	}
	b = append(b, 0)
	return binary.AppendU32(b, lim.Min)
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
