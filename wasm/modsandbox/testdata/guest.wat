;; Test guest for package modsandbox: one export per behaviour under test.
;; Build: wat2wasm guest.wat -o guest.wasm
(module
  (import "env" "__get_time" (func $time (result i64)))
  (import "env" "__get_random" (func $random (result i32)))
  (import "env" "__log" (func $log (param i32 i32)))
  (import "env" "__read_file" (func $read (param i32 i32 i32 i32) (result i32)))
  (import "env" "__fetch" (func $fetch (param i32 i32 i32 i32) (result i32)))
  (import "env" "add_host" (func $add_host (param i32 i32) (result i32)))

  (memory (export "memory") 1)
  (global $heap (mut i32) (i32.const 65536)) ;; the bump allocator's next byte
  (global $count (mut i32) (i32.const 0))
  (global $last (mut i32) (i32.const 0))
  (global $wide (mut i64) (i64.const 0))

  ;; alloc(len) -> ptr: a bump allocator growing memory as needed
  (func $alloc (export "alloc") (param $len i32) (result i32)
    (local $p i32) (local $end i32)
    (local.set $p (global.get $heap))
    (local.set $end (i32.add (local.get $p) (local.get $len)))
    (if (i32.gt_u (local.get $end) (i32.mul (memory.size) (i32.const 65536)))
      (then
        (if (i32.eq (i32.const -1)
              (memory.grow (i32.add (i32.const 1)
                (i32.shr_u (i32.sub (local.get $end) (i32.const 1)) (i32.const 16)))))
          (then unreachable))))
    (global.set $heap (local.get $end))
    (local.get $p))

  (func (export "noop"))
  (func (export "add") (param i32 i32) (result i32) (i32.add (local.get 0) (local.get 1)))
  (func (export "add64") (param i64 i64) (result i64) (i64.add (local.get 0) (local.get 1)))
  (func (export "mulf") (param f64 f64) (result f64) (f64.mul (local.get 0) (local.get 1)))
  (func (export "halff") (param f32) (result f32) (f32.div (local.get 0) (f32.const 2)))
  (func (export "divmod") (param i32 i32) (result i32 i32)
    (i32.div_s (local.get 0) (local.get 1)) (i32.rem_s (local.get 0) (local.get 1)))
  (func (export "nanbits") (param f64 f64) (result i64)
    (i64.reinterpret_f64 (f64.div (local.get 0) (local.get 1))))
  (func $fib (export "fib") (param $n i32) (result i32)
    (if (result i32) (i32.lt_u (local.get $n) (i32.const 2))
      (then (local.get $n))
      (else (i32.add (call $fib (i32.sub (local.get $n) (i32.const 1)))
                     (call $fib (i32.sub (local.get $n) (i32.const 2)))))))

  ;; failures
  (func (export "spin") (loop $l (br $l)))
  (func $recurse (export "recurse") (param i32) (result i32)
    (i32.add (i32.const 1) (call $recurse (local.get 0))))
  (func (export "div") (param i32 i32) (result i32) (i32.div_s (local.get 0) (local.get 1)))
  (func (export "oob") (result i32) (i32.load (i32.const -4)))
  (func (export "trap") unreachable)
  (func (export "growmem") (param i32) (result i32) (memory.grow (local.get 0)))
  ;; grows one page at a time until refused, then dies like an allocator
  (func (export "hog")
    (loop $l (br_if $l (i32.ne (memory.grow (i32.const 1)) (i32.const -1))))
    unreachable)
  ;; survives a refused grow
  (func (export "tryhog") (result i32)
    (memory.grow (i32.const 60000)))

  ;; buffers: echo returns its input, packed or as a pair
  (func (export "echo") (param $p i32) (param $n i32) (result i64)
    (i64.or (i64.shl (i64.extend_i32_u (local.get $p)) (i64.const 32))
            (i64.extend_i32_u (local.get $n))))
  (func (export "echo2") (param $p i32) (param $n i32) (result i32 i32)
    (local.get $p) (local.get $n))
  (func (export "badjson") (param i32 i32) (result i64)
    (i32.store8 (i32.const 100) (i32.const 123)) ;; "{"
    (i64.or (i64.shl (i64.const 100) (i64.const 32)) (i64.const 1)))
  (func (export "outside") (param i32 i32) (result i32 i32)
    (i32.const -16) (i32.const 64))
  (func (export "consume") (param i32 i32))

  ;; host calls
  (func (export "now") (result i64) (call $time))
  (func (export "rand") (result i32) (call $random))
  (func (export "say") (param i32 i32) (call $log (local.get 0) (local.get 1)))
  (func (export "sayoob") (call $log (i32.const -8) (i32.const 100)))
  (func (export "callhost") (param i32 i32) (result i32) (call $add_host (local.get 0) (local.get 1)))
  (func (export "callhost_then_trap") (param i32 i32) (result i32)
    (drop (call $add_host (local.get 0) (local.get 1))) unreachable)
  ;; read(path) and fetch(url): the data, and the result code in last()
  (func (export "read") (param $p i32) (param $n i32) (result i32 i32)
    (global.set $last (call $read (local.get $p) (local.get $n) (i32.const 8192) (i32.const 4096)))
    (i32.const 8192)
    (select (global.get $last) (i32.const 0) (i32.gt_s (global.get $last) (i32.const 0))))
  (func (export "fetch") (param $p i32) (param $n i32) (result i32 i32)
    (global.set $last (call $fetch (local.get $p) (local.get $n) (i32.const 8192) (i32.const 4096)))
    (i32.const 8192)
    (select (global.get $last) (i32.const 0) (i32.gt_s (global.get $last) (i32.const 0))))
  (func (export "last") (result i32) (global.get $last))

  ;; state: a counter, a wide global and memory cells
  (func (export "bump") (result i32)
    (global.set $count (i32.add (global.get $count) (i32.const 1)))
    (global.set $wide (i64.add (global.get $wide) (i64.const 0x100000001)))
    (global.get $count))
  (func (export "wide") (result i64) (global.get $wide))
  (func (export "poke") (param i32 i32) (i32.store (local.get 0) (local.get 1)))
  (func (export "peek") (param i32) (result i32) (i32.load (local.get 0)))
  ;; state after randomness: mixes the PRNG into memory
  (func (export "mix") (result i32)
    (i32.store (i32.const 0) (i32.xor (i32.load (i32.const 0)) (call $random)))
    (i32.load (i32.const 0)))
)
