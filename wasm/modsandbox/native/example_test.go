package native_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/wasmsand/wasmsand/wasm/modsandbox"
	"github.com/wasmsand/wasmsand/wasm/modsandbox/native"
)

func Example() {
	ctx := context.Background()
	rt := native.New()
	defer rt.Close(ctx)

	in, err := rt.Create(modsandbox.Config{EventTimestamp: 1_700_000_000_000})
	if err != nil {
		log.Fatal(err)
	}
	defer in.Destroy()
	bin, err := os.ReadFile("../testdata/small.wasm")
	if err != nil {
		log.Fatal(err)
	}
	if err := in.Load(ctx, bin); err != nil {
		log.Fatal(err)
	}
	r := in.Execute(ctx, "add", []int{40, 2})
	fmt.Println(in.ID(), r.OK, r.Value, r.GasUsed)
	r = in.Execute(ctx, "missing", nil)
	fmt.Println(r.Error.Code)
	// Output:
	// sandbox-0 true 42 3
	// INVALID_ARGUMENT
}
