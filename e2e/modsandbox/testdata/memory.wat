;; memory: growth, the memory cap and a checksum of memory.
;; Build: wat2wasm memory.wat -o memory.wasm
(module
  (memory (export "memory") 1)
  ;; grow(pages) -> the old size in pages, or -1 past the cap
  (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0)))
  (func (export "size") (result i32) (memory.size))
  ;; fill(seed): writes an LCG sequence over all of memory
  (func (export "fill") (param $x i32)
    (local $p i32) (local $end i32)
    (local.set $end (i32.mul (memory.size) (i32.const 65536)))
    (block $d (loop $l
      (br_if $d (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
      (i32.store (local.get $p) (local.get $x))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (br $l))))
  ;; sum() of all memory, 32 bits at a time
  (func (export "sum") (result i32)
    (local $p i32) (local $end i32) (local $s i32)
    (local.set $end (i32.mul (memory.size) (i32.const 65536)))
    (block $d (loop $l
      (br_if $d (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $s (i32.add (i32.rotl (local.get $s) (i32.const 5)) (i32.load (local.get $p))))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (br $l)))
    (local.get $s))
  ;; hog grows a page at a time until refused, then traps
  (func (export "hog")
    (loop $l (br_if $l (i32.ne (memory.grow (i32.const 1)) (i32.const -1))))
    unreachable)
  (func (export "oob") (result i32) (i32.load (i32.const -4))))
