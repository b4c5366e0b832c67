package binary_test

import (
	"fmt"
	"log"
	"os"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

// Count the calls in every function body of a module.
func ExampleReader() {
	bin, err := os.ReadFile("testdata/features.wasm")
	if err != nil {
		log.Fatal(err)
	}
	m, err := binary.Decode(bin)
	if err != nil {
		log.Fatal(err)
	}
	calls := 0
	for _, code := range m.Codes {
		var r binary.Reader
		r.Reset(code.Body, code.BodyOffset)
		var in binary.Instr
		for r.More() {
			if err := r.Next(&in); err != nil {
				log.Fatal(err)
			}
			switch in.Op {
			case binary.OpCall, binary.OpReturnCall, binary.OpCallIndirect, binary.OpReturnCallIndirect:
				calls++
			}
		}
	}
	fmt.Println(len(m.Codes), "functions,", calls, "calls")
	// Output:
	// 10 functions, 4 calls
}
