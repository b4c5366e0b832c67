package sandbox

import (
	"context"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// The interpreter's `type` and `command -v` look commands up on the host
// (os.Stat over $PATH). The call handler reroutes them to lookupCommand,
// which answers from the VFS.
const lookupCommand = "__wasmsand_lookup"

// rewriteLookup turns `type [-t|-p|-P] NAME...` and `command -v|-V NAME...`
// into a call of lookupCommand; other calls are returned unchanged.
func rewriteLookup(args []string) []string {
	if len(args) < 2 {
		return args
	}
	mode := ""
	rest := args[1:]
	switch args[0] {
	case "type":
		mode = "type"
		if f := rest[0]; f == "-t" || f == "-p" || f == "-P" {
			mode, rest = "type"+f, rest[1:]
		}
	case "command":
		if f := rest[0]; f == "-v" || f == "-V" {
			mode, rest = "command"+f, rest[1:]
		}
	}
	if mode == "" || len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
		return args
	}
	return append([]string{lookupCommand, mode}, rest...)
}

// lookup implements lookupCommand for the modes rewriteLookup produces.
func (s *Sandbox) lookup(ctx context.Context, args []string) error {
	hc := interp.HandlerCtx(ctx)
	mode, names := args[1], args[2:]
	status := uint8(0)
	for _, name := range names {
		kind, where := s.classify(hc, name)
		switch mode {
		case "type-t":
			if kind != "" {
				fmt.Fprintln(hc.Stdout, kind)
				continue
			}
		case "type-p", "type-P":
			if kind == "file" {
				fmt.Fprintln(hc.Stdout, where)
				continue
			}
			if kind != "" && mode == "type-p" {
				continue
			}
		case "command-v":
			if kind == "file" {
				fmt.Fprintln(hc.Stdout, where)
				continue
			}
			if kind != "" {
				fmt.Fprintln(hc.Stdout, name)
				continue
			}
		case "type", "command-V":
			switch kind {
			case "keyword":
				fmt.Fprintf(hc.Stdout, "%s is a shell keyword\n", name)
				continue
			case "function":
				fmt.Fprintf(hc.Stdout, "%s is a function\n", name)
				continue
			case "builtin":
				fmt.Fprintf(hc.Stdout, "%s is a shell builtin\n", name)
				continue
			case "file":
				fmt.Fprintf(hc.Stdout, "%s is %s\n", name, where)
				continue
			}
			if mode == "type" {
				fmt.Fprintf(hc.Stderr, "bash: type: %s: not found\n", name)
			} else {
				fmt.Fprintf(hc.Stderr, "bash: command: %s: not found\n", name)
			}
		}
		status = 1
	}
	if status != 0 {
		return interp.ExitStatus(status)
	}
	return nil
}

// classify says what NAME is to the shell: keyword, function, builtin or
// file (with its path); "" if nothing.
func (s *Sandbox) classify(hc interp.HandlerContext, name string) (kind, where string) {
	switch {
	case syntax.IsKeyword(name):
		return "keyword", ""
	case s.isFunction(name):
		return "function", ""
	case interp.IsBuiltin(name):
		return "builtin", ""
	}
	if p, err := s.lookPath(hc.Env, hc.Dir, name); err == nil {
		return "file", p
	}
	return "", ""
}

// isFunction reports whether the top-level shell defines name. Functions
// defined only inside a subshell are not seen.
func (s *Sandbox) isFunction(name string) bool {
	s.funcsMu.Lock()
	defer s.funcsMu.Unlock()
	return s.funcs[name]
}

// noteFuncs records the functions a Run may call: those the shell already
// has and those the program declares. Reading the runner's own map while
// it runs would race with subshells.
func (s *Sandbox) noteFuncs(r *interp.Runner, f *syntax.File) {
	names := make(map[string]bool, len(r.Funcs))
	for name := range r.Funcs {
		names[name] = true
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok {
			names[fd.Name.Value] = true
		}
		return true
	})
	s.funcsMu.Lock()
	s.funcs = names
	s.funcsMu.Unlock()
}
