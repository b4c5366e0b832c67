;; A small WASI reactor for the tests: _initialize marks memory, counts its
;; calls in a global, sets an i64 global, draws random bytes and grows the
;; memory; wasmsand_main writes the marks and its arguments to stdout.
;; Built with: wat2wasm reactor.wat -o reactor.wasm
(module
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_get" (func $args_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (global $calls (mut i32) (i32.const 0))
  (global $big (mut i64) (i64.const 0))
  (global $const i32 (i32.const 9))
  (data (i32.const 16) "init:")
  (func (export "_initialize")
    (i32.store (i32.const 21) (i32.const 0x656e6f64)) ;; "done"
    (i32.store8 (i32.const 25) (i32.const 32))
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (global.set $big (i64.const -5))
    (drop (call $random_get (i32.const 1024) (i32.const 16)))
    (drop (memory.grow (i32.const 1)))
    (i32.store (i32.const 70000) (i32.const 7)))
  (func (export "wasmsand_main")
    (i32.store8 (i32.const 26) (i32.add (i32.const 48) (global.get $calls)))
    (i32.store8 (i32.const 27) (i32.const 32))
    (drop (call $args_sizes_get (i32.const 0) (i32.const 4)))
    (drop (call $args_get (i32.const 2048) (i32.const 4096)))
    (i32.store (i32.const 32) (i32.const 16))
    (i32.store (i32.const 36) (i32.const 12))
    (i32.store (i32.const 40) (i32.const 4096))
    (i32.store (i32.const 44) (i32.load (i32.const 4)))
    (drop (call $fd_write (i32.const 1) (i32.const 32) (i32.const 2) (i32.const 8)))))
