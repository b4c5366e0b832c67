package memsize_test

import (
	"fmt"

	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/memsize"
)

// A module whose one function returns memory.size: after Apply it calls
// the added $size, and the module has a global and two functions more.
func ExampleApply() {
	m := &binary.Module{
		Types:    []binary.FuncType{{Results: []binary.ValType{binary.I32}}},
		Funcs:    []uint32{0},
		Memories: []binary.Limits{{Min: 2}},
		Codes:    []binary.Code{{Body: []byte{byte(binary.OpMemorySize), 0, byte(binary.OpEnd)}}},
	}
	out, ok := memsize.Apply(m.Encode())
	r, err := binary.Decode(out)
	if err != nil {
		panic(err)
	}
	fmt.Println(ok, len(r.Funcs), len(r.Globals))
	fmt.Printf("% x\n", r.Codes[0].Body)
	// Output:
	// true 3 1
	// 10 01 0b
}
