package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/wasmsand/wasmsand/sandbox"
	"mvdan.cc/sh/v3/syntax"
)

// repl reads command lines from in and runs them one complete command at a
// time: input that ends inside quotes, a here-document or a compound command
// is continued on the next line. When interactive, it prints a prompt
// showing the working directory and "> " for continuation lines. It returns
// the status of the last command, or the code given to exit.
func repl(ctx context.Context, sb *sandbox.Sandbox, in io.Reader, interactive bool, stdout, stderr io.Writer) int {
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		br := bufio.NewReader(in)
		for {
			line, err := br.ReadString('\n')
			if line != "" {
				lines <- line
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()

	// Ctrl-C cancels the running command, or abandons the line being typed.
	sig := make(chan os.Signal, 1)
	if interactive {
		signal.Notify(sig, os.Interrupt)
		defer signal.Stop(sig)
	}

	r := &replRunner{sb: sb, stdout: stdout, stderr: stderr, sig: sig}
	if interactive {
		// An interactive bash expands aliases; bash -c and scripts do not.
		sb.Run(context.Background(), "shopt -s expand_aliases")
	}
	var buf strings.Builder
	for {
		if interactive {
			if buf.Len() == 0 {
				io.WriteString(stderr, prompt(sb))
			} else {
				io.WriteString(stderr, "> ")
			}
		}
		var line string
		select {
		case line = <-lines:
		case err := <-readErr:
			if err != io.EOF {
				fmt.Fprintf(stderr, "wasmsand: reading input: %v\n", err)
			}
			if buf.Len() > 0 {
				// End of input inside an unfinished command: run it so
				// the shell reports the syntax error.
				r.run(ctx, buf.String())
			}
			if interactive {
				io.WriteString(stderr, "\n")
			}
			return r.status
		case <-sig:
			io.WriteString(stderr, "\n")
			buf.Reset()
			r.status = exitSignal
			continue
		}
		buf.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			buf.WriteByte('\n')
		}
		text := buf.String()
		if incomplete(text) {
			continue
		}
		buf.Reset()
		if strings.TrimSpace(text) == "" {
			continue
		}
		if exited := r.run(ctx, text); exited {
			return r.status
		}
	}
}

// replRunner runs REPL lines and keeps the status of the last one.
type replRunner struct {
	sb             *sandbox.Sandbox
	stdout, stderr io.Writer
	sig            chan os.Signal
	status         int
}

// run runs one complete command line and reports whether the shell exited.
func (r *replRunner) run(ctx context.Context, text string) (exited bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	interrupted := make(chan struct{})
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-r.sig:
			close(interrupted)
			cancel()
		case <-done:
		}
	}()

	res, err := r.sb.Run(ctx, text, sandbox.WithStdout(r.stdout), sandbox.WithStderr(r.stderr))
	select {
	case <-interrupted:
		io.WriteString(r.stderr, "\n")
		r.status = exitSignal
		return false
	default:
	}
	if err != nil {
		fmt.Fprintf(r.stderr, "wasmsand: %v\n", err)
		r.status = exitSetup
		return true
	}
	reportTruncation(res, r.stderr)
	r.status = res.ExitCode
	return res.Exited
}

// prompt is a bash-like prompt: user@wasmsand:~/dir$
func prompt(sb *sandbox.Sandbox) string {
	user := sb.GetEnv("USER")
	if user == "" {
		user = "user"
	}
	dir := sb.GetEnv("PWD")
	if home := sb.GetEnv("HOME"); home != "" && home != "/" {
		if dir == home {
			dir = "~"
		} else if rest, ok := strings.CutPrefix(dir, home+"/"); ok {
			dir = "~/" + rest
		}
	}
	sign := "$"
	if user == "root" {
		sign = "#"
	}
	return user + "@wasmsand:" + dir + sign + " "
}

// parseErr parses text as bash.
func parseErr(text string) error {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	return err
}

// incomplete reports whether text ends inside an unfinished command that
// more input could complete: an open quote, here-document, if, loop, a
// trailing backslash or pipe.
func incomplete(text string) bool {
	err := parseErr(text)
	if err == nil {
		// The parser takes a backslash before the end of input as a
		// literal; a shell reading lines takes it as a continuation.
		body := strings.TrimSuffix(text, "\n")
		n := len(body) - len(strings.TrimRight(body, "\\"))
		return n%2 == 1
	}
	return syntax.IsIncomplete(err)
}
