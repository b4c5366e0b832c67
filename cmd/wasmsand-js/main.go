//go:build js && wasm

// Command wasmsand-js is the wasmsand core for JavaScript hosts, built
// with GOOS=js GOARCH=wasm and started by the loader in web/:
//
//	GOOS=js GOARCH=wasm go build -o wasmsand.wasm ./cmd/wasmsand-js
//
// The loader puts an object at globalThis.wasmsandHost (on the private
// global it gives the Go runtime) with a SandboxError class and a
// ready(api) function; main hands the API to ready and keeps the runtime
// alive for the callbacks.
package main

import (
	"fmt"
	"os"
	"syscall/js"

	"github.com/wasmsand/wasmsand/jsbridge"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "devel"

func main() {
	host := js.Global().Get("wasmsandHost")
	if host.Type() != js.TypeObject {
		fmt.Fprintln(os.Stderr, "wasmsand-js: globalThis.wasmsandHost is missing; load this module through the wasmsand loader")
		os.Exit(2)
	}
	jsbridge.Register(host, version)
	select {}
}
