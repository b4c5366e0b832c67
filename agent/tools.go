package agent

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/sandbox"
)

// The names of the built-in tools.
const (
	ToolRun       = "sandbox_run"
	ToolReadFile  = "read_file"
	ToolWriteFile = "write_file"
	ToolListDir   = "list_dir"
	ToolRunCode   = "run_code"
	// ToolSnapshot and ToolRestore follow (snapshot.go).
)

// builtinDefs are the built-in tools, in the order Tools lists them.
func builtinDefs(d descriptions) []Def {
	return []Def{
		{Tool{ToolRun, d.run, schemaRun}, callRun},
		{Tool{ToolReadFile, d.readFile, schemaReadFile}, callReadFile},
		{Tool{ToolWriteFile, d.writeFile, schemaWriteFile}, callWriteFile},
		{Tool{ToolListDir, d.listDir, schemaListDir}, callListDir},
		{Tool{ToolRunCode, d.runCode, schemaRunCode}, callRunCode},
	}
}

var (
	schemaRun = json.RawMessage(`{"type":"object","properties":{` +
		`"command":{"type":"string","description":"The bash command line or script to run, e.g. \"ls -l | head\" or a multi-line script."},` +
		`"stdin":{"type":"string","description":"Text given to the command as standard input. Optional."},` +
		`"timeout_ms":{"type":"integer","minimum":1,"description":"Time limit in milliseconds for this call; it can only lower the sandbox's own limit. Optional."}},` +
		`"required":["command"],"additionalProperties":false}`)
	schemaReadFile = json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"The file to read, absolute or relative to the shell's working directory (/home/user at the start)."}},` +
		`"required":["path"],"additionalProperties":false}`)
	schemaWriteFile = json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"The file to write, absolute or relative to the shell's working directory. Missing parent directories are created."},` +
		`"content":{"type":"string","description":"The new content of the file."},` +
		`"encoding":{"type":"string","enum":["utf-8","base64"],"description":"How content is encoded: utf-8 text (the default) or base64 for binary data."},` +
		`"append":{"type":"boolean","description":"Add content at the end of the file instead of replacing it. Optional."}},` +
		`"required":["path","content"],"additionalProperties":false}`)
	schemaListDir = json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"The directory to list; default: the shell's working directory."}},` +
		`"additionalProperties":false}`)
	schemaRunCode = json.RawMessage(`{"type":"object","properties":{` +
		`"code":{"type":"string","description":"JavaScript to run as the body of an async function: await works at the top level and the value of the last expression statement (or of return) is the result."},` +
		`"language":{"type":"string","enum":["javascript"],"description":"The language of code; only javascript for now."},` +
		`"timeout_ms":{"type":"integer","minimum":1,"description":"Time limit in milliseconds, clamped to 250..5000; default 3000."}},` +
		`"required":["code"],"additionalProperties":false}`)
)

type descriptions struct{ run, readFile, writeFile, listDir, runCode string }

// describe writes the descriptions for a model: what the sandbox has and
// its limits.
func describe(o Options, commands []string) descriptions {
	so := o.Sandbox
	timeout := cmp(so.Timeout, sandbox.DefaultTimeout)
	fsLimit := cmp(so.FSLimit, sandbox.DefaultFSLimit)
	outLimit := cmp(so.OutputLimit, sandbox.DefaultOutputLimit)
	mem := cmp(so.MemoryLimit, sandbox.DefaultMemoryLimit)
	var extra []string
	if slices.Contains(commands, "python3") {
		extra = append(extra, "python3 is CPython 3.11 with its standard library (no pip, no third-party packages).")
	}
	if slices.Contains(commands, "sqlite3") {
		extra = append(extra, "sqlite3 is the SQLite shell.")
	}
	return descriptions{
		run: fmt.Sprintf(`Run a bash command line in an isolated sandbox and get its exit code, stdout and stderr.
