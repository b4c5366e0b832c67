package tool

import (
	"bytes"
	"io"
	"os"
	"strings"
)

// Open opens an input operand: "-" is standard input (closing it does
// nothing), anything else a file.
func (e *Env) Open(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(e.Stdin), nil
	}
	return os.Open(name)
}

// Exec runs main with the given arguments (args[0] names the command) and
// standard input, and returns what it wrote and its status. It is meant for
// tests.
func Exec(main MainFunc, stdin string, args ...string) (stdout, stderr string, code int) {
	var out, errOut bytes.Buffer
	env := &Env{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut}
	code = Run(main, env)
	return out.String(), errOut.String(), code
}
