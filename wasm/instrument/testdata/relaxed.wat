(module (func (export "f") (param v128 v128) (result v128) (f32x4.relaxed_min (local.get 0) (local.get 1))))
