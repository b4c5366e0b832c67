//go:build js && wasm

package hostwasm

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm"
)

func TestTrapKind(t *testing.T) {
	tests := []struct {
		msg  string
		want wasm.TrapKind
		ok   bool
	}{
		// V8
		{"unreachable", wasm.TrapUnreachable, true},
		{"divide by zero", wasm.TrapDivideByZero, true},
		{"remainder by zero", wasm.TrapDivideByZero, true},
		{"divide result unrepresentable", wasm.TrapIntegerOverflow, true},
		{"memory access out of bounds", wasm.TrapOutOfBounds, true},
		{"Maximum call stack size exceeded", wasm.TrapStackOverflow, true},
		{"null function or function signature mismatch", wasm.TrapIndirectCall, true},
		{"table index is out of bounds", wasm.TrapInvalidTableAccess, true},
		{"float unrepresentable in integer range", wasm.TrapInvalidConversion, true},
		// SpiderMonkey
		{"unreachable executed", wasm.TrapUnreachable, true},
		{"integer divide by zero", wasm.TrapDivideByZero, true},
		{"integer overflow", wasm.TrapIntegerOverflow, true},
		{"index out of bounds", wasm.TrapOutOfBounds, true},
		{"too much recursion", wasm.TrapStackOverflow, true},
		{"indirect call signature mismatch", wasm.TrapIndirectCall, true},
		{"invalid conversion to integer", wasm.TrapInvalidConversion, true},
		{"something else", wasm.TrapOther, false},
	}
	for _, tt := range tests {
		got, ok := trapKind(tt.msg)
		if got != tt.want || ok != tt.ok {
			t.Errorf("trapKind(%q) = %q, %v; want %q, %v", tt.msg, got, ok, tt.want, tt.ok)
		}
	}
}
