// Command buildc builds the C guest modules (python3.wasm, sqlite3.wasm)
// from Debian's sources, cached by content hash, and installs them into a
// tools directory beside the Go tools:
//
//	go run ./wasm/cguest/cmd/buildc -o build/tools          build if needed, install
//	go run ./wasm/cguest/cmd/buildc -o build/tools -cached  install only if already built
//	go run ./wasm/cguest/cmd/buildc -print-dir              where the build is (or would be)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/wasmsand/wasmsand/wasm/cguest"
)

func main() {
	out := flag.String("o", "", "tools directory to install the modules into (manifest.json is updated)")
	cached := flag.Bool("cached", false, "do not build: install only what the cache holds, silently nothing otherwise")
	printDir := flag.Bool("print-dir", false, "print the build directory for the current recipe and toolchain")
	jobs := flag.Int("j", 0, "parallel compile jobs (0: every core)")
	flag.Parse()
	if *printDir {
		dir, err := cguest.Dir()
		if err != nil {
			fail(err)
		}
		fmt.Println(dir)
		return
	}
	var dir string
	if *cached {
		var ok bool
		if dir, ok = cguest.Cached(); !ok {
			return
		}
	} else {
		start := time.Now()
		var err error
		if dir, err = cguest.Build(context.Background(), cguest.Options{Jobs: *jobs}); err != nil {
			fail(err)
		}
		fmt.Fprintf(os.Stderr, "buildc: %s (%.1fs)\n", dir, time.Since(start).Seconds())
	}
	if *out != "" {
		if err := cguest.Install(dir, *out); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "buildc:", err)
	os.Exit(1)
}
