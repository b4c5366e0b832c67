// Command wasmsand runs bash commands inside a wasmsand sandbox: a shell
// whose commands are WebAssembly tools working on an in-memory filesystem,
// with hard limits on time, memory, disk and processes. Nothing it runs can
// touch the host's files, network or environment.
//
// Usage:
//
//	wasmsand [flags] -c 'command' [args...]
//	wasmsand [flags] script.sh [args...]
//	wasmsand [flags]                        (interactive shell)
//	wasmsand serve [--addr HOST:PORT] [--dir DIR]  (serve the browser demo)
//	wasmsand mcp [--http HOST:PORT] [flags]        (MCP server for AI agents)
//
// Run "wasmsand --help" for the flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/platform/native" // the sandboxes run natively, on wazero
	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
	"mvdan.cc/sh/v3/syntax"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// otherwise it comes from the module's build information.
var version = ""

// Exit codes of the CLI itself; a command's own exit code is passed through.
const (
	exitSetup    = 1   // the sandbox could not be created
	exitUsage    = 2   // bad flags or arguments
	exitNoScript = 127 // the script file does not exist, as in bash
	exitSignal   = 130 // interrupted by Ctrl-C
)

const usageText = `wasmsand runs bash commands in a WebAssembly sandbox.

The shell and every command (cat, ls, grep, sort, ...) run as WebAssembly over
an in-memory filesystem. Nothing inside can read or change the host's files,
network or environment, and every command runs under hard limits.

Usage:
  wasmsand [flags] -c 'COMMAND' [ARGS...]   run one command line; ARGS become $1, $2, ...
                                            (put -- before ARGS that start with -)
  wasmsand [flags] SCRIPT [ARGS...]         run a script file read from the host
  wasmsand [flags]                          interactive shell (type 'exit' to leave);
                                            with piped input, runs the lines without prompts
  wasmsand serve [--addr A] [--dir DIR]     serve the browser demo over HTTP
                                            (a script named serve runs as ./serve)
  wasmsand mcp [--http A] [flags]           serve sandboxes to AI agents over MCP
                                            (stdio, or streamable HTTP); see
                                            'wasmsand mcp --help'

The exit status is the command's: 124 means it ran past --timeout.

Examples:
  wasmsand -c 'seq 100 | grep 7 | wc -l'
  wasmsand --timeout 5s --fs-limit 10M build.sh release
  echo 'echo hello > f; cat f' | wasmsand

Flags:
  -c COMMAND           run COMMAND instead of a script or the interactive shell
  --timeout DURATION   time limit for each command line, e.g. 2s, 500ms, 1m
                       (default 30s); a command past it exits with status 124
  --fs-limit BYTES     bytes of file data the in-memory filesystem may hold (default 256M)
  --max-inodes N       files, directories and links the filesystem may hold
  --memory-limit BYTES linear memory per WebAssembly process (default 256M)
  --max-processes N    processes alive at once, including pipeline stages (default 64)
  --fuel N             instruction budget per command line (default: unlimited)
  --output-limit BYTES captured output per stream per command line (default 16M)
  --seed N             seed for $RANDOM and /dev/urandom, for reproducible runs
  --clock TIME         freeze the sandbox clock at TIME (RFC 3339, e.g.
                       2024-01-02T15:04:05Z); timeouts still use real time
  --cwd DIR            starting directory inside the sandbox (default /home/user)
  --env KEY=VALUE      set an environment variable; repeat for more
  --mount HOST:PATH[:ro]
                       show the host directory HOST at PATH in the sandbox, e.g.
                       --mount ./data:/mnt/data:ro; repeat for more. Paths in it
                       never lead outside HOST; :ro refuses every change
  --allow-net RULE     let curl and wget reach URLs under RULE; repeat for more.
                       RULE is [METHODS ]PREFIX: https://api.example.com/v1/,
                       'GET,POST http://127.0.0.1:8080/', *.example.com.
                       Without it there is no network; private addresses
                       (127/8, 10/8, 192.168/16, ...) need a rule naming them
  --net-header 'PREFIX=Name: value'
                       the host adds this header to allowed requests under
                       PREFIX; commands in the sandbox never see it
  --tools DIR          directory of tool modules (*.wasm and manifest.json);
                       default: the "tools" directory beside the wasmsand binary,
                       else $WASMSAND_TOOLS_DIR, else the tools built from
                       wasmsand's sources into the user cache (once, minutes)
  --cache-dir DIR      where compiled tools are cached between runs
                       (default: the user cache directory + /wasmsand; "" disables)
  --state DIR          keep the sandbox (files, variables, functions, directory)
                       in DIR across calls: resumed at start, saved after the run
  --state-name NAME    which sandbox in --state DIR (default "default")
  --version            print the version and exit
  -h, --help           print this help and exit

BYTES take an optional suffix: K, M, G (or KiB, MiB, GiB), all powers of 1024.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// config is what the command line asked for.
type config struct {
	opts    sandbox.Options
	command string // -c
	hasCmd  bool
	args    []string // script path and/or positional parameters
}

// run is the whole program; it returns the process exit code.
func run(argv []string, stdin *os.File, stdout, stderr io.Writer) int {
	if len(argv) > 0 && argv[0] == "serve" {
		return serve(context.Background(), argv[1:], stdout, stderr)
	}
	if len(argv) > 0 && argv[0] == "mcp" {
		return mcpMain(context.Background(), argv[1:], stdin, stdout, stderr)
	}
	cfg, code, err := parseArgs(argv, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand: %v\nRun 'wasmsand --help' for usage.\n", err)
		return code
	}
	if cfg == nil { // --help or --version was handled
		return 0
	}

	var script []byte
	var params []string
	switch {
	case cfg.hasCmd:
		params = cfg.args
	case len(cfg.args) > 0:
		script, err = os.ReadFile(cfg.args[0])
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand: cannot read script: %v\n", err)
			if errors.Is(err, os.ErrNotExist) {
				return exitNoScript
			}
			return exitSetup
		}
		params = cfg.args[1:]
	}

	if err := checkTools(cfg.opts.ToolsDir); err != nil {
		fmt.Fprintf(stderr, "wasmsand: %v\n", err)
		return exitSetup
	}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	sb, err := sandbox.New(ctx, cfg.opts)
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand: cannot start the sandbox: %v\n", err)
		return exitSetup
	}
	defer sb.Close()

	if !cfg.hasCmd && len(cfg.args) == 0 {
		return repl(ctx, sb, stdin, isTerminal(stdin), stdout, stderr)
	}

	if cfg.hasCmd {
		text, err := withParams(cfg.command, params)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand: %v\n", err)
			return exitUsage
		}
		return runOnce(ctx, sb, text, stdin, stdout, stderr)
	}
	return runOnce(ctx, sb, string(script), stdin, stdout, stderr, sandbox.AsScript(cfg.args[0], params...))
}

// runOnce runs text with the host's standard streams; Ctrl-C cancels it.
func runOnce(ctx context.Context, sb *sandbox.Sandbox, text string, stdin io.Reader, stdout, stderr io.Writer, opts ...sandbox.RunOption) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	interrupted := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	go func() {
		select {
		case <-sig:
			close(interrupted)
			cancel()
		case <-ctx.Done():
		}
	}()

	opts = append(opts, sandbox.WithStdin(stdin), sandbox.WithStdout(stdout), sandbox.WithStderr(stderr))
	res, err := sb.Run(ctx, text, opts...)
	select {
	case <-interrupted:
		return exitSignal
	default:
	}
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand: %v\n", err)
		return exitSetup
	}
	reportTruncation(res, stderr)
	return res.ExitCode
}

// reportTruncation tells the user when --output-limit cut output short.
func reportTruncation(res *sandbox.RunResult, stderr io.Writer) {
	if res.StdoutTruncated || res.StderrTruncated {
		fmt.Fprintln(stderr, "wasmsand: output was truncated at the output limit (raise it with --output-limit)")
	}
}

// withParams prefixes script text with "set -- ARGS" so that ARGS become
// its positional parameters. The prefix shares the first line, so line
// numbers in error messages still match the script file.
func withParams(text string, params []string) (string, error) {
	if len(params) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.WriteString("set --")
	for _, p := range params {
		q, err := syntax.Quote(p, syntax.LangBash)
		if err != nil {
			return "", fmt.Errorf("argument %q cannot be passed to the shell: %v", p, err)
		}
		b.WriteByte(' ')
		b.WriteString(q)
	}
	b.WriteString("; ")
	b.WriteString(text)
	return b.String(), nil
}

// parseArgs parses the command line. It returns a nil config and a nil
// error when --help or --version was printed.
func parseArgs(argv []string, stdout io.Writer) (*config, int, error) {
	cfg := &config{}
	o := &cfg.opts
	fs := flag.NewFlagSet("wasmsand", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}

	fs.Func("c", "", func(s string) error { cfg.command, cfg.hasCmd = s, true; return nil })
	fs.Func("timeout", "", func(s string) (err error) { o.Timeout, err = parseTimeout(s); return })
	fs.Func("fs-limit", "", bytesFlag(&o.FSLimit))
	fs.Func("memory-limit", "", bytesFlag(&o.MemoryLimit))
	fs.Func("output-limit", "", bytesFlag(&o.OutputLimit))
	fs.Func("max-inodes", "", intFlag(&o.MaxInodes))
	fs.Func("max-processes", "", intFlag(&o.MaxProcesses))
	fs.Func("fuel", "", int64Flag(&o.Fuel))
	fs.Func("seed", "", func(s string) error {
		n, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return fmt.Errorf("want an integer, got %q", s)
		}
		o.Seed = n
		return nil
	})
	fs.Func("clock", "", func(s string) error {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return fmt.Errorf("want an RFC 3339 time such as 2024-01-02T15:04:05Z, got %q", s)
		}
		o.Clock = func() time.Time { return t }
		return nil
	})
	fs.StringVar(&o.Cwd, "cwd", "", "")
	fs.Func("env", "", func(s string) error {
		if k, _, ok := strings.Cut(s, "="); !ok || k == "" {
			return fmt.Errorf("want KEY=VALUE, got %q", s)
		}
		o.Env = append(o.Env, s)
		return nil
	})
	fs.Func("mount", "", func(s string) error {
		m, err := parseMount(s)
		if err == nil {
			o.Mounts = append(o.Mounts, m)
		}
		return err
	})
	toolsSet := false
	fs.Func("tools", "", func(s string) error { o.ToolsDir, toolsSet = s, true; return nil })
	cacheSet := false
	fs.Func("cache-dir", "", func(s string) error { o.CacheDir, cacheSet = s, true; return nil })
	fs.Func("allow-net", "", func(s string) error {
		r, err := netpolicy.ParseRule(s)
		o.Network.Rules = append(o.Network.Rules, r)
		return err
	})
	// The flag package would quote a bad value, secret and all, in its
	// error: report a bad --net-header after parsing instead.
	var netHeaderErr error
	fs.Func("net-header", "", func(s string) error {
		h, err := netpolicy.ParseHeaderRule(s)
		o.Network.Headers = append(o.Network.Headers, h)
		if err != nil && netHeaderErr == nil {
			netHeaderErr = fmt.Errorf("--net-header: %w", err)
		}
		return nil
	})
	stateDir := fs.String("state", "", "")
	stateName := fs.String("state-name", "default", "")
	showVersion := fs.Bool("version", false, "")

	if err := fs.Parse(argv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(stdout, usageText)
			return nil, 0, nil
		}
		return nil, exitUsage, err
	}
	if netHeaderErr != nil {
		return nil, exitUsage, netHeaderErr
	}
	if *showVersion {
		fmt.Fprintf(stdout, "wasmsand %s\n", versionString())
		return nil, 0, nil
	}
	cfg.args = fs.Args()
	if *stateDir != "" {
		if err := sandbox.CheckName(*stateName); err != nil {
			return nil, exitUsage, err
		}
		o.Store, o.Persist = native.DirStore(*stateDir), *stateName
	}

	if !toolsSet {
		o.ToolsDir = defaultToolsDir()
	}
	if !cacheSet {
		if dir, err := os.UserCacheDir(); err == nil {
			o.CacheDir = filepath.Join(dir, "wasmsand")
		}
	}
	return cfg, 0, nil
}

func bytesFlag(dst *int64) func(string) error {
	return func(s string) (err error) {
		*dst, err = parseBytes(s)
		return err
	}
}

func int64Flag(dst *int64) func(string) error {
	return func(s string) error {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("want a non-negative integer, got %q", s)
		}
		*dst = n
		return nil
	}
}

func intFlag(dst *int) func(string) error {
	return func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("want a non-negative integer, got %q", s)
		}
		*dst = n
		return nil
	}
}

func versionString() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	v := "devel"
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "+dirty"
		}
	}
	return v + " " + bi.GoVersion
}

// defaultToolsDir is the "tools" directory beside the executable, where
// "make build" puts the tool modules, if there is one; else "": the
// native platform's tools, built from this module's sources into the
// user cache directory on first use (a binary from go install).
func defaultToolsDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	dir := filepath.Join(filepath.Dir(exe), "tools")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// checkTools makes sure dir holds tool modules, so that a missing build
// gives one clear message instead of "command not found" for every tool.
// "" is the platform's tools, checked as they are built.
func checkTools(dir string) error {
	if dir == "" {
		return nil
	}
	hint := "run 'make build' (it puts the tools beside build/wasmsand) or pass --tools DIR"
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("tools directory %s does not exist: %s", dir, hint)
		}
		return fmt.Errorf("cannot read tools directory: %v", err)
	}
	for _, e := range entries {
		if !e.IsDir() && (e.Name() == "manifest.json" || strings.HasSuffix(e.Name(), ".wasm")) {
			return nil
		}
	}
	return fmt.Errorf("no tool modules (*.wasm, manifest.json) in %s: %s", dir, hint)
}

// isTerminal reports whether f is a character device such as a terminal.
func isTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
