;; A module whose start section traps during instantiation.
(module
  (func $start unreachable)
  (start $start)
)
