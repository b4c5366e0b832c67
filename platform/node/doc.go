// Package node is what the js/wasm core takes from Node.js beyond the
// host's WebAssembly (package platform/hostwasm runs the guests): host
// directories mounted into a sandbox, over the object the npm loader
// makes with Node's own fs (Host). Tools and snapshots are files too,
// read and written by the loader (web/npm), which hands them to the core
// as Options.Tools and as a store object.
//
// Everything but this comment needs GOOS=js; on other platforms the
// package is empty.
package node
