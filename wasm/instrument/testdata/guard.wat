;; Test program for the determinism and snapshot options of package
;; instrument. Build: wat2wasm --enable-tail-call guard.wat -o guard.wasm
(module
  (memory 1 3)
  (global $counter (mut i32) (i32.const 5))
  (global $const i32 (i32.const 9))
  (global $wide (mut i64) (i64.const -1))

  ;; NaN makers: the results' bits are returned as integers.
  (func (export "div32") (param f32 f32) (result i32)
    (i32.reinterpret_f32 (f32.div (local.get 0) (local.get 1))))
  (func (export "add64") (param f64 f64) (result i64)
    (i64.reinterpret_f64 (f64.add (local.get 0) (local.get 1))))
  (func (export "sqrt64") (param f64) (result i64)
    (i64.reinterpret_f64 (f64.sqrt (local.get 0))))
  (func (export "neg32") (param f32) (result i32) ;; a bit operation: kept
    (i32.reinterpret_f32 (f32.neg (local.get 0))))
  (func (export "vadd32") (param i32 i32) (result i32 i32)
    (local $v v128)
    (local.set $v (f32x4.add
      (i32x4.splat (local.get 0))
      (f32x4.splat (f32.const 1))))
    (i32x4.extract_lane 0 (local.get $v))
    (i32x4.extract_lane 1 (f32x4.mul (i32x4.splat (local.get 1)) (local.get $v))))
  (func (export "vadd64") (param i64) (result i64)
    (i64x2.extract_lane 1 (f64x2.add (i64x2.splat (local.get 0)) (f64x2.splat (f64.const 2)))))

  ;; recursion: depth(n) calls itself n times and returns n
  (func $depth (export "depth") (param $n i32) (result i32)
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (i32.add (i32.const 1) (call $depth (i32.sub (local.get $n) (i32.const 1)))))
  ;; the same with br_if and br_table to the function's label:
  ;; depthbr(0) = 0, depthbr(n) = n + 6
  (func $depthbr (export "depthbr") (param $n i32) (result i32)
    (drop (br_if 0 (i32.const 0) (i32.eqz (local.get $n))))
    (drop (block $b (result i32)
      (br_table $b 1 (i32.const 7) (i32.eq (local.get $n) (i32.const 1)))))
    (i32.add (i32.const 1) (call $depthbr (i32.sub (local.get $n) (i32.const 1)))))
  (func $pair (export "pair") (param i32) (result i32 i32)
    (if (local.get 0) (then (return (i32.const 1) (i32.const 2))))
    (i32.const 3) (i32.const 4))
  (func $tail (export "tail") (param $n i32) (result i32)
    (if (i32.eqz (local.get $n)) (then (return (i32.const 42))))
    (return_call $tail (i32.sub (local.get $n) (i32.const 1))))

  (func (export "grow") (param i32) (result i32)
    (memory.grow (local.get 0)))
  (func (export "bump") (result i32)
    (global.set $counter (i32.add (global.get $counter) (i32.const 1)))
    (global.get $counter))
)