The sandbox is a bash 5.2 shell (pipes, redirections, variables, functions, loops, here-documents, $(...)) whose commands are WebAssembly programs working on an in-memory filesystem. It has no network and cannot see or change the host's files. State persists between calls: files, the working directory, variables and functions.
Paths: /home/user is $HOME and the starting directory, /tmp is scratch space, /bin lists the commands.
Commands: %s.
%sLimits: each call stops after %s with exit code 124; files hold at most %s in all (writes past it fail with ENOSPC); each process gets %s of memory; output past %s per stream is dropped.
You see at most %s of each stream: longer output keeps its beginning and end with a note of what was cut, so filter large data with grep, head, tail or wc.`,
			strings.Join(commands, " "), joinLines(extra), timeout, size(fsLimit), size(mem), size(outLimit), size(int64(o.MaxOutputBytes))),
		readFile: fmt.Sprintf(`Read a file from the sandbox's filesystem (the same files sandbox_run sees). Text comes back as it is; a file that is not valid UTF-8 comes back in base64 (encoding says which). You see at most %s: a longer file keeps its beginning and end with a note of what was cut; read parts with sandbox_run (sed -n '100,200p' FILE, head, tail, grep).`,
			size(int64(o.MaxFileBytes))),
		writeFile: fmt.Sprintf(`Create or replace a file in the sandbox's filesystem (the same files sandbox_run sees), creating missing parent directories. Use encoding "base64" for binary data and append to add to the end. Files hold at most %s in all.`,
			size(fsLimit)),
		listDir: fmt.Sprintf(`List a directory of the sandbox's filesystem: each entry's name, type (file, dir, symlink or other) and size in bytes, sorted by name, at most %d entries.`,
			o.MaxDirEntries),
		runCode: fmt.Sprintf(`Run a JavaScript snippet (ES2020+, async/await) in a fresh JavaScript engine inside the sandbox and get its result value and console output. Use it for computation and data transformation; it has no filesystem, network or Node.js APIs (use sandbox_run for files and commands). At most %d characters of code; console output keeps at most %d lines per stream.`,
			sandbox.MaxCodeLength, sandbox.MaxCodeOutputLines),
	}
}

