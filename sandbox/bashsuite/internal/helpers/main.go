// Command helpers is the set of small programs bash's test suite expects
// beside its tests (bash builds them from its support/ directory): recho,
// zecho, printenv and xcase, chosen by the name it is called by. The bash
// suite builds it once for wasip1 and copies it under each name.
//
//	recho ARG...     prints "argv[N] = <ARG>" per argument, control
//	                 characters as ^X and DEL as ^?
//	zecho ARG...     prints the arguments joined by spaces, no options
//	printenv [NAME]  prints NAME's value (status 1 if unset), or the
//	                 whole environment
//	xcase [-lnu] [FILE]  copies FILE or stdin, upper- or lowercasing ASCII
//	                 letters; -n writes as it reads
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

func main() {
	// A login-style "-printenv" (exec -l) is still printenv.
	name := strings.TrimPrefix(path.Base(os.Args[0]), "-")
	name = strings.TrimSuffix(name, ".wasm")
	args := os.Args[1:]
	switch name {
	case "recho":
		recho(args)
	case "zecho":
		os.Stdout.WriteString(strings.Join(args, " ") + "\n")
	case "printenv":
		os.Exit(printenv(args))
	case "xcase":
		os.Exit(xcase(args))
	default:
		fmt.Fprintf(os.Stderr, "helpers: called as %q; want recho, zecho, printenv or xcase\n", name)
		os.Exit(2)
	}
}

func recho(args []string) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for i, arg := range args {
		fmt.Fprintf(w, "argv[%d] = <", i+1)
		for _, c := range []byte(arg) {
			switch {
			case c < ' ':
				w.WriteByte('^')
				w.WriteByte(c + 64)
			case c == 127:
				w.WriteString("^?")
			default:
				w.WriteByte(c)
			}
		}
		w.WriteString(">\n")
	}
}

func printenv(args []string) int {
	if len(args) == 0 {
		for _, kv := range os.Environ() {
			fmt.Println(kv)
		}
		return 0
	}
	// Like bash's helper: the first variable whose name starts with the
	// argument and is followed by '='.
	for _, kv := range os.Environ() {
		if rest, ok := strings.CutPrefix(kv, args[0]); ok && strings.HasPrefix(rest, "=") {
			fmt.Println(rest[1:])
			return 0
		}
	}
	return 1
}

func xcase(args []string) int {
	op := byte(0)
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
			case 'u', 'l':
				op = byte(c)
			default:
				fmt.Fprintln(os.Stderr, "casemod: usage: casemod [-lnu] [file]")
				return 2
			}
		}
		args = args[1:]
	}
	var in io.Reader = os.Stdin
	if len(args) > 0 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			fmt.Fprintf(os.Stderr, "casemod: %s: cannot open: %v\n", args[0], err)
			return 1
		}
		defer f.Close()
		in = f
	}
	buf := make([]byte, 4096)
	for {
		n, err := in.Read(buf)
		for i := range buf[:n] {
			c := buf[i]
			switch {
			case op == 'u' && 'a' <= c && c <= 'z':
				buf[i] = c - 32
			case op == 'l' && 'A' <= c && c <= 'Z':
				buf[i] = c + 32
			}
		}
		if n > 0 {
			if _, werr := os.Stdout.Write(buf[:n]); werr != nil {
				return 1
			}
		}
		if err != nil {
			return 0
		}
	}
}
