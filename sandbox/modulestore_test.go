package sandbox

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/wasm"
	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
	"github.com/wasmsand/wasmsand/wasm/wazeroengine"
)

// mapStore is a ModuleStore in memory; stores made with the same shared
// map see each other's modules, as two page loads see one Cache API.
type mapStore struct {
	shared *sharedModules
	loads  int
	hits   int
	stores int
}

type sharedModules struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *mapStore) key(raw []byte, variant string) string {
	return fmt.Sprintf("%x-%s", sha256.Sum256(raw), variant)
}

func (s *mapStore) Load(_ context.Context, raw []byte, variant string) ([]byte, bool) {
	s.shared.mu.Lock()
	defer s.shared.mu.Unlock()
	s.loads++
	b, ok := s.shared.m[s.key(raw, variant)]
	if ok {
		s.hits++
	}
	return b, ok
}

func (s *mapStore) Store(_ context.Context, raw []byte, variant string, b []byte) {
	s.shared.mu.Lock()
	defer s.shared.mu.Unlock()
	s.stores++
	s.shared.m[s.key(raw, variant)] = b
}

func TestModuleStore(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a tool without the compilation cache")
	}
	shared := &sharedModules{m: map[string][]byte{}}
	tools := guesttest.Dir(t)
	var outs []string
	for i, st := range []*mapStore{{shared: shared}, {shared: shared}} {
		// Each store has its own platform and engine, as a page load does.
		sb, err := New(context.Background(), Options{ToolsDir: tools, ModuleStore: st, Platform: newWazeroPlatform()})
		if err != nil {
			t.Fatal(err)
		}
		res := run(t, sb, "seq 3; seq 2")
		sb.Close()
		outs = append(outs, string(res.Stdout))
		switch {
		case i == 0 && (st.loads != 1 || st.hits != 0 || st.stores != 1):
			t.Errorf("first sandbox: %d loads, %d hits, %d stores; want 1, 0, 1", st.loads, st.hits, st.stores)
		case i == 1 && (st.loads != 1 || st.hits != 1 || st.stores != 0):
			t.Errorf("second sandbox: %d loads, %d hits, %d stores; want 1, 1, 0", st.loads, st.hits, st.stores)
		}
	}
	if outs[0] != "1\n2\n3\n1\n2\n" || outs[1] != outs[0] {
		t.Errorf("outputs %q", outs)
	}
}

// preparingEngine is wazero behind a wasm.Preparer whose prepared form
// is the module with a custom section in front, so that the test can see
// which bytes the cache keeps and compiles.
type preparingEngine struct {
	wasm.Engine
	prepares, compiles int
}

const testPreparedSection = "test:prepared"

func (e *preparingEngine) PreparedFormat() string { return "test1" }

func (e *preparingEngine) Prepare(_ context.Context, bin []byte) ([]byte, error) {
	e.prepares++
	return append(binary.AppendCustom(bytes.Clone(bin[:8]), testPreparedSection, nil), bin[8:]...), nil
}

func (e *preparingEngine) CompilePrepared(ctx context.Context, b []byte) (wasm.Module, error) {
	e.compiles++
	if !binary.HasCustom(b, testPreparedSection) {
		return nil, fmt.Errorf("%w: not prepared", wasm.ErrInvalidModule)
	}
	return e.Engine.Compile(ctx, b)
}

// newPreparingEngine returns a preparingEngine over a new wazero engine,
// closed when the test ends.
func newPreparingEngine(t *testing.T) *preparingEngine {
	t.Helper()
	inner, err := wazeroengine.New(context.Background(), wazeroengine.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inner.Close(context.Background()) })
	return &preparingEngine{Engine: inner}
}

// fortyTwo is a module whose export f returns 42.
func fortyTwo() []byte {
	return (&binary.Module{
		Types:   []binary.FuncType{{Results: []binary.ValType{binary.I32}}},
		Funcs:   []uint32{0},
		Codes:   []binary.Code{{Body: []byte{0x41, 42, 0x0b}}}, // i32.const 42
		Exports: []binary.Export{{Name: "f", Kind: binary.ExternFunc}},
	}).Encode()
}

// callFortyTwo instantiates m, a fortyTwo module, and checks its f.
func callFortyTwo(t *testing.T, m wasm.Module) {
	t.Helper()
	ctx := context.Background()
	inst, err := m.Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close(ctx)
	if r, err := inst.Call(ctx, "f"); err != nil || r[0] != 42 {
		t.Fatalf("f() = %v, %v", r, err)
	}
}

