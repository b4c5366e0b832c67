// Command buildtools builds the guest tool modules and their manifest:
//
//	go run ./wasm/guest/cmd/buildtools -o build/tools
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest"
)

func main() {
	out := flag.String("o", "build/tools", "output directory")
	flag.Parse()
	if err := guest.Build(context.Background(), *out); err != nil {
		fmt.Fprintln(os.Stderr, "buildtools:", err)
		os.Exit(1)
	}
}
