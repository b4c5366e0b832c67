package instrument_test

import (
	"fmt"
	"log"
	"os"

	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/instrument"
)

func ExampleInstrument() {
	bin, err := os.ReadFile("testdata/prog.wasm")
	if err != nil {
		log.Fatal(err)
	}
	out, err := instrument.Instrument(bin, instrument.Options{
		Fuel:             true,
		MemoryLimitPages: 2,
		AllowImport:      func(module, name string) bool { return module == "env" },
	})
	if err != nil {
		log.Fatal(err)
	}
	m, err := binary.Decode(out)
	if err != nil {
		log.Fatal(err)
	}
	refuel := m.Imports[len(m.Imports)-1]
	fuel := m.Exports[len(m.Exports)-1]
	fmt.Println("imports", refuel.Module+"."+refuel.Name, "and exports", fuel.Name)
	fmt.Println("memory maximum:", m.Memories[0].Max, "pages")

	_, err = instrument.Instrument(bin, instrument.Options{AllowImport: func(string, string) bool { return false }})
	fmt.Println(err)
	// Output:
	// imports wasmsand.refuel and exports wasmsand_fuel
	// memory maximum: 2 pages
	// invalid WebAssembly module: import "env"."log" is not allowed in this sandbox
}
