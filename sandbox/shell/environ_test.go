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
			// the innermost variable with a value decides: a local
			// without one (local n) leaves an outer one exported
			var v *Var
			for i := len(r.vars.scopes) - 1; i >= 0 && v == nil; i-- {
				if x, ok := r.vars.scopes[i].vars[n]; ok && (x.Set || x.IsArray()) {
					v = x
				}
			}
			if v != nil && v.Attr&AttrExport != 0 && !v.IsArray() && v.Set && v.Attr&AttrNameref == 0 {
				want = append(want, n+"="+v.Str)
			}
		}
		if got := r.environ(); !slices.Equal(got, want) {
			t.Fatalf("round %d: environ = %q, want %q", round, got, want)
		}
	}
}

// TestVarStoreClone changes every variable of a clone, scalars and arrays,
// and then every variable of the original: neither may see the other's
// changes, and the clone starts equal to the original.
func TestVarStoreClone(t *testing.T) {
	s := newVarStore()
	s.scopes = append(s.scopes, &scope{vars: map[string]*Var{}, fn: "f"})
	for i, sc := range s.scopes {
		for j := range 20 {
			n := fmt.Sprint("v", i, j)
			switch j % 3 {
			case 0:
				sc.vars[n] = &Var{Attr: AttrExport, Set: true, Str: n}
			case 1:
				sc.vars[n] = &Var{Attr: AttrIndexed, Set: true, Index: &IndexedArray{Elems: []IndexedElem{{Index: 0, Value: n}}}}
			default:
				a := &AssocArray{Map: map[string]string{"k": n}, Order: []string{"k"}}
				sc.vars[n] = &Var{Attr: AttrAssoc, Set: true, Assoc: a}
			}
		}
	}
	val := func(v *Var) string {
		switch {
		case v.Index != nil:
			return v.Index.Elems[0].Value
		case v.Assoc != nil:
			return v.Assoc.Map["k"]
		}
		return v.Str
	}
	set := func(v *Var, x string) {
		switch {
		case v.Index != nil:
			v.Index.Elems[0].Value = x
		case v.Assoc != nil:
			v.Assoc.Map["k"] = x
		default:
			v.Str = x
		}
	}
	c := s.clone()
	if len(c.scopes) != len(s.scopes) || c.scopes[1].fn != "f" {
		t.Fatalf("clone has %d scopes", len(c.scopes))
	}
	for i, sc := range c.scopes {
		if len(sc.vars) != len(s.scopes[i].vars) {
			t.Fatalf("scope %d: %d variables, want %d", i, len(sc.vars), len(s.scopes[i].vars))
		}
		for n, v := range sc.vars {
			if val(v) != n || v == s.scopes[i].vars[n] {
				t.Fatalf("clone's %s = %q (shared: %v)", n, val(v), v == s.scopes[i].vars[n])
			}
			set(v, "clone")
		}
	}
	for _, sc := range s.scopes {
		for n, v := range sc.vars {
			if val(v) != n {
				t.Fatalf("original's %s = %q after the clone changed", n, val(v))
			}
			set(v, "original")
		}
	}
	for _, sc := range c.scopes {
		for n, v := range sc.vars {
			if val(v) != "clone" {
				t.Fatalf("clone's %s = %q after the original changed", n, val(v))
			}
		}
	}
}

// BenchmarkSubshellEnviron clones a shell's variables for a subshell and
// lists its environment, as each stage of a pipeline that runs a program
// does.
func BenchmarkSubshellEnviron(b *testing.B) {
	r, err := New(Config{Host: &testHost{}, FS: vfs.New(vfs.Options{}), Env: []string{"HOME=/home/user", "PATH=/bin", "LANG=C.UTF-8", "USER=user"}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		sub := r.subshell()
		if len(sub.environ()) < 4 {
			b.Fatal("environment lost")
		}
	}
}
