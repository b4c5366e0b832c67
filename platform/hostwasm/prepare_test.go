//go:build js && wasm

package hostwasm

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"syscall/js"
	"testing"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
)

// TestCompilePrepared compiles Prepare's output, as a store hands it to a
// later process: the module behaves as Compile's (host calls, memory
// recycling, globals) and the engine knows the same of it.
func TestCompilePrepared(t *testing.T) {
	ctx := context.WithValue(context.Background(), ctxKey{}, "call ctx")
	e, err := NewEngine(testHost())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	prepared, err := e.Prepare(ctx, testModule())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := binary.Decode(prepared); err != nil {
		t.Fatalf("Prepare's output does not decode: %v", err)
	}
	before := compiles.Load()
	mod, err := e.CompilePrepared(ctx, bytes.Clone(prepared))
	if err != nil {
		t.Fatal(err)
	}
	if n := compiles.Load() - before; n != 1 {
		t.Errorf("CompilePrepared counted %d compiles; want 1", n)
	}
	ref, err := e.Compile(ctx, testModule())
	if err != nil {
		t.Fatal(err)
	}
	got, want := mod.(*module).c, ref.(*module).c
	if !reflect.DeepEqual(got.exports, want.exports) || !reflect.DeepEqual(got.funcs, want.funcs) ||
		!reflect.DeepEqual(got.globals, want.globals) || !reflect.DeepEqual(got.imports, want.imports) ||
		!reflect.DeepEqual(got.mem, want.mem) || !reflect.DeepEqual(got.table, want.table) {
		t.Errorf("CompilePrepared's description differs from Compile's:\n got %+v\nwant %+v", got, want)
	}
	if got.mem == nil {
		t.Fatal("the prepared module does not import its memory")
	}

	a, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := a.Call(ctx, "add", 40, 2); err != nil || r[0] != 42 {
		t.Fatalf("add(40, 2) = %v, %v", r, err)
	}
	if _, err := a.Call(ctx, "poke", 100); err != nil {
		t.Fatal(err)
	}
	if v, ok := a.Global("c"); !ok || v != 9 {
		t.Fatalf("Global(c) = %d, %v", v, ok)
	}
	a.Close(ctx)
	b, err := mod.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(ctx)
	if r, err := b.Call(ctx, "peek", 100); err != nil || r[0] != 0 {
		t.Errorf("peek(100) in the next instance = %v, %v; want 0", r, err)
	}
}

// TestCompilePreparedRefuses gives CompilePrepared bytes Prepare did not
// write, or whose description is damaged.
func TestCompilePreparedRefuses(t *testing.T) {
	ctx := context.Background()
	e, err := NewEngine(testHost())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	plain := testModule()
	withMeta := func(desc string) []byte {
		return append(binary.AppendCustom(bytes.Clone(plain[:8]), preparedSection, []byte(desc)), plain[8:]...)
	}
	prepared, err := e.Prepare(ctx, plain)
	if err != nil {
		t.Fatal(err)
	}
	for name, bin := range map[string][]byte{
		"not prepared":       plain,
		"damaged section":    withMeta("{not json"),
		"a memory import":    withMeta(`{"Imports":[{"Module":"env","Name":"m","Kind":2}]}`),
		"an unknown import":  withMeta(`{"Imports":[{"Module":"env","Name":"nosuch","Kind":0}]}`),
		"a table of externs": withMeta(`{"Table":{"Elem":111}}`),
		"truncated":          prepared[:len(prepared)/2],
		"not wasm":           []byte("not wasm"),
	} {
		if _, err := e.CompilePrepared(ctx, bin); !errors.Is(err, wasm.ErrInvalidModule) {
			t.Errorf("%s: CompilePrepared error %v; want ErrInvalidModule", name, err)
		}
	}
	if _, err := e.Prepare(ctx, []byte("not wasm")); err == nil {
		t.Error("Prepare accepted bytes that are not a module")
	}
}

// TestLoadModule hands a store's prepared module to the engine without
// the bytes entering Go; what is not a prepared module is a miss.
func TestLoadModule(t *testing.T) {
	ctx := context.WithValue(context.Background(), ctxKey{}, "call ctx")
	e, err := NewEngine(testHost())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	prepared, err := e.Prepare(ctx, testModule())
	if err != nil {
		t.Fatal(err)
	}
	// store(v) is a JavaScript store whose load resolves to v, or throws
	// for "throw" or a key other than the one LoadModule is given.
	makeLoad := js.Global().Get("Function").New("v", `return (raw, variant) => {
		if (!(raw instanceof Uint8Array) || raw.length !== 3 || variant !== 'variant') throw new Error('load was given the wrong key');
		if (v === 'throw') throw new Error('load failed');
		return Promise.resolve(v);
	}`)
	store := func(v any) jsModuleStore {
		obj := js.Global().Get("Object").New()
		obj.Set("load", makeLoad.Invoke(v))
		return jsModuleStore{obj}
	}
	raw := []byte{1, 2, 3}
	m, ok := store(bytesToJS(prepared)).LoadModule(ctx, e, raw, "variant")
	if !ok {
		t.Fatal("LoadModule missed a prepared module")
	}
	inst, err := m.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close(ctx)
	if r, err := inst.Call(ctx, "add", 1, 2); err != nil || r[0] != 3 {
		t.Fatalf("add(1, 2) = %v, %v", r, err)
	}
	if _, ok := store(bytesToJS(prepared).Get("buffer")).LoadModule(ctx, e, raw, "variant"); !ok {
		t.Error("LoadModule missed a prepared module given as an ArrayBuffer")
	}
	for name, v := range map[string]any{
		"null":         nil,
		"not prepared": bytesToJS(testModule()),
		"not wasm":     bytesToJS([]byte("not wasm")),
		"a string":     "x",
		"throw":        "throw",
	} {
		if _, ok := store(v).LoadModule(ctx, e, raw, "variant"); ok {
			t.Errorf("%s: LoadModule hit", name)
		}
	}
}
