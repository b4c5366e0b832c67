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

func TestCustomData(t *testing.T) {
	plain := readTestdata(t, "features.wasm")
	bin := append(AppendCustom(plain[:8:8], "first", []byte("data\x00\x01")), plain[8:]...)
	bin = AppendCustom(bin, "last", nil)
	if _, err := Decode(bin); err != nil {
		t.Fatalf("a module with AppendCustom's sections does not decode: %v", err)
	}
	if got, ok := CustomData(bin, "first"); !ok || string(got) != "data\x00\x01" {
		t.Errorf("CustomData(first) = %q, %v; want %q, true", got, ok, "data\x00\x01")
	}
	if got, ok := CustomData(bin, "last"); !ok || len(got) != 0 {
		t.Errorf("CustomData(last) = %q, %v; want empty, true", got, ok)
	}
	if _, ok := CustomData(plain, "first"); ok {
		t.Error("CustomData found a section the module does not have")
	}
}
