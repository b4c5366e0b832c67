;; host: built-in and declared host functions, JSON through alloc, state
;; for snapshots.
;; Build: wat2wasm host.wat -o host.wasm
(module
  (import "env" "__get_time" (func $time (result i64)))
  (import "env" "__get_random" (func $random (result i32)))
  (import "env" "__log" (func $log (param i32 i32)))
  (import "env" "add_host" (func $add_host (param i32 i32) (result i32)))
  (import "env" "mix64" (func $mix64 (param i64 i32) (result i64)))
  (import "env" "fadd" (func $fadd (param f64 f64) (result f64)))

  (memory (export "memory") 1)
  (global $heap (mut i32) (i32.const 4096))
  (global $steps (mut i32) (i32.const 0))
  (global $acc (mut i64) (i64.const 0))
  (data (i32.const 1024) "step")

  (func (export "alloc") (param $n i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $heap))
    (global.set $heap (i32.add (local.get $p) (local.get $n)))
    (if (i32.gt_u (global.get $heap) (i32.mul (memory.size) (i32.const 65536)))
      (then (if (i32.eq (memory.grow (i32.const 1)) (i32.const -1)) (then unreachable))))
    (local.get $p))
  ;; echo(ptr, len) returns its input, packed
  (func (export "echo") (param $p i32) (param $n i32) (result i64)
    (i64.or (i64.shl (i64.extend_i32_u (local.get $p)) (i64.const 32)) (i64.extend_i32_u (local.get $n))))
  (func (export "now") (result i64) (call $time))
  ;; randoms(n): the sum of n random numbers, each logged in the call log
  (func (export "randoms") (param $n i32) (result i32)
    (local $s i32)
    (block $d (loop $l
      (br_if $d (i32.eqz (local.get $n)))
      (local.set $s (i32.add (local.get $s) (call $random)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $l)))
    (local.get $s))
  (func (export "add") (param i32 i32) (result i32) (call $add_host (local.get 0) (local.get 1)))
  (func (export "mix") (param i64 i32) (result i64) (call $mix64 (local.get 0) (local.get 1)))
  (func (export "fsum") (param f64 f64) (result f64) (call $fadd (local.get 0) (local.get 1)))
  (func (export "say") (param i32 i32) (call $log (local.get 0) (local.get 1)))
  ;; step(n): n rounds of state change mixing time, randomness and the
  ;; host functions into globals and memory; logs "step" each round
  (func (export "step") (param $n i32) (result i64)
    (local $r i32)
    (block $d (loop $l
      (br_if $d (i32.eqz (local.get $n)))
      (local.set $r (call $random))
      (global.set $steps (i32.add (global.get $steps) (i32.const 1)))
      (global.set $acc (call $mix64
        (i64.add (global.get $acc) (call $time))
        (call $add_host (local.get $r) (global.get $steps))))
      (i64.store (i32.shl (i32.and (global.get $steps) (i32.const 255)) (i32.const 3)) (global.get $acc))
      (call $log (i32.const 1024) (i32.const 4))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $l)))
    (global.get $acc))
  (func (export "steps") (result i32) (global.get $steps)))
