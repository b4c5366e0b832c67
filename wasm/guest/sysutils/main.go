// Command sysutils is a multi-call guest module holding the system, file
// attribute, checksum, encoding and arithmetic commands (rmdir, ln, stat,
// date, bc, test...). It runs the command named by the base name of
// argv[0], or by its first argument when invoked as sysutils;
// "sysutils --list" prints the command names.
package main

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const self = "sysutils"

func main() {
	args := os.Args
	name := ""
	if len(args) > 0 {
		name = strings.TrimSuffix(path.Base(args[0]), ".wasm")
	}
	if _, ok := Commands[name]; !ok {
		if len(args) < 2 {
			fmt.Fprintf(os.Stderr, "usage: %s COMMAND [ARG]... | --list\n", self)
			os.Exit(2)
		}
		args = args[1:]
		name = args[0]
	}
	if name == "--list" {
		w := bufio.NewWriter(os.Stdout)
		for _, n := range Names() {
			fmt.Fprintln(w, n)
		}
		if w.Flush() != nil {
			os.Exit(1)
		}
		return
	}
	m, ok := Commands[path.Base(name)]
	if !ok {
		fmt.Fprintf(os.Stderr, "%s: %s: unknown command\n", self, name)
		os.Exit(127)
	}
	env := &tool.Env{
		Args:   args,
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Getenv: os.Getenv,
	}
	os.Exit(tool.Run(m, env))
}

// Names lists the commands in order.
func Names() []string {
	names := make([]string, 0, len(Commands))
	for n := range Commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
