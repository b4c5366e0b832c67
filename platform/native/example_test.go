package native_test

import (
	"context"
	"fmt"
	"log"

	_ "github.com/wasmsand/wasmsand/platform/native" // sandboxes run natively, with the tools
	"github.com/wasmsand/wasmsand/sandbox"
)

// This example creates a sandbox with the zero Options (importing
// platform/native made it the default platform: wazero, and the tools
// built from the module's own sources into the user cache directory the
// first time), runs a pipeline of tools in it, snapshots it, restores
// the snapshot and forks the restored sandbox.
func Example() {
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	if err := sb.WriteFile("/home/user/data.csv", []byte("a,3\nb,10\nc,2\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	res, err := sb.Run(ctx, "cut -d, -f2 data.csv | sort -n | tail -n 1")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print("largest: ", string(res.Stdout))

	snap, err := sb.Snapshot()
	if err != nil {
		log.Fatal(err)
	}
	restored, err := sandbox.Restore(ctx, snap, sandbox.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer restored.Close()

	// The fork shares the restored sandbox's files until one of them writes.
	child, err := restored.Fork(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer child.Close()
	if _, err := child.Run(ctx, "echo d,7 >> data.csv"); err != nil {
		log.Fatal(err)
	}
	for name, s := range map[string]*sandbox.Sandbox{"restored": restored, "fork": child} {
		res, err := s.Run(ctx, "wc -l < data.csv")
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(name, " lines: ", string(res.Stdout))
	}
	// Unordered output:
	// largest: 10
	// restored lines: 3
	// fork lines: 4
}
