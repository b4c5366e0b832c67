;; A small module for load benchmarks and wrong-module snapshot checks.
(module
  (memory (export "memory") 1)
  (global $g (mut i32) (i32.const 0))
  (func (export "add") (param i32 i32) (result i32) (i32.add (local.get 0) (local.get 1))))
