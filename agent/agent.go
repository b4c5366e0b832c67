package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// Defaults for Options fields left zero.
const (
	DefaultMaxOutputBytes = 16 << 10 // per stream of sandbox_run and run_code
	DefaultMaxFileBytes   = 64 << 10 // of read_file content
	DefaultMaxDirEntries  = 1000     // of list_dir
)

// Options configure a Toolset. The zero value is usable.
type Options struct {
	// Sandbox should be the options the sandbox was created with; the tool
	// descriptions quote its limits (timeout, disk quota, output cap). Zero
	// fields describe the sandbox package's defaults.
	Sandbox sandbox.Options
	// MaxOutputBytes is how much of each output stream a model sees; longer
	// output keeps its head and tail and says what was cut.
	MaxOutputBytes int
	// MaxFileBytes is how much of a file read_file returns, cut the same way.
	MaxFileBytes int
	// MaxDirEntries caps the entries list_dir returns.
	MaxDirEntries int
	// Store, when set, keeps the snapshots the snapshot tool takes, under
	// SnapshotPrefix + the name given; without it snapshot returns the
	// snapshot as base64. A session server sets both, the prefix being
	// its session's, so that sessions sharing a store do not see each
	// other's snapshots.
	Store          sandbox.Store
	SnapshotPrefix string
	// Replaced, if set, is called after restore swapped in a restored
	// sandbox, before the old one is closed: a host holding the sandbox
	// follows the change.
	Replaced func(sb *sandbox.Sandbox)
	// Extra tools are offered after the built-in ones. A name already taken
	// replaces the built-in tool of that name.
	Extra []Def
}

// Tool is the definition of one tool as a model sees it.
type Tool struct {
	Name        string
	Description string
	// InputSchema is a JSON Schema of type object for the arguments.
	InputSchema json.RawMessage
}

// Def is one tool: its definition and the function that runs it. Call gets
// the raw JSON arguments (never nil; "{}" when the model sent none) and
// returns a value that marshals to a JSON object, or an error, preferably
// an *Error.
type Def struct {
	Tool
	Call func(ctx context.Context, t *Toolset, args json.RawMessage) (any, error)
}

// Toolset is the tools bound to one sandbox. Its methods are safe for
// concurrent use; the sandbox runs one command at a time.
type Toolset struct {
	opts Options
	defs []Def

	mu sync.RWMutex
	sb *sandbox.Sandbox
}

// New binds the built-in tools (and opts.Extra) to sb. It reads the
// sandbox's command list for the descriptions.
func New(sb *sandbox.Sandbox, opts Options) (*Toolset, error) {
	if sb == nil {
		return nil, errors.New("agent: New needs a sandbox")
	}
	if opts.MaxOutputBytes <= 0 {
		opts.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	if opts.MaxDirEntries <= 0 {
		opts.MaxDirEntries = DefaultMaxDirEntries
	}
	var commands []string
	ents, err := sb.ReadDir("/bin")
	if err != nil {
		return nil, fmt.Errorf("agent: listing the sandbox's commands: %w", err)
	}
	for _, e := range ents {
		commands = append(commands, e.Name())
	}
	t := &Toolset{opts: opts, sb: sb}
	for _, d := range append(builtinDefs(describe(opts, commands)), snapshotDefs(opts)...) {
		if i := slices.IndexFunc(opts.Extra, func(x Def) bool { return x.Name == d.Name }); i >= 0 {
			d = opts.Extra[i]
		}
		t.defs = append(t.defs, d)
	}
	for _, d := range opts.Extra {
		if !slices.ContainsFunc(t.defs, func(x Def) bool { return x.Name == d.Name }) {
			t.defs = append(t.defs, d)
		}
	}
	for _, d := range t.defs {
		if d.Name == "" || d.Call == nil || !json.Valid(d.InputSchema) {
			return nil, fmt.Errorf("agent: tool %q needs a name, a Call function and a JSON input schema", d.Name)
		}
	}
	return t, nil
}

// Sandbox returns the sandbox the tools work on.
func (t *Toolset) Sandbox() *sandbox.Sandbox {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.sb
}

// Replace makes the tools work on sb from now on and returns the sandbox
// they worked on, which the caller closes when its calls in flight are
// done. A restore tool swaps in a restored sandbox this way; a host can
// reset a session with a fresh one.
func (t *Toolset) Replace(sb *sandbox.Sandbox) (old *sandbox.Sandbox) {
	t.mu.Lock()
	defer t.mu.Unlock()
	old, t.sb = t.sb, sb
	return old
}

// Options returns the options the Toolset was made with, defaults filled in.
func (t *Toolset) Options() Options { return t.opts }

// Tools lists the tool definitions in a stable order.
func (t *Toolset) Tools() []Tool {
	out := make([]Tool, len(t.defs))
	for i, d := range t.defs {
		out[i] = d.Tool
	}
	return out
}

// Call runs the tool name with args, a JSON object (empty or "null" means
// no arguments). The result marshals to a JSON object. Errors are *Error
// with a stable code: a bad argument, an unknown tool and a failing file
// operation are errors, a command that fails is not (its exit code says
// so). A panic in a tool becomes an INTERNAL error.
func (t *Toolset) Call(ctx context.Context, name string, args json.RawMessage) (res any, err error) {
	i := slices.IndexFunc(t.defs, func(d Def) bool { return d.Name == name })
	if i < 0 {
		return nil, &Error{Code: CodeUnknownTool, Message: fmt.Sprintf("there is no tool %q; the tools are %s", name, strings.Join(t.names(), ", "))}
	}
	if a := bytes.TrimSpace(args); len(a) == 0 || string(a) == "null" {
		args = json.RawMessage("{}")
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, &Error{Code: CodeInternal, Message: fmt.Sprintf("tool %s failed: %v\n%s", name, r, debug.Stack())}
		}
	}()
	res, err = t.defs[i].Call(ctx, t, args)
	if err != nil {
		return nil, asError(err)
	}
	return res, nil
}

