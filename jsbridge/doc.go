// Package jsbridge runs the wasmsand core inside a JavaScript host (Node
// or a browser) when built with GOOS=js GOARCH=wasm: it runs guest
// modules on the host's own WebAssembly and exposes the JS-callable
// Sandbox API.
//
// The engine (NewEngine) implements wasm.Engine over the host's native
// WebAssembly. Host functions are ordinary blocking Go; a guest calls them
// through JSPI: every import is wrapped in WebAssembly.Suspending and
// every export is entered through WebAssembly.promising. A host call runs
// on its own goroutine; when it cannot finish at once the guest is
// suspended on a Promise that the goroutine resolves later, so no
// js.FuncOf callback ever blocks and the JavaScript event loop keeps
// running while guests wait on pipes, sleeps or fuel refills.
//
// Register hands the JS API (create, run, file access, …) to the loader
// in web/, which wraps it in the Sandbox and SandboxError classes.
//
// Everything but this comment needs GOOS=js; on other platforms the
// package is empty.
package jsbridge
