// Package tool is the small runtime shared by the guest commands: the Env a
// command runs in, GNU-style option parsing, GNU error texts and file-name
// quoting. Commands are plain functions of an *Env so they run the same as a
// WASI guest, natively, and in unit tests with in-memory streams.
package tool

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path"
	"syscall"
)

// Version is printed by every command's --version.
const Version = "0.1.0"

// ExitPipe is the status a command ends with when its output is a closed
// pipe; it is what a shell reports for a process killed by SIGPIPE.
const ExitPipe = 128 + 13

// MainFunc is the entry point of one command. It returns the exit status.
type MainFunc func(env *Env) int

// Env is everything a command may touch besides the file system, which
// commands reach through package os (WASI under GOOS=wasip1).
type Env struct {
	// Args are the command-line arguments; Args[0] names the command.
	Args []string
	// Stdin, Stdout and Stderr are the standard streams. Run buffers
	// Stdout; commands should write through Out.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads an environment variable; nil means an empty environment.
	Getenv func(key string) string

	out         *bufio.Writer
	writeFailed bool // a write error was already reported
}

// Name is the command's name: the base name of Args[0].
func (e *Env) Name() string {
	if len(e.Args) == 0 {
		return "?"
	}
	return path.Base(e.Args[0])
}

// Env returns the value of an environment variable, or "".
func (e *Env) Env(key string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(key)
}

// Out is the buffered standard output. Run flushes it when the command
// returns; a command that waits for input between writes should Flush it.
func (e *Env) Out() *bufio.Writer {
	if e.out == nil {
		if bw, ok := e.Stdout.(*bufio.Writer); ok && bw.Size() >= 32<<10 {
			e.out = bw
		} else {
			e.out = bufio.NewWriterSize(e.Stdout, 64<<10)
		}
	}
	return e.out
}

// Errorf writes "name: message" and a newline to standard error.
func (e *Env) Errorf(format string, a ...any) {
	e.flushQuietly()
	fmt.Fprintf(e.Stderr, "%s: %s\n", e.Name(), fmt.Sprintf(format, a...))
}

// flushQuietly flushes standard output before a message on standard error
// so the two streams keep their relative order when they share a sink.
func (e *Env) flushQuietly() {
	if e.out != nil {
		e.out.Flush()
	}
}

// Usage reports a command-line mistake GNU-style: the message (if any), then
// "Try 'name --help' for more information.", and returns code.
func (e *Env) Usage(code int, format string, a ...any) int {
	if format != "" {
		e.Errorf(format, a...)
	}
	fmt.Fprintf(e.Stderr, "Try '%s --help' for more information.\n", e.Name())
	return code
}

// WriteFailed reports a failed write to standard output and returns the
// status to exit with: ExitPipe silently for a closed pipe (as if killed by
// SIGPIPE), otherwise 1 after "name: write error: ...".
func (e *Env) WriteFailed(err error) int {
	if errors.Is(err, syscall.EPIPE) {
		return ExitPipe
	}
	if e.writeFailed {
		return 1
	}
	e.writeFailed = true
	fmt.Fprintf(e.Stderr, "%s: write error: %s\n", e.Name(), Strerror(err))
	return 1
}

// Run runs main in env, flushes buffered output and returns the exit status.
// A failed final flush turns a zero status into a write error.
func Run(main MainFunc, env *Env) int {
	code := main(env)
	if env.out != nil {
		if err := env.out.Flush(); err != nil {
			if c := env.WriteFailed(err); code == 0 || c == ExitPipe {
				code = c
			}
		}
	}
	return code
}

// Help prints a command's help text to standard output and returns 0.
func (e *Env) Help(text string) int {
	w := e.Out()
	w.WriteString(text)
	if len(text) > 0 && text[len(text)-1] != '\n' {
		w.WriteByte('\n')
	}
	// Flush now: a command may answer through a copy of its Env whose
	// buffer Run never sees.
	w.Flush()
	return 0
}