// compilePrepared compiles b, found in a store, on eng's prepared form.
func compilePrepared(ctx context.Context, eng wasm.Engine, b []byte, found bool) (wasm.Module, bool) {
	if !found {
		return nil, false
	}
	m, err := eng.(wasm.Preparer).CompilePrepared(ctx, b)
	return m, err == nil
}

// loadingStore is a mapStore that is also a ModuleLoader.
type loadingStore struct {
	*mapStore
	loadModules int
}

func (s *loadingStore) LoadModule(ctx context.Context, eng wasm.Engine, raw []byte, variant string) (wasm.Module, bool) {
	s.loadModules++
	s.shared.mu.Lock()
	b, ok := s.shared.m[s.key(raw, variant)]
	s.shared.mu.Unlock()
	return compilePrepared(ctx, eng, b, ok)
}

// TestModuleStorePrepared: on an engine with a prepared form the store
// keeps that form, a later process compiles it without instrumenting or
// preparing, a damaged entry is a miss, and a ModuleLoader is asked first.
func TestModuleStorePrepared(t *testing.T) {
	ctx := context.Background()
	eng := newPreparingEngine(t)
	raw := fortyTwo()
	instruments := 0
	instrument := func(b []byte) ([]byte, error) { instruments++; return b, nil }
	shared := &sharedModules{m: map[string][]byte{}}
	// get runs what one process would: a fresh module cache on store.
	get := func(store ModuleStore) {
		t.Helper()
		c := &moduleCache{store: store}
		e, err := c.get(ctx, eng, bytesKey(raw, 1), func() ([]byte, error) { return raw, nil }, instrument)
		if err != nil {
			t.Fatal(err)
		}
		callFortyTwo(t, e.mod)
	}
	check := func(what string, wantInstruments, wantPrepares, wantCompiles int) {
		t.Helper()
		if instruments != wantInstruments || eng.prepares != wantPrepares || eng.compiles != wantCompiles {
			t.Errorf("%s: %d instruments, %d prepares, %d compiles; want %d, %d, %d", what,
				instruments, eng.prepares, eng.compiles, wantInstruments, wantPrepares, wantCompiles)
		}
		instruments, eng.prepares, eng.compiles = 0, 0, 0
	}

	first := &mapStore{shared: shared}
	get(first)
	check("first process", 1, 1, 1)
	if first.stores != 1 || len(shared.m) != 1 {
		t.Fatalf("%d stores, %d kept; want 1, 1", first.stores, len(shared.m))
	}
	var key string
	for k, b := range shared.m {
		key = k
		if !strings.HasSuffix(k, "-"+storeVariant(1)+"-test1") || !binary.HasCustom(b, testPreparedSection) {
			t.Errorf("kept %q without the prepared form", k)
		}
	}

	second := &mapStore{shared: shared}
	get(second)
	check("second process", 0, 0, 1)
	if second.hits != 1 || second.stores != 0 {
		t.Errorf("second process: %d hits, %d stores; want 1, 0", second.hits, second.stores)
	}

	shared.m[key] = raw // not in the prepared form: a miss, made good
	third := &mapStore{shared: shared}
	get(third)
	check("damaged entry", 1, 1, 2)
	if third.stores != 1 || !binary.HasCustom(shared.m[key], testPreparedSection) {
		t.Errorf("the damaged entry was not replaced (%d stores)", third.stores)
	}

	loader := &loadingStore{mapStore: &mapStore{shared: shared}}
	get(loader)
	check("a ModuleLoader", 0, 0, 1)
	if loader.loadModules != 1 || loader.loads != 0 {
		t.Errorf("a ModuleLoader: %d LoadModule, %d Load; want 1, 0", loader.loadModules, loader.loads)
	}
}

// digestStore is a loadingStore that is also a DigestStore.
type digestStore struct {
	*loadingStore
	digestLoads int
}

func (s *digestStore) LoadDigest(_ context.Context, sum [sha256.Size]byte, variant string) ([]byte, bool) {
	s.shared.mu.Lock()
	defer s.shared.mu.Unlock()
	s.digestLoads++
	b, ok := s.shared.m[fmt.Sprintf("%x-%s", sum, variant)]
	return b, ok
}

func (s *digestStore) LoadModuleDigest(ctx context.Context, eng wasm.Engine, sum [sha256.Size]byte, variant string) (wasm.Module, bool) {
	b, ok := s.LoadDigest(ctx, sum, variant)
	return compilePrepared(ctx, eng, b, ok)
}

// readerStore is a digestStore that gives entries to be read in place, as
// the JavaScript hosts' stores do (DigestReaderStore).
type readerStore struct{ *digestStore }

