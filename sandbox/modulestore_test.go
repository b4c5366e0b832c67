package sandbox

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
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
