// Package pager implements more and less for output that is not a
// terminal, which in the sandbox is all output: less copies its files as
// cat does, more (util-linux's) puts a header before each file.
package pager

import (
	"fmt"
	"io"
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// More runs more.
func More(env *tool.Env) int {
	files, code, done := operands(env, "more", "more from util-linux 2.38.1")
	if done {
		return code
	}
	out := env.Out()
	if len(files) == 0 {
		io.Copy(out, env.Stdin)
		return 0
	}
	for _, name := range files {
		fi, err := os.Stat(name)
		if err != nil {
			env.Errorf("cannot open %s: %s", name, tool.Strerror(err))
			continue
		}
		if fi.IsDir() {
			fmt.Fprintf(out, "\n*** %s: directory ***\n\n", name)
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			env.Errorf("cannot open %s: %s", name, tool.Strerror(err))
			continue
		}
		fmt.Fprintf(out, "::::::::::::::\n%s\n::::::::::::::\n", name)
		io.Copy(out, f)
		f.Close()
	}
	return 0
}

// Less runs less.
func Less(env *tool.Env) int {
	files, code, done := operands(env, "less", "less 590 (wasmsand)")
	if done {
		return code
	}
	out := env.Out()
	if len(files) == 0 {
		io.Copy(out, env.Stdin)
		return 0
	}
	for _, name := range files {
		if name == "-" {
			io.Copy(out, env.Stdin)
			continue
		}
		fi, err := os.Stat(name)
		if err != nil {
			// less reports on its output, as it would on its screen.
			fmt.Fprintf(out, "%s: %s\n", name, tool.Strerror(err))
			continue
		}
		if fi.IsDir() {
			fmt.Fprintf(out, "%s is a directory\n", name)
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(out, "%s: %s\n", name, tool.Strerror(err))
			continue
		}
		io.Copy(out, f)
		f.Close()
	}
	return 0
}

// operands skips the pager's options (none matter without a terminal) and
// answers --help and --version.
func operands(env *tool.Env, name, version string) (files []string, code int, done bool) {
	args := env.Args[1:]
	for i, a := range args {
		switch {
		case a == "--":
			return append(files, args[i+1:]...), 0, false
		case a == "--help":
			fmt.Fprintf(env.Out(), "Usage: %s [options] <file>...\n\nA file perusal filter; when the output is not a terminal, it copies\nthe files to standard output.\n", name)
			return nil, 0, true
		case a == "--version" || a == "-V" && name == "more":
			fmt.Fprintln(env.Out(), version)
			return nil, 0, true
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
		default:
			files = append(files, a)
		}
	}
	return files, 0, false
}
