;; Imports __get_time with the wrong type.
(module
  (import "env" "__get_time" (func (result i32)))
  (func (export "run")))
