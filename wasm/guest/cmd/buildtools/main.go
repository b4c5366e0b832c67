// Command buildtools builds the guest tool modules and their manifest:
//
//	go run ./wasm/guest/cmd/buildtools -o build/tools
//
// With -cache it builds them where the native platform (package
// platform/native) looks for them, in the user cache directory, unless
// they are there already, and prints that directory. A program that
// depends on this module can so build its tools ahead of first use:
//
//	go run github.com/wasmsand/wasmsand/wasm/guest/cmd/buildtools -cache
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
	cache := flag.Bool("cache", false, "build into the user cache directory (where platform/native finds them) and print it")
	flag.Parse()
	if *cache {
		dir, err := guest.Cached(context.Background(), guest.CacheRoot(), os.Stderr)
		if err == nil {
			fmt.Println(dir)
			return
		}
		fmt.Fprintln(os.Stderr, "buildtools:", err)
		os.Exit(1)
	}
	if err := guest.Build(context.Background(), *out); err != nil {
		fmt.Fprintln(os.Stderr, "buildtools:", err)
		os.Exit(1)
	}
}
