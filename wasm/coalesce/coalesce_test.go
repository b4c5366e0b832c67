package coalesce

import (
	"bytes"
	"testing"
)

// module assembles a binary from raw sections.
func moduleOf(sections ...[]byte) []byte {
	b := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	for _, s := range sections {
		b = append(b, s...)
	}
	return b
}

func section(id byte, payload ...byte) []byte {
	return append([]byte{id, byte(len(payload))}, payload...)
}

var memorySection = section(5, 1, 0, 1) // one memory, min 1 page

func dataSeg(offset int64, init string) []byte {
	b := []byte{0, 0x41}
	b = appendSleb(b, offset)
	b = append(b, 0x0b, byte(len(init)))
	return append(b, init...)
}

func dataSection(segs ...[]byte) []byte {
	p := []byte{byte(len(segs))}
	for _, s := range segs {
		p = append(p, s...)
	}
	return section(11, p...)
}

func TestCoalesceData(t *testing.T) {
	twoSegs := dataSection(dataSeg(16, "ab"), dataSeg(20, "cd"))
	tests := []struct {
		name    string
		in      []byte
		changed bool
	}{
		{"adjacent segments", moduleOf(memorySection, twoSegs), true},
		{"far apart", moduleOf(memorySection, dataSection(dataSeg(0, "a"), dataSeg(60000, "b"))), false},
		{"overlapping", moduleOf(memorySection, dataSection(dataSeg(16, "abcd"), dataSeg(18, "x"))), false},
		{"out of order", moduleOf(memorySection, dataSection(dataSeg(32, "a"), dataSeg(16, "b"))), true},
		{"empty inside another", moduleOf(memorySection, dataSection(dataSeg(16, "abcd"), dataSeg(18, ""))), true},
		{"passive segment", moduleOf(memorySection, section(11, 2, 1, 1, 'a', 0, 0x41, 0, 0x0b, 1, 'b')), false},
		{"data count", moduleOf(memorySection, section(12, 2), twoSegs), false},
		{"imported memory", moduleOf(section(2, 1, 1, 'm', 1, 'm', 2, 0, 1), twoSegs), false},
		{"global offset", moduleOf(memorySection, section(11, 2, 0, 0x23, 0, 0x0b, 1, 'a', 0, 0x41, 2, 0x0b, 1, 'b')), false},
		{"truncated", moduleOf(memorySection, twoSegs)[:20], false},
		{"single segment", moduleOf(memorySection, dataSection(dataSeg(16, "ab"))), false},
	}
	for _, tt := range tests {
		out := Data(tt.in)
		if changed := !bytes.Equal(out, tt.in); changed != tt.changed {
			t.Errorf("%s: changed = %v, want %v", tt.name, changed, tt.changed)
		}
	}
	out := Data(moduleOf(memorySection, twoSegs))
	want := moduleOf(memorySection, dataSection(dataSeg(16, "ab\x00\x00cd")))
	if !bytes.Equal(out, want) {
		t.Errorf("coalesced to % x, want % x", out, want)
	}
}
