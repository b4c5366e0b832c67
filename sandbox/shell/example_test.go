package shell_test

import (
	"context"
	"fmt"
	"os"

	"github.com/wasmsand/wasmsand/sandbox/shell"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// noPrograms is a Host that runs no programs: the shell alone.
type noPrograms struct{}

func (noPrograms) Exec(ctx context.Context, p *shell.Process) int {
	fmt.Fprintf(p.Stdio.Stderr, "%s: no programs here\n", p.Args[0])
	return 127
}
func (noPrograms) Fork(context.Context) (func(), error) { return func() {}, nil }
func (noPrograms) Check(ctx context.Context) error      { return ctx.Err() }

func Example() {
	sh, err := shell.New(shell.Config{Host: noPrograms{}, FS: vfs.New(vfs.Options{}), Dir: "/"})
	if err != nil {
		panic(err)
	}
	sh.SetStdio(nil, os.Stdout, os.Stdout)
	sh.RunCommand(context.Background(), `
		declare -A count
		for w in apple pear apple fig apple pear; do count[$w]+=x; done
		for w in apple fig pear; do echo "$w ${#count[$w]}"; done
		greet() { echo "hello from ${FUNCNAME[0]}, $1"; }
		greet world`)
	v, _ := sh.Var("w")
	fmt.Println("w is", v)
	// Output:
	// apple 3
	// fig 1
	// pear 2
	// hello from greet, world
	// w is pear
}
