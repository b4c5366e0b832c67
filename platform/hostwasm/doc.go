// Package hostwasm runs guest modules on the JavaScript host's own
// WebAssembly — V8 in Node and Chromium, or any engine with JSPI — when
// the core is built with GOOS=js GOARCH=wasm. It is the engine of both JS
// platforms: the browser's (tools fetched by URL, snapshots in IndexedDB
// through package platform/browser) and Node's (tools and snapshots in
// files, through the npm loader).
//
// The engine (NewEngine) implements wasm.Engine. Host functions are
// ordinary blocking Go; a guest calls them through JSPI: every import is
// wrapped in WebAssembly.Suspending and every export is entered through
// WebAssembly.promising. A host call runs on its own goroutine; when it
// cannot finish at once the guest is suspended on a Promise that the
// goroutine resolves later, so no js.FuncOf callback ever blocks and the
// JavaScript event loop keeps running while guests wait on pipes, sleeps
// or fuel refills. Platform is the sandbox.Platform over the engine.
//
// Everything but this comment needs GOOS=js; on other platforms the
// package is empty.
package hostwasm
