package preinit_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/preinit"
)

func ExampleImage() {
	reactor, err := os.ReadFile("testdata/reactor.wasm")
	if err != nil {
		log.Fatal(err)
	}
	img, err := preinit.Image(context.Background(), reactor, preinit.Options{Args: []string{"reactor"}})
	if err != nil {
		log.Fatal(err)
	}
	m, err := binary.Decode(img)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range m.Exports {
		fmt.Println("export", e.Name)
	}
	fmt.Println("memory:", m.Memories[0].Min, "pages")

	_, err = preinit.Image(context.Background(), img, preinit.Options{})
	fmt.Println(err)
	// Output:
	// export memory
	// export wasmsand_main
	// export _start
	// memory: 2 pages
	// preinit: no _initialize export: not a WASI reactor with an entry export
}
