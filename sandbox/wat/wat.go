// Package wat converts WebAssembly text (the .wat format) to the binary
// format by running wabt's wat2wasm, built for wasm32-wasi (the wat2wasm
// tool of the C guests), inside a sandbox of its own. The conversion thus
// runs wherever the core runs — natively on wazero, in Node and in the
// browser on the host's WebAssembly — under the sandbox's limits.
//
// No WebAssembly text parser written in Go resolves through the module
// proxy (tetratelabs/watzero and eliben/watgo are refused), and wat2wasm
// is the reference implementation of the format, so the sandbox's own
// guest does the work.
//
//	c := wat.New(sandbox.Options{ToolsDir: "build/tools"})
//	defer c.Close()
//	bin, err := c.Compile(ctx, []byte(`(module (func (export "f") (result i32) i32.const 1))`))
//
// A *modsandbox.Runtime accepts text in Load once given c.Compile with
// SetTextCompiler.
package wat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
)

// MaxTextSize is the largest text Compile accepts (64 MiB).
const MaxTextSize = 64 << 20

// Error is a syntax or validation error in the text, as wat2wasm reports
// it. Line and Column are 1-based; 0 when wat2wasm named no position.
type Error struct {
	Line, Column int
	// Message is wat2wasm's first message without the position, such as
	// "unexpected token i32.bogus, expected )".
	Message string
	// Output is wat2wasm's whole report (every error, with the source
	// line and a caret under the place).
	Output string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("wat: line %d, column %d: %s", e.Line, e.Column, e.Message)
	}
	return "wat: " + e.Message
}

// ErrToolMissing is returned (wrapped) when the sandbox has no wat2wasm
// command: the C guests are not built (make cguests) or not among the
// tools given in Options.
var ErrToolMissing = errors.New("wat: the wat2wasm tool is not available")

// Compiler converts text with one sandbox, created on first use and kept
// for later calls. It is safe for concurrent use; calls run one at a time.
type Compiler struct {
	opts sandbox.Options

	mu     sync.Mutex
	sb     *sandbox.Sandbox
	closed bool
}

// New returns a Compiler whose sandbox is made with opts: they must give
// the tools (ToolsDir or Tools) holding wat2wasm.wasm, and may give the
// engine and the compile cache. A zero Timeout means 30 s per conversion.
func New(opts sandbox.Options) *Compiler {
	return &Compiler{opts: opts}
}

// Close closes the compiler's sandbox. Compile fails after it.
func (c *Compiler) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.sb != nil {
		err := c.sb.Close()
		c.sb = nil
		return err
	}
	return nil
}

// IsText reports whether b looks like WebAssembly text rather than a
// binary module: it does not start with the binary magic "\0asm" and, past
// blanks and comments, starts with "(".
func IsText(b []byte) bool {
	if bytes.HasPrefix(b, []byte("\x00asm")) {
		return false
	}
	for {
		b = bytes.TrimLeft(b, " \t\r\n")
		switch {
		case bytes.HasPrefix(b, []byte(";;")):
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				return false
			}
			b = b[i+1:]
		case bytes.HasPrefix(b, []byte("(;")):
			i := bytes.Index(b, []byte(";)"))
			if i < 0 {
				return false
			}
			b = b[i+2:]
		default:
			return len(b) > 0 && b[0] == '('
		}
	}
}

// Compile converts the text of one module to its binary form. Mistakes in
// the text are an *Error with the line and column; a missing wat2wasm
// wraps ErrToolMissing.
func (c *Compiler) Compile(ctx context.Context, text []byte) ([]byte, error) {
	if len(text) > MaxTextSize {
		return nil, &Error{Message: fmt.Sprintf("the text is %d bytes, more than the %d allowed", len(text), MaxTextSize)}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errors.New("wat: the compiler is closed")
	}
	if c.sb == nil {
		opts := c.opts
		if opts.Timeout == 0 {
			opts.Timeout = 30 * time.Second
		}
		sb, err := sandbox.New(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("wat: creating the sandbox: %w", err)
		}
		c.sb = sb
	}
	const in, out = "/tmp/module.wat", "/tmp/module.wasm"
	if err := c.sb.WriteFile(in, text, 0o644); err != nil {
		return nil, fmt.Errorf("wat: %w", err)
	}
	defer func() {
		_ = c.sb.Rm(in, false)
		_ = c.sb.Rm(out, false)
	}()
	r, err := c.sb.Run(ctx, "command -v wat2wasm >/dev/null || exit 127; wat2wasm "+in+" -o "+out)
	if err != nil {
		return nil, fmt.Errorf("wat: running wat2wasm: %w", err)
	}
	switch r.ExitCode {
	case 0:
		bin, err := c.sb.ReadFile(out)
		if err != nil {
			return nil, fmt.Errorf("wat: reading wat2wasm's output: %w", err)
		}
		return bin, nil
	case 127:
		return nil, fmt.Errorf("%w in the sandbox's tools (build it with make cguests)", ErrToolMissing)
	case 124:
		return nil, fmt.Errorf("wat: wat2wasm timed out: %s", strings.TrimSpace(string(r.Stderr)))
	}
	return nil, parseError(in, string(r.Stderr))
}

// parseError reads wat2wasm's report, whose messages look like
// "/tmp/module.wat:4:5: error: unexpected token i32.bogus, expected ).".
func parseError(name, out string) *Error {
	e := &Error{Output: strings.ReplaceAll(out, name+":", "")}
	first, _, _ := strings.Cut(out, "\n")
	rest, ok := strings.CutPrefix(first, name+":")
	if ok {
		parts := strings.SplitN(rest, ":", 3)
		if len(parts) == 3 {
			e.Line, _ = strconv.Atoi(parts[0])
			e.Column, _ = strconv.Atoi(parts[1])
			rest = parts[2]
		}
	}
	rest = strings.TrimSpace(rest)
	rest = strings.TrimPrefix(rest, "error: ")
	rest = strings.TrimSuffix(rest, ".")
	if rest == "" {
		rest = "wat2wasm failed without a message"
	}
	e.Message = rest
	return e
}
