package shell

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// TestEnvironScopes checks environ against a plain statement of what it
// must list, over random stacks of scopes: every name once, from the
// innermost scope that has it, and only if that variable is an exported,
// set scalar.
func TestEnvironScopes(t *testing.T) {
	r, err := New(Config{Host: &testHost{}, FS: vfs.New(vfs.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	names := []string{"A", "B", "C", "D", "E", "F"}
	attrs := []Attr{0, AttrExport, AttrExport | AttrIndexed, AttrExport | AttrNameref, AttrExport | AttrReadonly}
	for round := range 500 {
		r.vars = newVarStore()
		for s := range 1 + rng.IntN(4) {
			if s > 0 {
				r.vars.scopes = append(r.vars.scopes, &scope{vars: map[string]*Var{}, fn: "f"})
			}
			for _, n := range names {
				if rng.IntN(2) == 0 {
					r.vars.top().vars[n] = &Var{Attr: attrs[rng.IntN(len(attrs))], Set: rng.IntN(5) > 0, Str: fmt.Sprint(n, s)}
				}
			}
		}
		var want []string
		for _, n := range names {
			v, _ := r.vars.lookup(n)
			if v != nil && v.Attr&AttrExport != 0 && !v.IsArray() && v.Set && v.Attr&AttrNameref == 0 {
				want = append(want, n+"="+v.Str)
			}
		}
		if got := r.environ(); !slices.Equal(got, want) {
			t.Fatalf("round %d: environ = %q, want %q", round, got, want)
		}
	}
}
