package tool

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
)

// ListEnv is the environment variable that makes a module print its
// command names instead of running one; the build sets it to write the
// tools manifest. (An argument like --list would clash with commands named
// like their module: `sed --list` must stay sed's own error.)
const ListEnv = "WASMSAND_LIST_COMMANDS"

// Multicall is the main function of a multi-call module: it runs the
// command named by the base name of argv[0] (".wasm" stripped), or, when
// the module is run by its own name, by the first argument ("coreutils ls
// -l"). It returns the exit status.
func Multicall(module string, commands map[string]MainFunc) int {
	if os.Getenv(ListEnv) != "" {
		w := bufio.NewWriter(os.Stdout)
		for _, n := range Names(commands) {
			fmt.Fprintln(w, n)
		}
		if w.Flush() != nil {
			return 1
		}
		return 0
	}
	args := os.Args
	name := ""
	if len(args) > 0 {
		name = strings.TrimSuffix(path.Base(args[0]), ".wasm")
	}
	if _, ok := commands[name]; !ok {
		if len(args) < 2 {
			fmt.Fprintf(os.Stderr, "usage: %s COMMAND [ARG]...\n", module)
			return 2
		}
		args = args[1:]
		name = path.Base(args[0])
	}
	m, ok := commands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "%s: %s: unknown command\n", module, name)
		return 127
	}
	limitMemory()
	env := &Env{Args: args, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
	return Run(m, env)
}

// Names lists the names of commands, sorted.
func Names(commands map[string]MainFunc) []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