func (s readerStore) LoadDigestReader(ctx context.Context, sum [sha256.Size]byte, variant string) (io.ReaderAt, int64, bool) {
	b, ok := s.LoadDigest(ctx, sum, variant)
	return bytes.NewReader(b), int64(len(b)), ok
}

// payloadOf returns the bytes of a module's files section as the cache
// holds them.
func payloadOf(t *testing.T, tf *toolFiles) string {
	t.Helper()
	if tf == nil {
		return ""
	}
	if tf.b != nil {
		return string(tf.b)
	}
	b := make([]byte, tf.n)
	if _, err := tf.r.ReadAt(b, 0); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestModuleStoreByDigest: a tool whose digest is declared is found in a
// DigestStore without being read once a process has kept it, with the
// files it carries (read in place from a DigestReaderStore); a wrong
// digest, or a store that has lost the files, reads it as before.
func TestModuleStoreByDigest(t *testing.T) {
	for _, inPlace := range []bool{false, true} {
		t.Run(fmt.Sprintf("inPlace=%v", inPlace), func(t *testing.T) { testModuleStoreByDigest(t, inPlace) })
	}
}

func testModuleStoreByDigest(t *testing.T, inPlace bool) {
	ctx := context.Background()
	eng := newPreparingEngine(t)
	plain := fortyTwo()
	// withFiles carries files as python3.wasm does.
	zb := storedZip(t, zip.Store, "", "usr/", "usr/lib/a.py")
	withFiles := append(binary.AppendCustom(bytes.Clone(plain[:8]), toolFilesSection, zb), plain[8:]...)
	instrument := func(b []byte) ([]byte, error) { return b, nil }
	shared := &sharedModules{m: map[string][]byte{}}

	// get runs what one process would: a fresh module cache on the store,
	// loading the tool file whose declared digest is sum. It returns how
	// many times the file was read, and the files the module carries.
	get := func(file []byte, sum [sha256.Size]byte) (reads int, files string) {
		t.Helper()
		var store ModuleStore = &digestStore{loadingStore: &loadingStore{mapStore: &mapStore{shared: shared}}}
		if inPlace {
			store = readerStore{store.(*digestStore)}
		}
		c := &moduleCache{store: store}
		key := moduleKey{name: "tool:t.wasm\x00id", memPages: 1, sum: sum, declared: true}
		e, err := c.get(ctx, eng, key, func() ([]byte, error) { reads++; return file, nil }, instrument)
		if err != nil {
			t.Fatal(err)
		}
		callFortyTwo(t, e.mod)
		if e.goRuntime {
			t.Error("a module not built by Go is taken for one")
		}
		return reads, payloadOf(t, e.files)
	}

	sum := sha256.Sum256(plain)
	if n, _ := get(plain, sum); n != 1 {
		t.Errorf("first process read the tool %d times, want 1", n)
	}
	if n, files := get(plain, sum); n != 0 || files != "" {
		t.Errorf("second process read the tool %d times (want 0: found by digest), with files %q (want none)", n, files)
	}
	if n, _ := get(plain, sha256.Sum256([]byte("another version"))); n != 1 {
		t.Errorf("a wrong digest: the tool was read %d times, want 1", n)
	}

	filesSum := sha256.Sum256(withFiles)
	for i, want := range []int{1, 0, 0} {
		if n, files := get(withFiles, filesSum); n != want || files != string(zb) {
			t.Errorf("process %d: a tool with files was read %d times (want %d), with files %q (want the zip)", i+1, n, want, files)
		}
	}
	filesKey := fmt.Sprintf("%x-%s", filesSum, toolFilesVariant)
	if got := shared.m[filesKey]; !bytes.Equal(got, zb) {
		t.Errorf("the store keeps the files as %q, want the zip", got)
	}
	// A store that has dropped the files (trimmed), or keeps them damaged,
	// misses, and the next process reads the tool and keeps them again.
	for _, damage := range []func(){
		func() { delete(shared.m, filesKey) },
		func() { shared.m[filesKey] = []byte("not a zip") },
	} {
		damage()
		if n, files := get(withFiles, filesSum); n != 1 || files != string(zb) {
			t.Errorf("files dropped or damaged: the tool was read %d times (want 1), with files %q", n, files)
		}
		if n, _ := get(withFiles, filesSum); n != 0 {
			t.Errorf("after the files were kept again, the tool was read %d times, want 0", n)
		}
	}
	// A description from a later format is a miss, not a misreading.
	shared.m[fmt.Sprintf("%x-%s", filesSum, toolInfoVariant)] = []byte{toolInfoVersion, 0x80}
	if n, _ := get(withFiles, filesSum); n != 1 {
		t.Errorf("an unknown flag: the tool was read %d times, want 1", n)
	}
}
