package binary

import (
	"slices"
	"testing"
)

func TestDirtyRanges(t *testing.T) {
	seg := func(off uint32, n int) Data {
		return Data{Offset: append(AppendS64([]byte{0x41}, int64(int32(off))), 0x0b), Init: make([]byte, n)}
	}
	passive := seg(0, 100)
	passive.Mode = SegmentPassive
	global := Data{Offset: []byte{0x23, 0, 0x0b}, Init: make([]byte, 100)}
	for _, tt := range []struct {
		name  string
		datas []Data
		size  uint32
		want  []uint32
	}{
		{"none", nil, 1000, []uint32{0, 1000}},
		{"middle", []Data{seg(100, 50)}, 1000, []uint32{0, 100, 150, 1000}},
		{"start and end", []Data{seg(0, 100), seg(900, 100)}, 1000, []uint32{100, 900}},
		{"overlapping, unsorted", []Data{seg(300, 100), seg(100, 250), seg(120, 10)}, 1000, []uint32{0, 100, 400, 1000}},
		{"adjacent", []Data{seg(0, 10), seg(10, 10)}, 30, []uint32{20, 30}},
		{"past the end", []Data{seg(2000, 10)}, 1000, []uint32{0, 1000}},
		{"across the end", []Data{seg(990, 100)}, 1000, []uint32{0, 990}},
		{"whole", []Data{seg(0, 1000)}, 1000, nil},
		{"passive and global offsets cover nothing", []Data{passive, global}, 1000, []uint32{0, 1000}},
		{"high offset", []Data{seg(0x80000000, 16)}, 1000, []uint32{0, 1000}},
	} {
		got := DirtyRanges(&Module{Datas: tt.datas}, tt.size)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
