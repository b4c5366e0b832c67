package wazeroengine

import "testing"

func TestLinearMemory(t *testing.T) {
	m := (&allocator{}).Allocate(2*pageSize, 8*pageSize)
	b := m.Reallocate(2 * pageSize)
	if len(b) != 2*pageSize {
		t.Fatalf("len = %d", len(b))
	}
	b[0], b[len(b)-1] = 1, 2
	for _, pages := range []uint64{3, 5, 8} {
		nb := m.Reallocate(pages * pageSize)
		if uint64(len(nb)) != pages*pageSize {
			t.Fatalf("Reallocate(%d pages): len = %d", pages, len(nb))
		}
		if nb[0] != 1 || nb[2*pageSize-1] != 2 {
			t.Fatalf("Reallocate(%d pages) lost the contents", pages)
		}
		for i := 2 * pageSize; i < len(nb); i++ {
			if nb[i] != 0 {
				t.Fatalf("Reallocate(%d pages): byte %d = %d, want 0", pages, i, nb[i])
			}
		}
		if cap(nb) != len(nb) {
			t.Errorf("Reallocate returned spare capacity %d", cap(nb)-len(nb))
		}
	}
	if m.Reallocate(9*pageSize) != nil {
		t.Error("Reallocate past the maximum succeeded")
	}
	m.Free()
}
