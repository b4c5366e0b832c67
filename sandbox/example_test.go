package sandbox_test

import (
	"context"
	"fmt"
	"log"

	"github.com/wasmsand/wasmsand/sandbox"
)

// This example creates a sandbox, runs shell code in it, snapshots it,
// restores the snapshot and forks the restored sandbox. It runs on the
// default platform, which a program gets by importing
// github.com/wasmsand/wasmsand/platform/native (see its example, which
// runs tools such as cut and sort too); shell builtins are enough here.
func Example() {
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	res, err := sb.Run(ctx, `echo draft > notes.txt; greet() { echo "hello, $1"; }; n=1; greet sandbox`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(res.Stdout))

	// A snapshot is plain bytes: store it anywhere, restore it later.
	snap, err := sb.Snapshot()
	if err != nil {
		log.Fatal(err)
	}
	restored, err := sandbox.Restore(ctx, snap, sandbox.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer restored.Close()
	res, _ = restored.Run(ctx, `greet restored; read -r line < notes.txt; echo "$line n=$n"`)
	fmt.Print(string(res.Stdout))

	// A fork shares its parent's files until one of them writes.
	child, err := restored.Fork(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer child.Close()
	child.Run(ctx, `echo final > notes.txt; n=2`)
	for _, s := range []*sandbox.Sandbox{restored, child} {
		res, _ = s.Run(ctx, `read -r line < notes.txt; echo "$line n=$n"`)
		fmt.Print(string(res.Stdout))
	}
	// Output:
	// hello, sandbox
	// hello, restored
	// draft n=1
	// draft n=1
	// final n=2
}
