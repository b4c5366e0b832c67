package procps

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const killUsage = `
Usage:
 kill [options] <pid> [...]

Options:
 <pid> [...]            send signal to every <pid> listed
 -<signal>, -s, --signal <signal>
                        specify the <signal> to be sent
 -q, --queue <value>    integer value to be sent with the signal
 -l, --list=[<signal>]  list all signal names, or convert one to a name
 -L, --table            list all signal names in a nice table

 -h, --help     display this help and exit
 -V, --version  output version information and exit

For more details see kill(1).
`

// Kill runs procps' kill: signal the sandbox's processes (the shell's
// builtin kill also knows its jobs; this one knows pids).
func Kill(env *tool.Env) int {
	args := env.Args[1:]
	sig := syscall.SIGTERM
	usage := func() int {
		fmt.Fprint(env.Stderr, killUsage)
		return 1
	}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		a := args[0]
		switch {
		case a == "--":
			args = args[1:]
			goto pids
		case a == "-l" || a == "--list" || strings.HasPrefix(a, "--list="):
			rest := args[1:]
			if v, ok := strings.CutPrefix(a, "--list="); ok {
				rest = []string{v}
			}
			return killList(env, rest)
		case a == "-L" || a == "--table":
			killTable(env)
			return 0
		case a == "-h" || a == "--help":
			env.Out().WriteString(killUsage)
			return 0
		case a == "-V" || a == "--version":
			return env.PrintVersion()
		case a == "-s" || a == "--signal" || a == "-q" || a == "--queue":
			if len(args) < 2 {
				fmt.Fprintf(env.Stderr, "%s: invalid argument %s\n", env.Name(), a[len(a)-1:])
				return usage()
			}
			if a == "-s" || a == "--signal" {
				s, ok := parseSignal(args[1])
				if !ok {
					fmt.Fprintf(env.Stderr, "%s: unknown signal name %s\n", env.Name(), args[1])
					return 1
				}
				sig = s
			} else if _, err := strconv.Atoi(args[1]); err != nil {
				fmt.Fprintf(env.Stderr, "%s: failed to parse argument: '%s'\n", env.Name(), args[1])
				return 1
			}
			args = args[2:]
			continue
		default:
			s, ok := parseSignal(a[1:])
			if !ok {
				fmt.Fprintf(env.Stderr, "%s: invalid argument %s\n", env.Name(), a[1:2])
				return usage()
			}
			sig = s
			args = args[1:]
		}
	}
pids:
	if len(args) == 0 {
		return usage()
	}
	status := 0
	for _, a := range args {
		pid, err := strconv.Atoi(a)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: failed to parse argument: '%s'\n", env.Name(), a)
			status = 1
			continue
		}
		if err := proc.Signal(pid, sig); err != nil {
			fmt.Fprintf(env.Stderr, "%s: (%d): %s\n", env.Name(), pid, signalError(err))
			status = 1
		}
	}
	return status
}

// signalError words err as kill(2)'s errno text.
func signalError(err error) string {
	var en syscall.Errno
	if errors.As(err, &en) && en == syscall.ESRCH {
		return "No such process"
	}
	return tool.Strerror(err)
}

func killList(env *tool.Env, names []string) int {
	w := env.Out()
	if len(names) == 0 {
		line := ""
		for i := 1; i < len(signalNames); i++ {
			if i == 17 {
				w.WriteString(strings.TrimSuffix(line, " ") + "\n")
				line = ""
			}
			line += signalNames[i] + " "
		}
		w.WriteString(strings.TrimSuffix(line, " ") + "\n")
		return 0
	}
	for _, n := range names {
		if v, err := strconv.Atoi(n); err == nil {
			if v > 0 && v < len(signalNames) {
				w.WriteString(signalNames[v] + "\n")
				continue
			}
		} else if s, ok := parseSignal(n); ok {
			w.WriteString(strconv.Itoa(int(s)) + "\n")
			continue
		}
		// procps reports an unknown name but still exits 0.
		fmt.Fprintf(env.Stderr, "%s: unknown signal name %s\n", env.Name(), n)
		return 0
	}
	return 0
}

func killTable(env *tool.Env) {
	w := env.Out()
	for i := 1; i < len(signalNames); i++ {
		// procps pads every entry but the seventh of a row.
		if i%7 == 0 {
			fmt.Fprintf(w, "%2d %s\n", i, signalNames[i])
			continue
		}
		fmt.Fprintf(w, "%2d %-8s", i, signalNames[i])
		if i == len(signalNames)-1 {
			w.WriteString("\n")
		}
	}
}
