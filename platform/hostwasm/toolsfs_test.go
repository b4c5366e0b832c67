//go:build js && wasm

package hostwasm

import (
	"context"
	"encoding/hex"
	"io"
	"syscall/js"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
)

var (
	_ sandbox.ToolIdentifier    = (*toolsFS)(nil)
	_ sandbox.ToolDigester      = (*toolsFS)(nil)
	_ sandbox.DigestStore       = jsModuleStore{}
	_ sandbox.DigestReaderStore = jsModuleStore{}
)

func jsBytes(s string) js.Value {
	v := jsUint8Array.New(len(s))
	js.CopyBytesToJS(v, []byte(s))
	return v
}

// TestToolID checks that a tools FS names bytes by the object holding
// them: the same Uint8Array or ArrayBuffer in two FSes gets one ID,
// equal contents in another object another, and a loader function is
// called once, its bytes named and read alike.
func TestToolID(t *testing.T) {
	shared, buf := jsBytes("shared"), jsBytes("buffer").Get("buffer")
	calls := 0
	loader := js.FuncOf(func(js.Value, []js.Value) any {
		calls++
		return jsPromise.Call("resolve", jsBytes("loaded"))
	})
	defer loader.Release()
	newFS := func(files map[string]any) *toolsFS {
		t.Helper()
		fsys, bad := newToolsFS(js.ValueOf(files))
		if bad != "" {
			t.Fatalf("newToolsFS: bad file %q", bad)
		}
		return fsys
	}
	a := newFS(map[string]any{"s.wasm": shared, "b.wasm": buf, "copy.wasm": jsBytes("shared"), "l.wasm": loader.Value})
	b := newFS(map[string]any{"s.wasm": shared, "b.wasm": buf, "l.wasm": loader.Value})
	id := func(fsys *toolsFS, name string) string {
		t.Helper()
		s, err := fsys.ToolID(name)
		if err != nil {
			t.Fatalf("ToolID(%q): %v", name, err)
		}
		return s
	}
	if x, y := id(a, "s.wasm"), id(b, "s.wasm"); x != y {
		t.Errorf("one Uint8Array in two FSes: IDs %q and %q, want one", x, y)
	}
	if x, y := id(a, "b.wasm"), id(b, "b.wasm"); x != y {
		t.Errorf("one ArrayBuffer in two FSes: IDs %q and %q, want one", x, y)
	}
	if x, y := id(a, "s.wasm"), id(a, "copy.wasm"); x == y {
		t.Errorf("equal bytes in two Uint8Arrays share the ID %q", x)
	}
	first := id(a, "l.wasm")
	if again := id(a, "l.wasm"); again != first || calls != 1 {
		t.Errorf("loader: IDs %q then %q after %d calls, want one ID after 1 call", first, again, calls)
	}
	if got, err := a.ReadFile("l.wasm"); err != nil || string(got) != "loaded" || calls != 1 {
		t.Errorf("ReadFile after ToolID = %q, %v after %d loader calls, want \"loaded\" after 1", got, err, calls)
	}
	if other := id(b, "l.wasm"); other == first || calls != 2 {
		t.Errorf("a loader giving a new Uint8Array: ID %q (first %q) after %d calls, want a new ID after 2", other, first, calls)
	}
	if _, err := a.ToolID("none.wasm"); err == nil {
		t.Error("ToolID of a missing file: no error")
	}
}

