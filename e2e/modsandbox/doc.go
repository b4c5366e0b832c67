// Package modsandbox checks that the low-level module API
// (wasm/modsandbox in Go, createWasmSandbox in JavaScript) is
// deterministic across engines: the suite in testdata/suite.json runs on
// wazero, in Node 26 and in headless Chromium, and the value, gas,
// host-call log and state (snapshot hash) of every step must be the same
// byte for byte.
//
// The Node and Chromium tests build the npm package and skip only when
// Node 26 cannot be fetched or Chromium is not installed; -short skips
// them. node/bench.mjs times the JavaScript API (TestNodeBench runs it
// when WASMSAND_BENCH=1).
package modsandbox
