package cguest_test

import (
	"fmt"
	"os"

	"github.com/wasmsand/wasmsand/wasm/cguest"
)

// Cached finds the modules a previous build (make cguests) left in the
// cache; Install adds them to a tools directory beside the Go tools.
func ExampleCached() {
	if dir, ok := cguest.Cached(); ok {
		tools, err := os.MkdirTemp("", "tools-")
		if err == nil {
			defer os.RemoveAll(tools)
			err = cguest.Install(dir, tools) // python3.wasm, sqlite3.wasm, manifest.json
		}
		if err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(cguest.Modules["sqlite3.wasm"])
	// Output: [sqlite3]
}
