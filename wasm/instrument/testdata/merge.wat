;; Test program for package instrument: code after the end of a block, if
;; or loop that nothing leaves early is charged with the code before it.
;; Build: wat2wasm --debug-names merge.wat -o merge.wasm
(module
  ;; Regions with a charge of their own: the entry (which also pays for
  ;; the code after $a, after the if and after $out), the then and else
  ;; arms, the arm with br $out, and the code after that if (which br $out
  ;; skips). fuel = 6 + 4 + (x&2 ? 5 : 4) + 4 + (x&4 ? 1 : 4) + 1.
  (func $paths (export "paths") (param $x i32) (result i32)
    (local $r i32)
    (block $a
      (br_if $a (i32.and (local.get $x) (i32.const 1)))
      (local.set $r (i32.const 10)))
    (if (i32.and (local.get $x) (i32.const 2))
      (then (local.set $r (i32.add (local.get $r) (i32.const 1))))
      (else (local.set $r (i32.sub (local.get $r) (i32.const 1)))))
    (block $out
      (if (i32.and (local.get $x) (i32.const 4))
        (then (br $out)))
      (local.set $r (i32.mul (local.get $r) (i32.const 3))))
    (local.get $r))

  ;; A loop left only through its end, then a return from inside a block:
  ;; the code after that block has a region of its own.
  ;; fuel = 8n + (n > 5 ? 6 : 7) for n >= 1
  (func $loopret (export "loopret") (param $n i32) (result i32)
    (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (block $b
      (if (i32.gt_u (local.get $i) (i32.const 5))
        (then (return (local.get $i)))))
    (i32.mul (local.get $i) (i32.const 2))))
