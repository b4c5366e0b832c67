package wat_test

import (
	"context"
	"fmt"
	"log"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/wat"
	"github.com/wasmsand/wasmsand/wasm/modsandbox"
	"github.com/wasmsand/wasmsand/wasm/modsandbox/native"
)

// The low-level module API loading WebAssembly text. It needs the tools
// directory of a build with the C guests (make cguests tools).
func Example() {
	ctx := context.Background()
	c := wat.New(sandbox.Options{ToolsDir: "build/tools"})
	defer c.Close()

	rt := native.New()
	defer rt.Close(ctx)
	rt.SetTextCompiler(c.Compile)

	in, err := rt.Create(modsandbox.Config{EventTimestamp: 1_700_000_000_000})
	if err != nil {
		log.Fatal(err)
	}
	defer in.Destroy()
	err = in.Load(ctx, []byte(`(module
  (func (export "add") (param i32 i32) (result i32)
    (i32.add (local.get 0) (local.get 1))))`))
	if err != nil {
		log.Fatal(err) // INVALID_MODULE: wat: line L, column C: … for a mistake
	}
	r := in.Execute(ctx, "add", []int{40, 2})
	fmt.Println(r.OK, r.Value)
}
