//go:build js && wasm

package jsbridge

import (
	"syscall/js"

	"github.com/wasmsand/wasmsand/sandbox"
)

// SandboxOptions reads an options object as Sandbox.create takes it
// (timeoutMs, fsLimitBytes, ..., tools as file name → bytes or loader) into
// the core's options, with the engine over the host's WebAssembly. Other
// cores built from jsbridge, such as the MCP server's, start sandboxes
// with it.
func SandboxOptions(o js.Value) (sandbox.Options, error) { return parseOptions(o) }
