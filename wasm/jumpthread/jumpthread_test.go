package jumpthread

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/internal/gobuild"
)

// workSource exercises what the resume machinery serves: goroutines
// switching on channels and select, stacks growing through deep
// recursion, panics and recovers, defers, the garbage collector, maps,
// sorting, closures and switches.
const workSource = `package main

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
)

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func deep(n int, pad [64]byte) int {
	if n == 0 {
		return int(pad[3])
	}
	pad[3]++
	return deep(n-1, pad) + 1
}

func classify(r rune) string {
	switch {
	case r >= 'a' && r <= 'z':
		return "lower"
	case r >= 'A' && r <= 'Z':
		return "upper"
	case r >= '0' && r <= '9':
		return "digit"
	case r == ' ':
		return "space"
	}
	return "other"
}

func mayPanic(i int) (res string) {
	defer func() {
		if r := recover(); r != nil {
			res = fmt.Sprint("recovered ", r)
		}
	}()
	if i%3 == 0 {
		panic(fmt.Sprintf("three %d", i))
	}
	var m map[string]int
	if i%5 == 0 {
		m["x"] = 1 // nil map: a runtime panic
	}
	return fmt.Sprint("fine ", i)
}

func main() {
	ch := make(chan int)
	done := make(chan bool)
	results := make(chan string, 100)
	for w := 0; w < 4; w++ {
		go func(w int) {
			for n := range ch {
				results <- fmt.Sprintf("w%d:%d", w%1, fib(n))
				runtime.Gosched()
			}
			done <- true
		}(w)
	}
	for i := 0; i < 20; i++ {
		ch <- i
	}
	close(ch)
	for w := 0; w < 4; w++ {
		<-done
	}
	close(results)
	var all []string
	for r := range results {
		all = append(all, r)
	}
	sort.Strings(all)
	fmt.Println(strings.Join(all, " "))

	fmt.Println("deep", deep(20000, [64]byte{}))

	counts := map[string]int{}
	for _, r := range "Hello, World 2024! The quick brown fox." {
		counts[classify(r)]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Print(k, "=", counts[k], " ")
	}
	fmt.Println()

	for i := 0; i < 8; i++ {
		fmt.Println(mayPanic(i))
	}

	var garbage [][]byte
	sum := 0
	for i := 0; i < 20000; i++ {
		b := make([]byte, 100+i%1000)
		b[0] = byte(i)
		sum += int(b[0])
		if i%100 == 0 {
			garbage = append(garbage, b)
		}
	}
	runtime.GC()
	fmt.Println("sum", sum, len(garbage))

	tick := make(chan int)
	quit := make(chan struct{})
	go func() {
		for i := 0; i < 50; i++ {
			tick <- i
		}
		close(quit)
	}()
	total := 0
loop:
	for {
		select {
		case v := <-tick:
			total += v
		case <-quit:
			break loop
		}
	}
	fmt.Println("total", total)
}
`

// runWASI runs a wasip1 command on plain wazero and returns its output.
func runWASI(t *testing.T, bin []byte) string {
	t.Helper()
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	var out, errOut bytes.Buffer
	_, err := r.InstantiateWithConfig(ctx, bin, wazero.NewModuleConfig().WithStdout(&out).WithStderr(&errOut))
	if err != nil {
		t.Fatalf("run: %v\nstderr: %s", err, errOut.Bytes())
	}
	return out.String()
}

func thread(t *testing.T, bin []byte) ([]byte, int) {
	t.Helper()
	m, err := binary.Decode(bin)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Module(m)
	if err != nil {
		t.Fatal(err)
	}
	return m.Encode(), n
}

func TestGoProgramRunsTheSame(t *testing.T) {
	bin := gobuild.Wasip1(t, workSource)
	threaded, n := thread(t, bin)
	if n < 1000 {
		t.Fatalf("only %d branches made direct in a Go program", n)
	}
	want, got := runWASI(t, bin), runWASI(t, threaded)
	if got != want {
		t.Fatalf("threaded output differs\nwant:\n%s\ngot:\n%s", want, got)
	}
	if want == "" {
		t.Fatal("no output")
	}
	t.Logf("%d branches direct; output:\n%s", n, got)
}

// TestOtherModulesUntouched: modules not shaped like Go's output (C, the
// instrumenter's test modules) come back byte for byte.
func TestOtherModulesUntouched(t *testing.T) {
	files, _ := filepath.Glob("../instrument/testdata/*.wasm")
	if len(files) == 0 {
		t.Fatal("no test modules in ../instrument/testdata")
	}
	for _, f := range files {
		bin, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := binary.Decode(bin)
		if err != nil {
			t.Fatal(err)
		}
		before := m.Encode()
		n, err := Module(m)
		if err != nil {
			t.Fatal(err)
		}
		if n != 0 || !bytes.Equal(m.Encode(), before) {
			t.Errorf("%s: %d branches changed", filepath.Base(f), n)
		}
	}
}

