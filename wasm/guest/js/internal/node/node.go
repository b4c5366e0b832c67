// Package node is a Node.js-like command line over goja
// (github.com/dop251/goja): `node -e CODE`, `node -p EXPR`, `node
// script.js ARGS`, scripts on standard input, with console, process,
// timers, CommonJS require and the fs, path, child_process, util, events,
// os, assert and readline modules working on the sandbox's filesystem and
// shell. Under GOOS=wasip1 it is the sandbox's `node` and `js` commands;
// natively it runs on the build machine for tests.
//
// It also answers the sandbox's runCode requests (see runcode.go): one
// snippet, its console captured, its value sanitized to JSON.
package node

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Version is what process.version and `node --version` report: the Node
// release whose behaviour this runtime follows, marked as wasmsand's.
const Version = "v26.0.0"

// execPath is process.execPath and argv[0].
const execPath = "/usr/bin/node"

const usage = `Usage: node [options] [ script.js | -e "script" | - ] [arguments]

  -e, --eval SCRIPT   evaluate SCRIPT
  -p, --print EXPR    evaluate EXPR and print its value
  -                   read the script from standard input (also without any
                      script when standard input is not a terminal)
  -v, --version       print the Node.js version this follows
  -h, --help          print this help

This node is goja (an ECMAScript 2020+ engine in Go) with a Node-like
runtime: console, process, timers, require('fs' | 'path' | 'child_process'
| 'util' | 'events' | 'os' | 'assert' | 'readline'), Buffer. ES module
import, http and the network are not available.
`

// exitPanic ends the script: process.exit panics with it.
type exitPanic struct{ code int }

// Main runs the node command.
func Main(env *tool.Env) int {
	args := env.Args[1:]
	var (
		eval, print bool
		code        string
		script      string
		fromStdin   bool
		rest        []string
	)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "-pe":
			if a == "-p" || a == "--print" || a == "-pe" {
				print = true
			}
			eval = true
			if i+1 >= len(args) {
				fmt.Fprintf(env.Stderr, "%s: %s requires an argument\n", execName(env), a)
				return 9
			}
			i++
			code = args[i]
		case strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print="):
			k, v, _ := strings.Cut(a, "=")
			eval, print, code = true, k == "--print", v
		case a == "-v" || a == "--version":
			fmt.Fprintln(env.Stdout, Version)
			return 0
		case a == "-h" || a == "--help":
			io.WriteString(env.Stdout, usage)
			return 0
		case a == runCodeFlag:
			return runCodeMain(env, args[i+1:])
		case a == "-":
			fromStdin = true
			rest = args[i+1:]
			i = len(args)
		case a == "--":
			if !eval && i+1 < len(args) {
				script = args[i+1]
				rest = args[i+2:]
			} else {
				rest = args[i+1:]
			}
			i = len(args)
		case a == "-i" || a == "--interactive":
			fmt.Fprintf(env.Stderr, "%s: the interactive REPL is not available in the sandbox; pass a script, -e or -p\n", execName(env))
			return 9
		case isIgnoredFlag(a):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			fmt.Fprintf(env.Stderr, "%s: bad option: %s\n", execName(env), a)
			return 9
		default:
			if eval {
				rest = args[i:]
			} else {
				script = a
				rest = args[i+1:]
			}
			i = len(args)
		}
	}
	out := bufio.NewWriterSize(env.Stdout, 32<<10)
	rt := newRuntime(env, out, nil)
	defer out.Flush()
	var argv []string
	switch {
	case eval:
		argv = append([]string{execPath}, rest...)
		return rt.main(argv, func() (goja.Value, error) {
			return rt.runEval(code, print)
		})
	case script != "":
		abs := absPath(script)
		argv = append([]string{execPath, abs}, rest...)
		return rt.main(argv, func() (goja.Value, error) {
			src, err := os.ReadFile(abs)
			if err != nil {
				return nil, &scriptError{fmt.Sprintf("Error: Cannot find module '%s'\n    code: 'MODULE_NOT_FOUND'", abs)}
			}
			_, err = rt.loadModuleSource(abs, string(src), true)
			return nil, err
		})
	default:
		_ = fromStdin
		argv = append([]string{execPath}, rest...)
		return rt.main(argv, func() (goja.Value, error) {
			src, err := io.ReadAll(env.Stdin)
			if err != nil {
				return nil, &scriptError{"Error: reading the script from standard input: " + err.Error()}
			}
			rt.stdinUsed = true
			cwd, _ := os.Getwd()
			_, err = rt.loadModuleSource(filepath.Join(cwd, "[stdin]"), string(src), true)
			return nil, err
		})
	}
}

// isIgnoredFlag lists Node options that make no difference here.
func isIgnoredFlag(a string) bool {
	for _, p := range []string{"--no-warnings", "--experimental-", "--max-old-space-size", "--stack-size", "--enable-source-maps", "--no-deprecation", "--trace-uncaught", "--unhandled-rejections"} {
		if strings.HasPrefix(a, p) {
			return true
		}
	}
	return false
}

func execName(env *tool.Env) string { return env.Name() }

// scriptError is an error already worded for standard error.
type scriptError struct{ msg string }

func (e *scriptError) Error() string { return e.msg }

