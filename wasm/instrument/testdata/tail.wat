;; Tail calls. Build: wat2wasm --enable-tail-call tail.wat -o tail.wasm
(module
  (func $loop (export "loop") (param $n i32) (param $acc i64) (result i64)
    (if (result i64) (i32.eqz (local.get $n))
      (then (local.get $acc))
      (else (return_call $loop (i32.sub (local.get $n) (i32.const 1))
                              (i64.add (local.get $acc) (i64.extend_i32_u (local.get $n)))))))
  (func $forever (export "forever") (return_call $forever))
)
