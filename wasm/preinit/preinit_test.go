package preinit_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/preinit"
)

func readReactor(tb testing.TB) []byte {
	tb.Helper()
	b, err := os.ReadFile("testdata/reactor.wasm")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// runCommand runs a WASI command with args in wazero and returns its
// standard output.
func runCommand(tb testing.TB, bin []byte, args ...string) string {
	tb.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	var out bytes.Buffer
	_, err := rt.InstantiateWithConfig(ctx, bin, wazero.NewModuleConfig().WithArgs(args...).WithStdout(&out))
	if err != nil {
		tb.Fatalf("running the image with %q: %v", args, err)
	}
	return out.String()
}

func TestImageRuns(t *testing.T) {
	img, err := preinit.Image(context.Background(), readReactor(t), preinit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Each run is a fresh instance of the image: initialisation ran once,
	// before the image was made, and the arguments are each run's own.
	for _, args := range [][]string{{"prog", "a"}, {"other", "b", "c"}} {
		got := runCommand(t, img, args...)
		want := "init:done 1 " + string(bytes.Join(toBytes(args), []byte{0})) + "\x00"
		if got != want {
			t.Errorf("args %q: output %q, want %q", args, got, want)
		}
	}
}

func toBytes(ss []string) [][]byte {
	var bs [][]byte
	for _, s := range ss {
		bs = append(bs, []byte(s))
	}
	return bs
}

func TestImageState(t *testing.T) {
	img, err := preinit.Image(context.Background(), readReactor(t), preinit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := binary.Decode(img)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Memories[0].Min; got != 2 {
		t.Errorf("memory minimum %d pages, want 2 (grown during initialisation)", got)
	}
	wantInit := map[int][]byte{
		0: {byte(binary.OpI32Const), 1, byte(binary.OpEnd)},
		1: {byte(binary.OpI64Const), 0x7b, byte(binary.OpEnd)}, // -5
		2: {byte(binary.OpI32Const), 9, byte(binary.OpEnd)},
	}
	for i, want := range wantInit {
		if got := m.Globals[i].Init; !bytes.Equal(got, want) {
			t.Errorf("global %d starts with % x, want % x", i, got, want)
		}
	}
	var names []string
	for _, e := range m.Exports {
		names = append(names, e.Name)
	}
	for _, e := range m.Exports {
		if e.Name == preinit.InitName {
			t.Errorf("the image still exports %s: %q", preinit.InitName, names)
		}
	}
	if m.Exports[len(m.Exports)-1].Name != "_start" {
		t.Errorf("exports %q, want _start last", names)
	}
	mem := make([]byte, 2<<16)
	for _, d := range m.Datas {
		copy(mem[leb(d.Offset[1:]):], d.Init)
	}
	if got := string(mem[16:26]); got != "init:done " {
		t.Errorf("memory at 16: %q, want %q", got, "init:done ")
	}
	if mem[70000] != 7 {
		t.Errorf("memory at 70000 is %d, want 7 (written after memory.grow)", mem[70000])
	}
	if bytes.Equal(mem[1024:1040], make([]byte, 16)) {
		t.Errorf("random_get left no bytes at 1024")
	}
}

// leb reads an unsigned LEB128 number (small offsets only).
func leb(b []byte) uint64 {
	var v uint64
	for i, c := range b {
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			break
		}
	}
	return v
}

func TestImageDeterministic(t *testing.T) {
	bin := readReactor(t)
	opts := preinit.Options{Args: []string{"x"}, Env: []string{"A=1"}, Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	a, err := preinit.Image(context.Background(), bin, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := preinit.Image(context.Background(), bin, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two images of the same module differ")
	}
}

// module builds a module with one memory, the given imports (all of type
// () -> ()) and function bodies, each exported under its name.
func module(imports []binary.Import, funcs map[string][]byte) []byte {
	m := &binary.Module{
		Types:    []binary.FuncType{{}, {Params: []binary.ValType{binary.I32}}},
		Imports:  imports,
		Memories: []binary.Limits{{Min: 1}},
	}
	n := m.NumImported(binary.ExternFunc)
	for _, name := range []string{"_initialize", "wasmsand_main", "_start"} {
		body, ok := funcs[name]
		if !ok {
			continue
		}
		m.Exports = append(m.Exports, binary.Export{Name: name, Kind: binary.ExternFunc, Index: n + uint32(len(m.Funcs))})
		m.Funcs = append(m.Funcs, 0)
		m.Codes = append(m.Codes, binary.Code{Body: body})
	}
	return m.Encode()
}

var (
	nop  = []byte{byte(binary.OpEnd)}
	trap = []byte{byte(binary.OpUnreachable), byte(binary.OpEnd)}
)

func TestImageErrors(t *testing.T) {
	procExit := binary.Import{Module: "wasi_snapshot_preview1", Name: "proc_exit", Kind: binary.ExternFunc, Func: 1}
	other := binary.Import{Module: "env", Name: "log", Kind: binary.ExternFunc, Func: 0}
	tests := []struct {
		name string
		bin  []byte
		want error
		init bool // want an *InitError
	}{
		{"garbage", []byte("not wasm at all"), wasm.ErrInvalidModule, false},
		{"truncated", readReactor(t)[:100], wasm.ErrInvalidModule, false},
		{"command", module(nil, map[string][]byte{"_start": nop}), preinit.ErrNotReactor, false},
		{"no entry", module(nil, map[string][]byte{"_initialize": nop}), preinit.ErrNotReactor, false},
		{"no init", module(nil, map[string][]byte{"wasmsand_main": nop}), preinit.ErrNotReactor, false},
		{"imported memory", func() []byte {
			m, _ := binary.Decode(module(nil, map[string][]byte{"_initialize": nop, "wasmsand_main": nop}))
			m.Memories = nil
			m.Imports = []binary.Import{{Module: "env", Name: "memory", Kind: binary.ExternMemory, Memory: binary.Limits{Min: 1}}}
			return m.Encode()
		}(), preinit.ErrUnsupported, false},
		{"trap", module(nil, map[string][]byte{"_initialize": trap, "wasmsand_main": nop}), nil, true},
		{"exit", module([]binary.Import{procExit}, map[string][]byte{
			"_initialize":   {byte(binary.OpI32Const), 3, byte(binary.OpCall), 0, byte(binary.OpEnd)},
			"wasmsand_main": nop,
		}), nil, true},
		{"other import", module([]binary.Import{other}, map[string][]byte{
			"_initialize":   {byte(binary.OpCall), 0, byte(binary.OpEnd)},
			"wasmsand_main": nop,
		}), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img, err := preinit.Image(context.Background(), tt.bin, preinit.Options{})
			if err == nil {
				t.Fatalf("no error; image of %d bytes", len(img))
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error %v, want one wrapping %v", err, tt.want)
			}
			var ie *preinit.InitError
			if errors.As(err, &ie) != tt.init {
				t.Errorf("error %v (%T): InitError %v, want %v", err, err, !tt.init, tt.init)
			}
		})
	}
}

func TestImageEntryOption(t *testing.T) {
	bin := module(nil, map[string][]byte{"_initialize": nop, "wasmsand_main": nop})
	if _, err := preinit.Image(context.Background(), bin, preinit.Options{Entry: "run"}); !errors.Is(err, preinit.ErrNotReactor) {
		t.Errorf("entry run: error %v, want ErrNotReactor", err)
	}
	img, err := preinit.Image(context.Background(), bin, preinit.Options{Entry: "wasmsand_main"})
	if err != nil {
		t.Fatal(err)
	}
	runCommand(t, img, "x")
}

func TestImageCancelled(t *testing.T) {
	// _initialize loops forever: the context ends it.
	bin := module(nil, map[string][]byte{
		"_initialize":   {byte(binary.OpLoop), 0x40, byte(binary.OpBr), 0, byte(binary.OpEnd), byte(binary.OpEnd)},
		"wasmsand_main": nop,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var ie *preinit.InitError
	if _, err := preinit.Image(ctx, bin, preinit.Options{}); !errors.As(err, &ie) {
		t.Errorf("error %v, want an InitError", err)
	}
}