// absPath makes p absolute against the working directory.
func absPath(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	cwd, err := os.Getwd()
	if err != nil {
		cwd = "/"
	}
	return filepath.Join(cwd, p)
}

// main runs start, then the event loop, and returns the exit status.
func (rt *runtime) main(argv []string, start func() (goja.Value, error)) (code int) {
	rt.argv = argv
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(exitPanic); ok {
				code = e.code
				rt.flush()
				return
			}
			panic(r)
		}
	}()
	rt.setup()
	if _, err := start(); err != nil {
		return rt.uncaught(err)
	}
	if err := rt.loop(); err != nil {
		return rt.uncaught(err)
	}
	rt.emitExit()
	rt.flush()
	return rt.exitCode()
}

// runEval runs -e/-p code as a script in the global scope.
func (rt *runtime) runEval(code string, print bool) (goja.Value, error) {
	code = stripShebang(code)
	module := rt.vm.NewObject()
	exports := rt.vm.NewObject()
	module.Set("exports", exports)
	module.Set("id", "[eval]")
	module.Set("filename", mustGetwd()+"/[eval]")
	module.Set("loaded", false)
	g := rt.vm.GlobalObject()
	g.Set("module", module)
	g.Set("exports", exports)
	g.Set("__filename", "[eval]")
	g.Set("__dirname", ".")
	prg, err := goja.Compile("[eval]", code, false)
	if err != nil {
		return nil, rt.syntaxError(err, code)
	}
	v, err := rt.vm.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	if print {
		rt.writeOut(rt.formatArgs([]goja.Value{v}) + "\n")
	}
	return v, nil
}

// stripShebang blanks a leading #! line, keeping line numbers.
func stripShebang(src string) string {
	if strings.HasPrefix(src, "#!") {
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			return "//" + src[2:i] + src[i:]
		}
		return ""
	}
	return src
}

var esmSyntax = regexp.MustCompile(`(?m)^\s*(import\s*[\w{*'"]|export\s+(default|const|let|var|function|class|async|\{|\*))`)

// syntaxError words a compile error, naming ES modules when the code uses
// import or export.
func (rt *runtime) syntaxError(err error, src string) error {
	if esmSyntax.MatchString(src) {
		return &scriptError{"SyntaxError: Cannot use import statement outside a module\n" +
			"    ES module syntax (import/export) is not supported by wasmsand's node (goja); use require() and module.exports"}
	}
	var perr *parser.ErrorList
	if errors.As(err, &perr) || true {
		msg := err.Error()
		var ce *goja.CompilerSyntaxError
		if errors.As(err, &ce) {
			msg = ce.Error()
		}
		return &scriptError{"SyntaxError: " + strings.TrimPrefix(msg, "SyntaxError: ")}
	}
	return err
}

// uncaught reports an uncaught exception as Node does and returns 1 (or
// the status process.exit asked for inside an 'exit' handler).
func (rt *runtime) uncaught(err error) int {
	rt.flush()
	var ip *goja.InterruptedError
	if errors.As(err, &ip) {
		if e, ok := ip.Value().(exitPanic); ok {
			return e.code
		}
	}
	var se *scriptError
	if errors.As(err, &se) {
		fmt.Fprintf(rt.stderr, "%s\n\nNode.js %s\n", se.msg, Version)
		return 1
	}
	var val goja.Value
	var ex *goja.Exception
	var th *thrown
	if errors.As(err, &ex) {
		val = ex.Value()
	} else if errors.As(err, &th) {
		val = th.v
	}
	if val != nil {
		if rt.emitUncaught(val) {
			if err := rt.loop(); err != nil {
				return rt.uncaught(err)
			}
			rt.emitExit()
			rt.flush()
			return rt.exitCode()
		}
		fmt.Fprintf(rt.stderr, "%s\n\nNode.js %s\n", rt.describeThrown(val), Version)
		rt.exitCodeSet(1)
		rt.emitExit()
		rt.flush()
		return 1
	}
	fmt.Fprintf(rt.stderr, "%s: %v\n", "node", err)
	return 1
}

// describeThrown is how an uncaught value is shown: an Error's stack, or
// "Uncaught VALUE".
func (rt *runtime) describeThrown(v goja.Value) string {
	if o, ok := v.(*goja.Object); ok && rt.isError(o) {
		stack := o.Get("stack")
		if stack != nil && !goja.IsUndefined(stack) {
			s := strings.TrimRight(strings.ReplaceAll(stack.String(), "\tat ", "    at "), "\n ")
			return s + rt.errorExtras(o)
		}
		return rt.inspect(v, inspectOpts{depth: 2})
	}
	return "Uncaught " + rt.inspect(v, inspectOpts{depth: 2})
}

// errorExtras shows an error's own enumerable properties after its stack,
// as Node does ({ code: 'ENOENT', ... }).
func (rt *runtime) errorExtras(o *goja.Object) string {
	var parts []string
	for _, k := range o.Keys() {
		if k == "stack" || k == "message" {
			continue
		}
		parts = append(parts, "  "+formatKey(k)+": "+rt.inspect(o.Get(k), inspectOpts{depth: 2}))
	}
	if len(parts) == 0 {
		return ""
	}
	return " {\n" + strings.Join(parts, ",\n") + "\n}"
}