// dispatch builds a function of type (i32) -> i32 in Go's shape with
// three resume points: segment 0 jumps forward to segment 2 when its
// argument is 0 (PC 5 and 6 dispatch to it), segment 1 returns 10,
// segment 2 returns 20 after jumping back to segment 1 once local 1 is
// set.
//
//	block loop block block block
//	  local.get 0 br_table 0 0 1 1 1 2 2 (default 0)
//	end ;; segment 0
//	  local.get 0 i32.eqz if i32.const 6 local.set 0 br 3 end
//	  i32.const 2 local.set 0 br 2
//	end ;; segment 1
//	  local.get 1 if i32.const 30 return end i32.const 10 return
//	end ;; segment 2
//	  i32.const 1 local.set 1 i32.const 3 local.set 0 br 0
//	end end unreachable
func dispatch() []byte {
	return []byte{
		0x02, 0x40, 0x03, 0x40, 0x02, 0x40, 0x02, 0x40, 0x02, 0x40,
		0x20, 0x00, 0x0e, 0x07, 0, 0, 1, 1, 1, 2, 2, 0,
		0x0b,
		0x20, 0x00, 0x45, 0x04, 0x40, 0x41, 0x06, 0x21, 0x00, 0x0c, 0x03, 0x0b,
		0x41, 0x02, 0x21, 0x00, 0x0c, 0x02,
		0x0b,
		0x20, 0x01, 0x04, 0x40, 0x41, 30, 0x0f, 0x0b, 0x41, 10, 0x0f,
		0x0b,
		0x41, 0x01, 0x21, 0x01, 0x41, 0x03, 0x21, 0x00, 0x0c, 0x00,
		0x0b, 0x0b, 0x00, 0x0b,
	}
}

func TestRewritesForwardJumpsOnly(t *testing.T) {
	m := &binary.Module{
		Types:   []binary.FuncType{{Params: []binary.ValType{binary.I32}, Results: []binary.ValType{binary.I32}}},
		Funcs:   []uint32{0},
		Exports: []binary.Export{{Name: "f", Kind: binary.ExternFunc, Index: 0}},
		Codes:   []binary.Code{{Locals: []binary.LocalDecl{{Count: 1, Type: binary.I32}}, Body: dispatch()}},
	}
	orig := m.Encode()
	n, err := Module(m)
	if err != nil {
		t.Fatal(err)
	}
	// Segment 0's two jumps go forward (to segments 2 and 1); segment
	// 2's goes back to segment 1 and stays.
	if n != 2 {
		t.Fatalf("%d branches rewritten, want 2", n)
	}
	body := m.Codes[0].Body
	// br 3 (inside the if, to the loop) becomes br 2 (block 2); br 2
	// becomes br 0 (block 1, the innermost); the backward br 0 stays.
	if body[33] != 0x02 || body[40] != 0x00 || body[len(body)-5] != 0x00 {
		t.Fatalf("labels: % x", body)
	}
	ctx := context.Background()
	for _, bin := range [][]byte{orig, m.Encode()} {
		r := wazero.NewRuntime(ctx)
		mod, err := r.Instantiate(ctx, bin)
		if err != nil {
			t.Fatal(err)
		}
		for arg, want := range map[uint64]uint64{0: 30, 1: 10, 2: 10} {
			res, err := mod.ExportedFunction("f").Call(ctx, arg)
			if err != nil || res[0] != want {
				t.Errorf("f(%d) = %v, %v; want %d", arg, res, err, want)
			}
		}
		r.Close(ctx)
	}
}

// FuzzModule: Module never panics, and a module it accepts stays valid.
func FuzzModule(f *testing.F) {
	files, _ := filepath.Glob("../instrument/testdata/*.wasm")
	for _, file := range files {
		if bin, err := os.ReadFile(file); err == nil && len(bin) < 64<<10 {
			f.Add(bin)
		}
	}
	m := &binary.Module{
		Types: []binary.FuncType{{Params: []binary.ValType{binary.I32}, Results: []binary.ValType{binary.I32}}},
		Funcs: []uint32{0},
		Codes: []binary.Code{{Locals: []binary.LocalDecl{{Count: 1, Type: binary.I32}}, Body: dispatch()}},
	}
	f.Add(m.Encode())
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	f.Fuzz(func(t *testing.T, bin []byte) {
		m, err := binary.Decode(bin)
		if err != nil {
			return
		}
		cm, err := r.CompileModule(ctx, bin)
		if err != nil {
			return
		}
		cm.Close(ctx)
		n, err := Module(m)
		if err != nil || n == 0 {
			return
		}
		cm, err = r.CompileModule(ctx, m.Encode())
		if err != nil {
			t.Fatalf("a valid module became invalid: %v", err)
		}
		cm.Close(ctx)
	})
}

// BenchmarkModule threads a Go program's module (decoded once): the cost
// the pass adds to instrumenting a Go tool the first time it runs.
func BenchmarkModule(b *testing.B) {
	bin := gobuild.Wasip1(b, workSource)
	m, err := binary.Decode(bin)
	if err != nil {
		b.Fatal(err)
	}
	codes := m.Codes
	b.SetBytes(int64(len(bin)))
	for b.Loop() {
		m.Codes = append(m.Codes[:0:0], codes...)
		if _, err := Module(m); err != nil {
			b.Fatal(err)
		}
	}
}
