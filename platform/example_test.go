package platform_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/wasmsand/wasmsand/platform/native"
	"github.com/wasmsand/wasmsand/sandbox"
)

// This example picks its platform explicitly — the native one, with a
// compilation cache and its snapshots on disk — then creates a sandbox,
// runs a pipeline in it, saves it, loads the saved sandbox back and
// forks it.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "wasmsand-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	opts := sandbox.Options{
		Platform: native.New(native.Config{}), // tools built into the user cache on first use
		CacheDir: dir + "/cache",              // compiled and instrumented modules
		Store:    native.DirStore(dir + "/snapshots"),
	}
	sb, err := sandbox.New(ctx, opts)
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	res, err := sb.Run(ctx, "seq 100 | grep 7 | wc -l > sevens; cat sevens")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print("numbers with a 7: ", string(res.Stdout))
	if err := sb.Save(ctx, "work"); err != nil {
		log.Fatal(err)
	}

	loaded, err := sandbox.Load(ctx, "work", opts)
	if err != nil {
		log.Fatal(err)
	}
	defer loaded.Close()
	child, err := loaded.Fork(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer child.Close()
	child.Run(ctx, "echo 0 > sevens")
	for _, s := range []*sandbox.Sandbox{loaded, child} {
		res, err := s.Run(ctx, "cat sevens")
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(string(res.Stdout))
	}
	// Output:
	// numbers with a 7: 19
	// 19
	// 0
}
