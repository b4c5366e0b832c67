package cguest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
)

// watCases are WebAssembly text modules, valid and not.
var watCases = map[string]string{
	"empty":  "(module)",
	"add":    "(module (func (export \"add\") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))",
	"memory": "(module (memory (export \"mem\") 1 2) (data (i32.const 8) \"hi\\00\") (global $g (mut i64) (i64.const -1)))",
	"loops": `(module
  (func $fac (export "fac") (param i64) (result i64)
    (if (result i64) (i64.eqz (local.get 0))
      (then (i64.const 1))
      (else (i64.mul (local.get 0) (call $fac (i64.sub (local.get 0) (i64.const 1)))))))
  (func (export "sum") (param $n i32) (result i32) (local $s i32)
    (block $done (loop $l
      (br_if $done (i32.eqz (local.get $n)))
      (local.set $s (i32.add (local.get $s) (local.get $n)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $l)))
    (local.get $s)))`,
	"imports":      "(module (import \"wasi_snapshot_preview1\" \"proc_exit\" (func (param i32))) (table 2 funcref) (elem (i32.const 0) 0))",
	"simd":         "(module (func (result v128) v128.const i32x4 1 2 3 4))",
	"type error":   "(module (func (result i32) i32.const 1 i64.const 2 i32.add))",
	"syntax":       "(module (func (result i32) i32.const))",
	"unknown op":   "(module (func i32.frobnicate))",
	"bad label":    "(module (func br 3))",
	"unterminated": "(module (func",
}

// helloWat writes "hello from wat" through WASI.
const helloWat = `(module
  (import "wasi_snapshot_preview1" "fd_write" (func $w (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "hello from wat\n")
  (func (export "_start")
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 15))
    (drop (call $w (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
`

// TestWat2wasm compares wat2wasm in the sandbox with Debian's (package
// wabt, the same 1.0.32): the same bytes out, the same messages.
func TestWat2wasm(t *testing.T) {
	sb := newSandbox(t, sandbox.Options{})
	const native = "/usr/bin/wat2wasm"
	needOracle(t, native)
	i := 0
	for name, wat := range watCases {
		i++
		t.Run(name, func(t *testing.T) {
			cmd := `wat2wasm m.wat -o m.wasm; echo "exit $?"; test -f m.wasm && od -An -tx1 m.wasm | tr -d ' \n' | sha256sum`
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "m.wat"), []byte(wat), 0o644); err != nil {
				t.Fatal(err)
			}
			want := oracle(t, "", nil, "/bin/bash", "-c", "cd "+dir+" && "+cmd)
			got := inSandbox(t, sb, 3000+i, "", cmd, map[string]string{"m.wat": wat}, nil)
			if got != want {
				t.Errorf("%s\n=== host:\n%v\n=== sandbox:\n%v", wat, want, got)
			}
		})
	}
	// Its output runs as a command.
	if err := sb.WriteFile("/home/user/hi.wat", []byte(helloWat), 0o644); err != nil {
		t.Fatal(err)
	}
	res := run(t, sb, `cd /home/user && wat2wasm hi.wat -o hi.wasm && chmod +x hi.wasm && ./hi.wasm`)
	if got := string(res.Stdout); got != "hello from wat\n" {
		t.Errorf("got %q, exit %d, stderr %q", got, res.ExitCode, res.Stderr)
	}
}