// TestToolIDOfNamedLoader checks that a loader function with an id is
// named by it without being called, in every FS that has it, and that
// the bytes it gives are read but not kept.
func TestToolIDOfNamedLoader(t *testing.T) {
	calls := 0
	loader := js.FuncOf(func(js.Value, []js.Value) any {
		calls++
		return jsPromise.Call("resolve", jsBytes("loaded"))
	})
	defer loader.Release()
	named := func(id string) js.Value {
		f := js.Global().Get("Function").New("f", "return (...a) => f(...a)").Invoke(loader.Value)
		f.Set("id", id)
		return f
	}
	a, bad := newToolsFS(js.ValueOf(map[string]any{"n.wasm": named("file:///t/n.wasm#6-1"), "o.wasm": named("other")}))
	b, bad2 := newToolsFS(js.ValueOf(map[string]any{"n.wasm": named("file:///t/n.wasm#6-1")}))
	if bad != "" || bad2 != "" {
		t.Fatalf("newToolsFS: bad files %q %q", bad, bad2)
	}
	x, err := a.ToolID("n.wasm")
	y, err2 := b.ToolID("n.wasm")
	if err != nil || err2 != nil || x != y || x != "id:file:///t/n.wasm#6-1" || calls != 0 {
		t.Fatalf("two loaders with one id: IDs %q, %q (%v, %v) after %d calls, want one, from the id, after none", x, y, err, err2, calls)
	}
	if o, _ := a.ToolID("o.wasm"); o == x {
		t.Errorf("loaders with two ids share the ID %q", o)
	}
	for k := 1; k <= 2; k++ {
		if got, err := a.ReadFile("n.wasm"); err != nil || string(got) != "loaded" || calls != k {
			t.Fatalf("ReadFile #%d = %q, %v after %d loader calls, want \"loaded\" after %d", k, got, err, calls, k)
		}
	}
	if v := a.files["n.wasm"]; v.Type() != js.TypeFunction {
		t.Errorf("the bytes a named loader gave were kept (%s)", jsString(v))
	}

	// An id is read on first use, not when the FS is made; one that throws
	// is no id.
	getter := js.Global().Get("Function").New("f", `
		const g = (...a) => f(...a); g.reads = 0;
		Object.defineProperty(g, 'id', { get() { g.reads++; return 'lazy'; } });
		const bad = (...a) => f(...a);
		Object.defineProperty(bad, 'id', { get() { throw new Error('no id'); } });
		return [g, bad];`).Invoke(loader.Value)
	lazy, throws := getter.Index(0), getter.Index(1)
	c, bad3 := newToolsFS(js.ValueOf(map[string]any{"g.wasm": lazy, "t.wasm": throws}))
	if bad3 != "" || lazy.Get("reads").Int() != 0 {
		t.Fatalf("newToolsFS read the id %d times (bad file %q)", lazy.Get("reads").Int(), bad3)
	}
	if id, err := c.ToolID("g.wasm"); err != nil || id != "id:lazy" {
		t.Errorf("ToolID of a loader with an id getter = %q, %v", id, err)
	}
	before := calls
	if id, err := c.ToolID("t.wasm"); err != nil || id == "" || calls != before+1 {
		t.Errorf("ToolID of a loader whose id throws = %q, %v after %d calls; want it named by its bytes", id, err, calls-before)
	}
}

// TestLoadDigestReader checks that a store's entry read in place gives the
// bytes asked for, EOF at its end, and misses for a missing entry or a
// store without loadDigest.
func TestLoadDigestReader(t *testing.T) {
	ctx := context.Background()
	var sum [32]byte
	sum[0] = 0xab
	want := hex.EncodeToString(sum[:])
	loadDigest := js.FuncOf(func(this js.Value, args []js.Value) any {
		if args[0].String() != want || args[1].String() != "files" {
			return jsPromise.Call("resolve", js.Null())
		}
		return jsPromise.Call("resolve", jsBytes("0123456789"))
	})
	defer loadDigest.Release()
	obj := js.Global().Get("Object").New()
	obj.Set("loadDigest", loadDigest)
	st := jsModuleStore{obj}
	r, n, ok := st.LoadDigestReader(ctx, sum, "files")
	if !ok || n != 10 {
		t.Fatalf("LoadDigestReader = %v, %d, %v; want a reader of 10 bytes", r, n, ok)
	}
	p := make([]byte, 4)
	if k, err := r.ReadAt(p, 3); k != 4 || err != nil || string(p) != "3456" {
		t.Errorf("ReadAt(4 at 3) = %d, %v, %q", k, err, p)
	}
	if k, err := r.ReadAt(p, 8); k != 2 || err != io.EOF || string(p[:2]) != "89" {
		t.Errorf("ReadAt(4 at 8) = %d, %v, %q; want 2, EOF, 89", k, err, p[:2])
	}
	if k, err := r.ReadAt(p, 11); k != 0 || err != io.EOF {
		t.Errorf("ReadAt past the end = %d, %v; want 0, EOF", k, err)
	}
	if _, _, ok := st.LoadDigestReader(ctx, sum, "other"); ok {
		t.Error("a missing entry was found")
	}
	if _, _, ok := (jsModuleStore{js.Global().Get("Object").New()}).LoadDigestReader(ctx, sum, "files"); ok {
		t.Error("a store without loadDigest found an entry")
	}
}
