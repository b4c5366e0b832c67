;; Its start function loops forever: instantiation must stop.
(module
  (func $s (loop $l (br $l)))
  (start $s))
