//go:build js && wasm

package hostwasm

import (
	"strings"

	"github.com/wasmsand/wasmsand/wasm"
)

// trapKind returns the kind of trap a WebAssembly.RuntimeError (or a stack
// overflow's RangeError) message describes.
func trapKind(msg string) (wasm.TrapKind, bool) {
	for _, k := range trapMessages {
		if strings.Contains(msg, k.substr) {
			return k.kind, true
		}
	}
	return wasm.TrapOther, false
}

// trapMessages maps V8's and SpiderMonkey's trap messages to trap kinds.
var trapMessages = []struct {
	substr string
	kind   wasm.TrapKind
}{
	{"unreachable", wasm.TrapUnreachable},
	{"divide by zero", wasm.TrapDivideByZero},
	{"remainder by zero", wasm.TrapDivideByZero},
	{"divide result unrepresentable", wasm.TrapIntegerOverflow},
	{"integer overflow", wasm.TrapIntegerOverflow},
	{"memory access out of bounds", wasm.TrapOutOfBounds},
	{"table index", wasm.TrapInvalidTableAccess},
	{"index out of bounds", wasm.TrapOutOfBounds},
	{"call stack", wasm.TrapStackOverflow},
	{"too much recursion", wasm.TrapStackOverflow},
	{"signature mismatch", wasm.TrapIndirectCall},
	{"indirect call", wasm.TrapIndirectCall},
	{"null function", wasm.TrapIndirectCall},
	{"unrepresentable", wasm.TrapInvalidConversion},
	{"invalid conversion", wasm.TrapInvalidConversion},
}
