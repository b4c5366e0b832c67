// Package envsubst implements GNU gettext's envsubst: copy standard input
// to standard output with $VARIABLE and ${VARIABLE} references replaced by
// the values of environment variables.
package envsubst

import (
	"bufio"
	"fmt"
	"io"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: envsubst [OPTION] [SHELL-FORMAT]

Substitutes the values of environment variables.

Operation mode:
  -v, --variables             output the variables occurring in SHELL-FORMAT

Informative output:
  -h, --help                  display this help and exit
  -V, --version               output version information and exit

In normal operation mode, standard input is copied to standard output,
with references to environment variables of the form $VARIABLE or ${VARIABLE}
being replaced with the corresponding values.  If a SHELL-FORMAT is given,
only those environment variables that are referenced in SHELL-FORMAT are
substituted; otherwise all environment variables references occurring in
standard input are substituted.

When --variables is used, standard input is ignored, and the output consists
of the environment variables that are referenced in SHELL-FORMAT, one per line.
`

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isName(c byte) bool      { return isNameStart(c) || c >= '0' && c <= '9' }

// reference finds a variable reference at s[i] ("$NAME" or "${NAME}") and
// returns the name and the reference's length, or 0.
func reference(s []byte, i int) (string, int) {
	if s[i] != '$' || i+1 >= len(s) {
		return "", 0
	}
	j := i + 1
	braced := s[j] == '{'
	if braced {
		j++
	}
	if j >= len(s) || !isNameStart(s[j]) {
		return "", 0
	}
	k := j
	for k < len(s) && isName(s[k]) {
		k++
	}
	if braced {
		if k >= len(s) || s[k] != '}' {
			return "", 0
		}
		return string(s[j:k]), k + 1 - i
	}
	return string(s[j:k]), k - i
}

// variables lists the names referenced in format, in order.
func variables(format string) []string {
	var names []string
	b := []byte(format)
	for i := 0; i < len(b); i++ {
		if name, n := reference(b, i); n > 0 {
			names = append(names, name)
			i += n - 1
		}
	}
	return names
}

// Main is the envsubst command.
func Main(env *tool.Env) int {
	listVars := false
	var operands []string
	args := env.Args[1:]
	for i, a := range args {
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
		case a == "-v" || a == "--variables" || a == "--variable" || a == "--var":
			listVars = true
			continue
		case a == "-h" || a == "--help":
			fmt.Fprint(env.Out(), help)
			return 0
		case a == "-V" || a == "--version":
			fmt.Fprintf(env.Out(), "envsubst (GNU gettext-runtime) 0.21 (wasmsand %s)\n", tool.Version)
			return 0
		case len(a) > 1 && a[0] == '-':
			if a[1] == '-' {
				fmt.Fprintf(env.Stderr, "envsubst: unrecognized option '%s'\n", a)
			} else {
				fmt.Fprintf(env.Stderr, "envsubst: invalid option -- '%c'\n", a[1])
			}
			fmt.Fprint(env.Stderr, "Try 'envsubst --help' for more information.\n")
			return 1
		default:
			operands = append(operands, a)
			continue
		}
		break
	}
	if len(operands) > 1 {
		fmt.Fprint(env.Stderr, "envsubst: too many arguments\n")
		return 1
	}
	if listVars {
		if len(operands) == 0 {
			fmt.Fprint(env.Stderr, "envsubst: missing arguments\n")
			return 1
		}
		for _, n := range variables(operands[0]) {
			fmt.Fprintln(env.Out(), n)
		}
		return 0
	}
	var only map[string]bool
	if len(operands) == 1 {
		only = map[string]bool{}
		for _, n := range variables(operands[0]) {
			only[n] = true
		}
	}
	in, err := io.ReadAll(bufio.NewReader(env.Stdin))
	if err != nil {
		fmt.Fprintf(env.Stderr, "envsubst: error while reading \"standard input\": %s\n", tool.Strerror(err))
		return 1
	}
	out := env.Out()
	start := 0
	for i := 0; i < len(in); i++ {
		if in[i] != '$' {
			continue
		}
		name, n := reference(in, i)
		if n == 0 || only != nil && !only[name] {
			continue
		}
		out.Write(in[start:i])
		out.WriteString(env.Env(name))
		i += n - 1
		start = i + 1
	}
	out.Write(in[start:])
	return 0
}
