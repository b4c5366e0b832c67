package lazytable

import (
	"fmt"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// A module with a 600-entry element segment, as Go's linker writes one
// (Go puts its functions from table index 4096 on): after Apply the
// segment only declares its functions and the table fills as it is used.
func ExampleApply() {
	bin := testModule(600, 4096, nil)
	lazy := Apply(bin)
	for _, b := range [][]byte{bin, lazy} {
		m, err := binary.Decode(b)
		if err != nil {
			panic(err)
		}
		e := m.Elements[0]
		fmt.Printf("segment mode %d, %d functions; %d functions defined\n", e.Mode, len(e.Funcs), len(m.Funcs))
	}
	// Output:
	// segment mode 0, 600 functions; 602 functions defined
	// segment mode 2, 600 functions; 603 functions defined
}
