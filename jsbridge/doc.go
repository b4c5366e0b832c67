// Package jsbridge makes the JavaScript-callable objects of the wasmsand
// core built with GOOS=js GOARCH=wasm, for Node and browsers alike: the
// Sandbox API (create, run, file access, snapshots, …), the low-level
// module API (createWasmSandbox) and runCode, with their Promise and
// Uint8Array conversions. Guests run on the engine over the host's own
// WebAssembly in package platform/hostwasm; snapshots go to the
// loader's store (files in Node) or to IndexedDB (package
// platform/browser).
//
// Register hands the JS API to the loader in web/, which wraps it in the
// Sandbox and SandboxError classes.
//
// Everything but this comment needs GOOS=js; on other platforms the
// package is empty.
package jsbridge
