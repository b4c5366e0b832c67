// Package platform holds where the wasmsand core runs, one package per
// runtime, behind the one seam sandbox.Platform (the engine that runs
// guests, the disk caches, the default tools, the network and the host's
// directories):
//
//   - platform/native: native Go programs — wazero, tools from a
//     directory or built from this module's sources into the user cache,
//     DirStore for snapshots on disk, net/http, os.Root for mounts.
//     Importing it makes it sandbox's default platform.
//   - platform/hostwasm: the js/wasm core, for Node and browsers alike —
//     guests on the host's own WebAssembly with JSPI, the tools the
//     JavaScript loader hands in, fetch() for the network.
//   - platform/browser: what only a browser has (IndexedDB for snapshots).
//   - platform/node: what only Node has (host directories through the
//     loader's fs).
//
// The core (package sandbox) has no build tags and imports none of these;
// jsbridge turns the js/wasm core into JavaScript objects on top of
// hostwasm. This package itself holds no code: see the example.
package platform
