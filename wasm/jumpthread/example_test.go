package jumpthread_test

import (
	"fmt"
	"log"

	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/jumpthread"
)

// A function in Go's dispatch shape: its first resume point jumps
// forward to the second through the loop (PC 1), which Module turns into
// a branch to the second resume point's block.
func Example() {
	body := []byte{
		0x03, 0x40, // loop
		0x02, 0x40, 0x02, 0x40, // block block
		0x20, 0x00, 0x0e, 0x01, 0x00, 0x01, // local.get 0; br_table 0 1
		0x0b,                               // end: resume point 0
		0x41, 0x01, 0x21, 0x00, 0x0c, 0x01, // i32.const 1; local.set 0; br 1 (the loop)
		0x0b,             // end: resume point 1
		0x41, 0x07, 0x0f, // i32.const 7; return
		0x0b, 0x00, 0x0b, // end (loop); unreachable; end
	}
	m := &binary.Module{
		Types: []binary.FuncType{{Params: []binary.ValType{binary.I32}, Results: []binary.ValType{binary.I32}}},
		Funcs: []uint32{0},
		Codes: []binary.Code{{Body: body}},
	}
	n, err := jumpthread.Module(m)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "branch made direct: br", m.Codes[0].Body[18])
	// Output: 1 branch made direct: br 0
}
