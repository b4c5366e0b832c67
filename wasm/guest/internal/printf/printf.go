// Package printf is the printf program (/usr/bin/printf), for callers that
// run it as a command — xargs printf, find -exec printf. It formats with
// the same code as the shell's printf builtin (sandbox/bashprintf), so the
// two never disagree; its diagnostics are therefore bash's.
package printf

import (
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/bashprintf"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Main runs printf FORMAT [ARGUMENT]...
func Main(env *tool.Env) int {
	args := env.Args[1:]
	if len(args) == 1 {
		switch args[0] {
		case "--help":
			env.Out().WriteString("Usage: printf FORMAT [ARGUMENT]...\n  or:  printf OPTION\nPrint ARGUMENT(s) according to FORMAT.\n\n      --help        display this help and exit\n      --version     output version information and exit\n")
			return 0
		case "--version":
			return env.PrintVersion()
		}
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		env.Errorf("missing operand")
		env.Stderr.Write([]byte("Try 'printf --help' for more information.\n"))
		return 1
	}
	loc := time.UTC
	if tz := env.Getenv("TZ"); tz != "" {
		if l, err := time.LoadLocation(tz); err == nil {
			loc = l
		}
	}
	lang := env.Getenv("LC_ALL")
	if lang == "" {
		lang = env.Getenv("LANG")
	}
	opts := bashprintf.Options{Now: time.Now, Start: time.Now(), Location: loc, UTF8: strings.Contains(strings.ToLower(lang), "utf")}
	out, errs, status := opts.Format(args[0], args[1:])
	env.Out().WriteString(out)
	for _, e := range errs {
		env.Stderr.Write([]byte(e + "\n"))
	}
	return status
}
