package binary

import "testing"

func TestHasCustom(t *testing.T) {
	plain := readTestdata(t, "features.wasm")
	bin := withCustom(plain, "middle", "xyz")
	for _, tc := range []struct {
		bin  []byte
		name string
		want bool
	}{
		{bin, "middle", true},
		{bin, "midd", false},
		{bin, "middlex", false},
		{plain, "middle", false},
		{bin[:len(bin)-1], "middle", true}, // the custom section comes before the cut
		{bin[:20], "middle", false},
		{[]byte("not wasm"), "middle", false},
	} {
		if got := HasCustom(tc.bin, tc.name); got != tc.want {
			t.Errorf("HasCustom(%d bytes, %q) = %v, want %v", len(tc.bin), tc.name, got, tc.want)
		}
	}
	if !HasCustom(goHelloWasm(t), "go:buildid") {
		t.Error("a Go module has no go:buildid section")
	}
}
