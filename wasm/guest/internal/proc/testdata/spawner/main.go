// Command spawner exercises package proc from inside the sandbox:
//
//	spawner run CMD ARGS...   runs CMD with our stdio, prints its status
//	spawner pipe              seq 3 | wc -l through a pipe made with proc.Pipe
//	spawner kill              starts sleep 10, kills it, prints its status
package main

import (
	"fmt"
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: spawner run|pipe|kill ...")
		os.Exit(2)
	}
	env := os.Environ()
	switch os.Args[1] {
	case "run":
		status, err := proc.Run(os.Args[2:], env, "", os.Stdin, os.Stdout, os.Stderr)
		if err != nil {
			fmt.Printf("error: %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("status %d\n", status)
	case "pipe":
		r, w, err := proc.Pipe()
		check(err)
		a, err := proc.Start([]string{"seq", "3"}, env, "", os.Stdin, w, os.Stderr)
		check(err)
		b, err := proc.Start([]string{"wc", "-l"}, env, "", r, os.Stdout, os.Stderr)
		check(err)
		w.Close()
		r.Close()
		sa, err := a.Wait()
		check(err)
		sb, err := b.Wait()
		check(err)
		fmt.Printf("status %d %d\n", sa, sb)
	case "kill":
		p, err := proc.Start([]string{"sleep", "10"}, env, "", os.Stdin, os.Stdout, os.Stderr)
		check(err)
		check(p.Kill())
		status, err := p.Wait()
		check(err)
		fmt.Printf("status %d\n", status)
	}
}

func check(err error) {
	if err != nil {
		fmt.Printf("error: %v\n", err)
		os.Exit(1)
	}
}
