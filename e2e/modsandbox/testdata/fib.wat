;; fib: recursion and loops, for the determinism suite and the benchmarks.
;; Build: wat2wasm fib.wat -o fib.wasm
(module
  (memory (export "memory") 1)
  (func (export "add") (param i32 i32) (result i32) (i32.add (local.get 0) (local.get 1)))
  ;; fib(n), recursively
  (func $fib (export "fib") (param $n i32) (result i32)
    (if (result i32) (i32.lt_u (local.get $n) (i32.const 2))
      (then (local.get $n))
      (else (i32.add (call $fib (i32.sub (local.get $n) (i32.const 1)))
                     (call $fib (i32.sub (local.get $n) (i32.const 2)))))))
  ;; fib64(n): iteratively, in i64, wrapping
  (func (export "fib64") (param $n i64) (result i64)
    (local $a i64) (local $b i64) (local $t i64)
    (local.set $b (i64.const 1))
    (block $done
      (loop $l
        (br_if $done (i64.eqz (local.get $n)))
        (local.set $t (i64.add (local.get $a) (local.get $b)))
        (local.set $a (local.get $b))
        (local.set $b (local.get $t))
        (local.set $n (i64.sub (local.get $n) (i64.const 1)))
        (br $l)))
    (local.get $a))
  ;; recurse without end: the deterministic call-depth limit
  (func $deep (export "deep") (param i32) (result i32)
    (i32.add (i32.const 1) (call $deep (local.get 0))))
  ;; spin forever: gas runs out
  (func (export "spin") (loop $l (br $l))))
