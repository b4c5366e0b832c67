;; A guest without memory that calls a host function.
(module
  (import "env" "ctx_value" (func $ctx_value (result i64)))
  (global (export "g") (mut i32) (i32.const 0))
  (func (export "ctx_value") (result i64) (call $ctx_value))
)
