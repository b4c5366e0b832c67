// Package browser is what the js/wasm core needs from a web browser
// beyond the host's WebAssembly (which package jsbridge drives for the
// browser and Node alike): IDBStore keeps snapshots in IndexedDB, through
// github.com/hack-pad/safejs. The browser loader (web/) fetches tool
// modules by URL and keeps instrumented ones in the Cache API.
//
// Everything but this comment needs GOOS=js; on other platforms the
// package is empty.
package browser
