;; Test program for package instrument: each export exercises one kind of
;; control flow. Build: wat2wasm --debug-names prog.wat -o prog.wasm
(module
  (type $binop (func (param i32 i32) (result i32)))
  (import "env" "log" (func $log (param i32)))
  (memory (export "memory") 1 4)
  (table 4 funcref)
  (elem (i32.const 0) $add $sub $mul)
  (global $g (mut i32) (i32.const 0))
  (global $fref funcref (ref.func $mul))

  (func $add (type $binop) (i32.add (local.get 0) (local.get 1)))
  (func $sub (type $binop) (i32.sub (local.get 0) (local.get 1)))
  (func $mul (type $binop) (i32.mul (local.get 0) (local.get 1)))

  ;; fuel(n) = 7 if n < 2 else 15 + fuel(n-1) + fuel(n-2)
  (func $fib (export "fib") (param $n i32) (result i32)
    (if (result i32) (i32.lt_u (local.get $n) (i32.const 2))
      (then (local.get $n))
      (else (i32.add (call $fib (i32.sub (local.get $n) (i32.const 1)))
                     (call $fib (i32.sub (local.get $n) (i32.const 2)))))))

  ;; fuel(n) = 6n for n >= 1
  (func $count (export "count") (param $n i32)
    (loop $l
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br_if $l (local.get $n))))

  (func $sum (export "sum") (param $n i32) (result i64)
    (local $acc i64)
    (block $done
      (loop $top
        (br_if $done (i32.eqz (local.get $n)))
        (local.set $acc (i64.add (local.get $acc) (i64.extend_i32_u (local.get $n))))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $top)))
    (local.get $acc))

  (func $classify (export "classify") (param i32) (result i32)
    (block $d
      (block $c
        (block $b
          (block $a
            (br_table $a $b $c $d (local.get 0)))
          (return (i32.const 100)))
        (return (i32.const 200)))
      (return (i32.const 300)))
    (i32.const 400))

  (func $dispatch (export "dispatch") (param i32 i32 i32) (result i32)
    (call_indirect (type $binop) (local.get 1) (local.get 2) (local.get 0)))

  (func $viaref (export "viaref") (param i32 i32) (result i32)
    (table.set 0 (i32.const 3) (global.get $fref))
    (call_indirect (type $binop) (local.get 0) (local.get 1) (i32.const 3)))

  (func $divmod (export "divmod") (param i32 i32) (result i32 i32)
    (block (result i32 i32)
      (i32.div_u (local.get 0) (local.get 1))
      (i32.rem_u (local.get 0) (local.get 1))))

  (func $swapif (export "swapif") (param i32 i32 i32) (result i32 i32)
    (local.get 0) (local.get 1)
    (if (param i32 i32) (result i32 i32) (local.get 2)
      (then (block (param i32 i32) (result i32 i32) (call $swap)))
      (else (nop))))
  (func $swap (param i32 i32) (result i32 i32) (local.get 1) (local.get 0))

  (func $grow (export "grow") (param i32) (result i32) (memory.grow (local.get 0)))
  (func $size (export "size") (result i32) (memory.size))

  (func $spin (export "spin") (loop $l (br $l)))

  ;; a loop whose header calls a function that checks: the loop check is left out
  (func $spincall (export "spincall")
    (drop (call $fib (i32.const 0)))
    (loop $l (drop (call $fib (i32.const 1))) (br $l)))

  (func $logn (export "logn") (param $n i32)
    (loop $l
      (call $log (local.get $n))
      (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1))))))

  (func $refs (export "refs") (result i32)
    (ref.is_null (ref.func $add)))

  (func $bulk (export "bulk") (result i32)
    (memory.fill (i32.const 100) (i32.const 7) (i32.const 10))
    (memory.copy (i32.const 200) (i32.const 100) (i32.const 10))
    (i32.load8_u (i32.const 209)))

  (func $init (global.set $g (i32.const 7)))
  (start $init)
  (func $getg (export "getg") (result i32) (global.get $g))
)
