;; An imported memory without maximum. Build: wat2wasm importmem.wat -o importmem.wasm
(module
  (import "env" "mem" (memory 1))
  (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0)))
)
