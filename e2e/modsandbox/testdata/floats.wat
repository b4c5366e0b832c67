;; floats: operations whose NaN results differ between engines unless
;; canonicalised. Each returns the bit pattern (i64 or i32) and also stores
;; it at 8*slot in memory, so the snapshot compares it too.
;; Build: wat2wasm floats.wat -o floats.wasm
(module
  (memory (export "memory") 1)
  (func $keep64 (param $slot i32) (param $v i64) (result i64)
    (i64.store (i32.shl (local.get $slot) (i32.const 3)) (local.get $v))
    (local.get $v))
  (func $keep32 (param $slot i32) (param $v i32) (result i32)
    (i32.store (i32.shl (local.get $slot) (i32.const 3)) (local.get $v))
    (local.get $v))
  ;; 0/0, inf-inf, sqrt(-1)
  (func (export "div") (param f64 f64) (result i64)
    (call $keep64 (i32.const 0) (i64.reinterpret_f64 (f64.div (local.get 0) (local.get 1)))))
  (func (export "infsub") (result i64)
    (call $keep64 (i32.const 1) (i64.reinterpret_f64
      (f64.sub (f64.const inf) (f64.const inf)))))
  (func (export "sqrtneg") (param f64) (result i64)
    (call $keep64 (i32.const 2) (i64.reinterpret_f64 (f64.sqrt (f64.neg (local.get 0))))))
  ;; a NaN with a payload and its sign flipped, through arithmetic
  (func (export "payload") (result i64)
    (call $keep64 (i32.const 3) (i64.reinterpret_f64
      (f64.add (f64.reinterpret_i64 (i64.const 0xfff4000000000123)) (f64.const 1)))))
  ;; min/max with a NaN operand
  (func (export "minnan") (result i64)
    (call $keep64 (i32.const 4) (i64.reinterpret_f64
      (f64.min (f64.reinterpret_i64 (i64.const 0x7ff0000000000001)) (f64.const 2)))))
  ;; f32: 0/0, and a payload NaN through promote and demote
  (func (export "div32") (param f32 f32) (result i32)
    (call $keep32 (i32.const 5) (i32.reinterpret_f32 (f32.div (local.get 0) (local.get 1)))))
  (func (export "promote") (result i64)
    (call $keep64 (i32.const 6) (i64.reinterpret_f64
      (f64.promote_f32 (f32.reinterpret_i32 (i32.const 0xff800123))))))
  (func (export "demote") (result i32)
    (call $keep32 (i32.const 7) (i32.reinterpret_f32
      (f32.demote_f64 (f64.reinterpret_i64 (i64.const 0x7ff0000000000abc))))))
  ;; a NaN returned as a float: JavaScript sees NaN, Go the canonical bits
  (func (export "nanvalue") (result f64)
    (f64.div (f64.const 0) (f64.const 0)))
  (func (export "mul") (param f64 f64) (result f64) (f64.mul (local.get 0) (local.get 1)))
  ;; everything at once: the sum of the stored bit patterns
  (func (export "all") (result i64)
    (local $i i32) (local $s i64)
    (block $d (loop $l
      (br_if $d (i32.eq (local.get $i) (i32.const 8)))
      (local.set $s (i64.add (local.get $s) (i64.load (i32.shl (local.get $i) (i32.const 3)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $l)))
    (local.get $s)))
