;; A memory without maximum. Build: wat2wasm nomax.wat -o nomax.wasm
(module
  (memory 2)
  (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0)))
)
