package sandbox

import (
	"io"
	"io/fs"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
)

// Defaults for Options fields left zero.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMemoryLimit  = 256 << 20 // bytes of linear memory per process
	DefaultFSLimit      = 256 << 20 // bytes of file data in the VFS
	DefaultMaxProcesses = 64
	DefaultOutputLimit  = 16 << 20 // bytes per stream per Run
)

// Options configure a Sandbox. The zero value is usable: every zero field
// takes its default.
type Options struct {
	// Timeout bounds each Run. A command that runs longer ends with exit
	// code 124 and "command timed out" on stderr.
	Timeout time.Duration
	// MemoryLimit caps each guest process's linear memory, in bytes. A
	// guest that wants more sees memory.grow fail; a Go tool then ends
	// with "NAME: memory exhausted" on stderr and exit code 2.
	MemoryLimit int64
	// FSLimit caps the bytes of file data the VFS holds; writes past it
	// fail with ENOSPC.
	FSLimit int64
	// MaxInodes caps the number of files, directories and links.
	MaxInodes int
	// MaxProcesses caps live processes: guests, subshells, pipeline
	// stages and background jobs.
	MaxProcesses int
	// Fuel, if positive, caps the instructions (roughly: basic-block
	// costs) a single Run may execute across all its guests.
	Fuel int64
	// OutputLimit caps captured stdout and stderr per Run, per stream;
	// past it the result is marked truncated.
	OutputLimit int64
	// Env is added to the default environment (HOME, PATH, USER, PWD,
	// SHELL) as KEY=VALUE pairs.
	Env []string
	// Cwd is the initial working directory; default /home/user.
	Cwd string
	// Seed seeds the PRNG behind $RANDOM, random_get and /dev/urandom.
	Seed int64
	// Clock, if set, replaces the wall clock for the shell and guests
	// (date, file times, clock_time_get), and guests get a virtual
	// monotonic clock that advances only as they read it and sleep, so
	// runs repeat exactly, fuel included. Timeouts always use real time.
	Clock func() time.Time
	// Platform runs the guests and gives the default tools (see
	// Platform). nil means the default platform: the one package
	// platform/native registers when imported.
	Platform Platform
	// ToolsDir, if set, is a host directory of tool modules
	// (manifest.json and NAME.wasm files; NAME.wasm becomes command
	// NAME) used instead of the platform's tools.
	ToolsDir string
	// Tools, if set, is read instead of ToolsDir: the same layout (a
	// manifest.json and NAME.wasm files) at the root of any fs.FS. The
	// js/wasm build, which has no host filesystem, hands tool bytes to
	// the core this way.
	Tools fs.FS
	// CacheDir, if set, holds compiled and instrumented modules across
	// runs on disk, where the platform has one (Platform.Engine and
	// Platform.ModuleCache).
	CacheDir string
	// Store keeps snapshots for Save, Load and Persist.
	Store Store
	// Persist, if set, names a snapshot in Store: New resumes the sandbox
	// saved under that name (if any) instead of making a fresh one, and
	// every Run saves the sandbox there when it ends.
	Persist string
	// ModuleStore, if set and CacheDir is not, keeps instrumented modules
	// elsewhere (the browser loader's is the Cache API). It belongs to the
	// engine: the first sandbox made on an engine sets it for all.
	ModuleStore ModuleStore
	// Network is what guests (curl, wget) may reach over HTTP: nothing
	// unless its rules allow it. See package netpolicy.
	Network netpolicy.Policy
	// Mounts attach directories from outside the sandbox (see Mount).
	Mounts []Mount
}

// RunOption adjusts one Run.
type RunOption func(*runConfig)

type runConfig struct {
	script     string // run as this script file, with scriptArgs
	scriptArgs []string
	stdin      io.Reader
	env        []string
	cwd        string
	stdout     io.Writer
	stderr     io.Writer
	timeout    time.Duration
}

// AsScript runs the command text as the script file name with args as
// its positional parameters, as `bash name args...` would: messages say
// "name: line N:" and $0 is name.
func AsScript(name string, args ...string) RunOption {
	return func(c *runConfig) { c.script, c.scriptArgs = name, args }
}

// WithStdin gives the command standard input.
func WithStdin(r io.Reader) RunOption { return func(c *runConfig) { c.stdin = r } }

// WithEnv adds KEY=VALUE pairs to the environment of this Run only.
func WithEnv(kv ...string) RunOption { return func(c *runConfig) { c.env = append(c.env, kv...) } }

// WithCwd runs the command in dir; the shell's directory is restored after.
func WithCwd(dir string) RunOption { return func(c *runConfig) { c.cwd = dir } }

// WithStdout streams standard output to w as it is produced, in addition
// to capturing it in RunResult.Stdout.
func WithStdout(w io.Writer) RunOption { return func(c *runConfig) { c.stdout = w } }

// WithStderr streams standard error to w as it is produced.
func WithStderr(w io.Writer) RunOption { return func(c *runConfig) { c.stderr = w } }

// WithTimeout bounds this Run by d when d is shorter than Options.Timeout;
// it can only lower the sandbox's limit. Past it the command ends with
// exit code 124, as with Options.Timeout.
func WithTimeout(d time.Duration) RunOption { return func(c *runConfig) { c.timeout = d } }

// RunResult is what one Run produced.
type RunResult struct {
	ExitCode        int
	Stdout          []byte
	Stderr          []byte
	StdoutTruncated bool
	StderrTruncated bool
	// Exited reports that the command ended the shell (the exit builtin,
	// or set -e). The sandbox stays usable and keeps its state; a REPL
	// would stop reading.
	Exited        bool
	ExecutionTime time.Duration
	Metrics       Metrics
}

// Metrics describe the resources one Run used.
type Metrics struct {
	FuelUsed        int64 // instrumented instruction cost, all guests
	PeakMemoryBytes int64 // largest linear memory of any guest
	Processes       int   // guest processes started
	TimedOut        bool
}
