;; Imports an env function no config declares, and one with a wrong type.
(module
  (import "env" "secret" (func (param i32)))
  (func (export "run")))