// CallJSON runs a tool call as Call does and gives its outcome as the JSON
// text to hand back to a model: the result, or {"error": {"code",
// "message"}} with isError set.
func (t *Toolset) CallJSON(ctx context.Context, name string, args json.RawMessage) (text []byte, isError bool) {
	res, err := t.Call(ctx, name, args)
	if err == nil {
		if text, err = json.Marshal(res); err == nil {
			return text, false
		}
		err = &Error{Code: CodeInternal, Message: "the result is not JSON: " + err.Error()}
	}
	text, _ = json.Marshal(struct {
		Error *Error `json:"error"`
	}{asError(err)})
	return text, true
}

func (t *Toolset) names() []string {
	out := make([]string, len(t.defs))
	for i, d := range t.defs {
		out[i] = d.Name
	}
	return out
}

// Stable codes of Error.
const (
	CodeInvalidArgument = "INVALID_ARGUMENT" // the arguments do not fit the schema
	CodeUnknownTool     = "UNKNOWN_TOOL"
	CodeClosed          = "CLOSED" // the sandbox was closed
	CodeInternal        = "INTERNAL"
	// File operations fail with the POSIX name of their errno: ENOENT,
	// EISDIR, ENOTDIR, ENOSPC, EEXIST, ENOTEMPTY, EACCES, ...
)

// Error is a failed tool call, with a stable code.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func argErrorf(format string, a ...any) *Error {
	return &Error{Code: CodeInvalidArgument, Message: fmt.Sprintf(format, a...)}
}

// asError gives err a stable code.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var ce *sandbox.CodeError
	if errors.As(err, &ce) && ce.Code == sandbox.CodeValidation {
		return &Error{Code: CodeInvalidArgument, Message: ce.Message}
	}
	if errors.Is(err, sandbox.ErrClosed) {
		return &Error{Code: CodeClosed, Message: "the sandbox is closed"}
	}
	var errno vfs.Errno
	if errors.As(err, &errno) {
		if name, ok := errnoNames[errno]; ok {
			return &Error{Code: name, Message: err.Error()}
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return &Error{Code: "ENOENT", Message: err.Error()}
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}

var errnoNames = map[vfs.Errno]string{
	vfs.EACCES: "EACCES", vfs.EEXIST: "EEXIST", vfs.EFBIG: "EFBIG", vfs.EINVAL: "EINVAL",
	vfs.EIO: "EIO", vfs.EISDIR: "EISDIR", vfs.ELOOP: "ELOOP", vfs.ENAMETOOLONG: "ENAMETOOLONG",
	vfs.ENOENT: "ENOENT", vfs.ENOSPC: "ENOSPC", vfs.ENOTDIR: "ENOTDIR", vfs.ENOTEMPTY: "ENOTEMPTY",
	vfs.ENOTSUP: "ENOTSUP", vfs.EPERM: "EPERM", vfs.EROFS: "EROFS", vfs.EBUSY: "EBUSY",
	vfs.EXDEV: "EXDEV", vfs.EMLINK: "EMLINK",
}

// decodeArgs decodes a JSON object of arguments into dst strictly:
// unknown fields and wrong types are INVALID_ARGUMENT errors naming the
// field.
func decodeArgs(tool string, args json.RawMessage, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Field == "":
			return argErrorf("%s: the arguments must be a JSON object", tool)
		case errors.As(err, &te):
			return argErrorf("%s: argument %q must be of type %s, not %s", tool, te.Field, jsonType(te.Type.Kind().String()), te.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return argErrorf("%s: unknown argument %s", tool, strings.TrimPrefix(err.Error(), "json: unknown field "))
		default:
			return argErrorf("%s: the arguments are not a JSON object: %v", tool, err)
		}
	}
	if dec.More() {
		return argErrorf("%s: the arguments must be one JSON object", tool)
	}
	return nil
}

func jsonType(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "int", "int64", "float64":
		return "number"
	case "ptr":
		return "the documented type"
	}
	return kind
}