func cmp[T int64 | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

func joinLines(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return strings.Join(s, " ") + "\n"
}

// size formats n bytes for a model: 16 KiB, 256 MiB.
func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// RunResult is what sandbox_run returns.
type RunResult struct {
	ExitCode        int    `json:"exit_code"`
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	ExecutionTimeMs int64  `json:"execution_time_ms"`
	// Truncated reports that the model does not see all the output: it
	// was cut for the model or passed the sandbox's output limit.
	Truncated bool `json:"truncated"`
}

func callRun(ctx context.Context, t *Toolset, args json.RawMessage) (any, error) {
	var a struct {
		Command   *string `json:"command"`
		Stdin     *string `json:"stdin"`
		TimeoutMs *int64  `json:"timeout_ms"`
	}
	if err := decodeArgs(ToolRun, args, &a); err != nil {
		return nil, err
	}
	if a.Command == nil {
		return nil, argErrorf("%s: argument \"command\" is required", ToolRun)
	}
	var opts []sandbox.RunOption
	if a.Stdin != nil {
		opts = append(opts, sandbox.WithStdin(strings.NewReader(*a.Stdin)))
	}
	if a.TimeoutMs != nil {
		if *a.TimeoutMs <= 0 {
			return nil, argErrorf("%s: timeout_ms must be a positive number of milliseconds, not %d", ToolRun, *a.TimeoutMs)
		}
		opts = append(opts, sandbox.WithTimeout(time.Duration(*a.TimeoutMs)*time.Millisecond))
	}
	res, err := t.Sandbox().Run(ctx, *a.Command, opts...)
	if err != nil {
		return nil, err
	}
	out, cutOut := Clip(string(res.Stdout), t.opts.MaxOutputBytes)
	errOut, cutErr := Clip(string(res.Stderr), t.opts.MaxOutputBytes)
	return &RunResult{
		ExitCode:        res.ExitCode,
		Stdout:          out,
		Stderr:          errOut,
		ExecutionTimeMs: res.ExecutionTime.Milliseconds(),
		Truncated:       cutOut || cutErr || res.StdoutTruncated || res.StderrTruncated,
	}, nil
}

// ReadFileResult is what read_file returns.
type ReadFileResult struct {
	Path      string `json:"path"`
	Content   string `json:"content"`
	Encoding  string `json:"encoding"` // "utf-8" or "base64"
	Size      int    `json:"size"`     // of the whole file, in bytes
	Truncated bool   `json:"truncated"`
}

// checkPath rejects paths no file can have.
func checkPath(tool, p string) error {
	switch {
	case p == "":
		return argErrorf("%s: path must not be empty", tool)
	case strings.IndexByte(p, 0) >= 0:
		return argErrorf("%s: path must not contain a NUL byte", tool)
	}
	return nil
}

func callReadFile(ctx context.Context, t *Toolset, args json.RawMessage) (any, error) {
	var a struct {
		Path *string `json:"path"`
	}
	if err := decodeArgs(ToolReadFile, args, &a); err != nil {
		return nil, err
	}
	if a.Path == nil {
		return nil, argErrorf("%s: argument \"path\" is required", ToolReadFile)
	}
	if err := checkPath(ToolReadFile, *a.Path); err != nil {
		return nil, err
	}
	b, err := t.Sandbox().ReadFile(*a.Path)
	if err != nil {
		return nil, err
	}
	r := &ReadFileResult{Path: *a.Path, Size: len(b), Encoding: "utf-8"}
	if utf8.Valid(b) {
		r.Content, r.Truncated = Clip(string(b), t.opts.MaxFileBytes)
		return r, nil
	}
	r.Encoding = "base64"
	if max := t.opts.MaxFileBytes * 3 / 4; len(b) > max {
		b, r.Truncated = b[:max], true
	}
	r.Content = base64.StdEncoding.EncodeToString(b)
	return r, nil
}

// WriteFileResult is what write_file returns.
type WriteFileResult struct {
	Path         string `json:"path"`
	BytesWritten int    `json:"bytes_written"`
	Size         int    `json:"size"` // of the file now
}

func callWriteFile(ctx context.Context, t *Toolset, args json.RawMessage) (any, error) {
	var a struct {
		Path     *string `json:"path"`
		Content  *string `json:"content"`
		Encoding string  `json:"encoding"`
		Append   bool    `json:"append"`
	}
	if err := decodeArgs(ToolWriteFile, args, &a); err != nil {
		return nil, err
	}
	if a.Path == nil || a.Content == nil {
		return nil, argErrorf("%s: arguments \"path\" and \"content\" are required", ToolWriteFile)
	}
	if err := checkPath(ToolWriteFile, *a.Path); err != nil {
		return nil, err
	}
	data := []byte(*a.Content)
	switch a.Encoding {
	case "", "utf-8", "utf8":
	case "base64":
		var err error
		if data, err = base64.StdEncoding.DecodeString(*a.Content); err != nil {
			return nil, argErrorf("%s: content is not valid base64: %v", ToolWriteFile, err)
		}
	default:
		return nil, argErrorf("%s: encoding must be \"utf-8\" or \"base64\", not %q", ToolWriteFile, a.Encoding)
	}
	sb := t.Sandbox()
	if dir := path.Dir(*a.Path); dir != "." && dir != "/" {
		if err := sb.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
	}
	n := len(data)
	if a.Append {
		old, err := sb.ReadFile(*a.Path)
		if err != nil && !isNotExist(err) {
			return nil, err
		}
		data = append(old, data...)
	}
	if err := sb.WriteFile(*a.Path, data, 0o644); err != nil {
		return nil, err
	}
	return &WriteFileResult{Path: *a.Path, BytesWritten: n, Size: len(data)}, nil
}

func isNotExist(err error) bool { return asError(err).Code == "ENOENT" }

// DirEntry is one entry of a list_dir result.
type DirEntry struct {
	Name string `json:"name"`
	Type string `json:"type"` // file, dir, symlink or other
	Size int64  `json:"size"`
}

// ListDirResult is what list_dir returns.
type ListDirResult struct {
	Path      string     `json:"path"`
	Entries   []DirEntry `json:"entries"`
	Truncated bool       `json:"truncated"`
}

func callListDir(ctx context.Context, t *Toolset, args json.RawMessage) (any, error) {
	var a struct {
		Path *string `json:"path"`
	}
	if err := decodeArgs(ToolListDir, args, &a); err != nil {
		return nil, err
	}
	p := "."
	if a.Path != nil {
		p = *a.Path
		if err := checkPath(ToolListDir, p); err != nil {
			return nil, err
		}
	}
	ents, err := t.Sandbox().ReadDir(p)
	if err != nil {
		return nil, err
	}
	r := &ListDirResult{Path: p, Entries: []DirEntry{}}
	if len(ents) > t.opts.MaxDirEntries {
		ents, r.Truncated = ents[:t.opts.MaxDirEntries], true
	}
	for _, e := range ents {
		d := DirEntry{Name: e.Name(), Type: "other"}
		switch m := e.Type(); {
		case m.IsDir():
			d.Type = "dir"
		case m&fs.ModeSymlink != 0:
			d.Type = "symlink"
		case m.IsRegular():
			d.Type = "file"
		}
		if info, err := e.Info(); err == nil {
			d.Size = info.Size()
		}
		r.Entries = append(r.Entries, d)
	}
	return r, nil
}

// CodeResult is what run_code returns.
type CodeResult struct {
	OK         bool               `json:"ok"`
	Result     json.RawMessage    `json:"result"`
	Stdout     string             `json:"stdout"`
	Stderr     string             `json:"stderr"`
	Error      *sandbox.CodeError `json:"error,omitempty"`
	Warnings   []string           `json:"warnings,omitempty"`
	DurationMs int64              `json:"duration_ms"`
	Truncated  bool               `json:"truncated"`
}

func callRunCode(ctx context.Context, t *Toolset, args json.RawMessage) (any, error) {
	var a struct {
		Code      *string `json:"code"`
		Language  string  `json:"language"`
		TimeoutMs *int64  `json:"timeout_ms"`
	}
	if err := decodeArgs(ToolRunCode, args, &a); err != nil {
		return nil, err
	}
	if a.Code == nil {
		return nil, argErrorf("%s: argument \"code\" is required", ToolRunCode)
	}
	req := sandbox.CodeRequest{Language: a.Language, Code: *a.Code}
	if a.TimeoutMs != nil {
		if *a.TimeoutMs <= 0 {
			return nil, argErrorf("%s: timeout_ms must be a positive number of milliseconds, not %d", ToolRunCode, *a.TimeoutMs)
		}
		req.Timeout = time.Duration(*a.TimeoutMs) * time.Millisecond
	}
	res, err := t.Sandbox().RunCode(ctx, req)
	if err != nil {
		return nil, err
	}
	r := &CodeResult{OK: res.OK, Result: res.Result, Error: res.Error, Warnings: res.Warnings, DurationMs: res.Duration.Milliseconds()}
	if len(r.Result) == 0 {
		r.Result = json.RawMessage("null")
	}
	var c1, c2, c3 bool
	r.Stdout, c1 = Clip(res.Stdout, t.opts.MaxOutputBytes)
	r.Stderr, c2 = Clip(res.Stderr, t.opts.MaxOutputBytes)
	if len(r.Result) > t.opts.MaxOutputBytes {
		// A cut JSON value is no longer JSON: hand it over as a string.
		s, _ := Clip(string(r.Result), t.opts.MaxOutputBytes)
		r.Result, _ = json.Marshal(s)
		c3 = true
	}
	r.Truncated = c1 || c2 || c3
	return r, nil
}
