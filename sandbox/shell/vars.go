package shell

import (
	"sort"
	"strconv"
	"strings"
)

// Attr is a set of variable attributes, as declare sets them.
type Attr uint16

// Variable attributes.
const (
	AttrExport   Attr = 1 << iota // -x
	AttrReadonly                  // -r
	AttrInteger                   // -i
	AttrLower                     // -l
	AttrUpper                     // -u
	AttrNameref                   // -n
	AttrIndexed                   // -a
	AttrAssoc                     // -A
	AttrTrace                     // -t
	AttrCapital                   // -c (capitalize; undocumented but bash has it)
)

// Var is one shell variable: a string, an indexed array or an associative
// array, with its attributes. A Var declared but never assigned (declare x)
// has Set false.
type Var struct {
	Attr  Attr
	Set   bool
	Str   string
	Index *IndexedArray // when Attr has AttrIndexed
	Assoc *AssocArray   // when Attr has AttrAssoc
}

// IsArray reports whether v is an indexed or associative array.
func (v *Var) IsArray() bool { return v.Attr&(AttrIndexed|AttrAssoc) != 0 }

// copyTo makes c a deep copy of v.
func (v *Var) copyTo(c *Var) {
	*c = *v
	if v.Index != nil {
		c.Index = v.Index.clone()
	}
	if v.Assoc != nil {
		c.Assoc = v.Assoc.clone()
	}
}

// scalar is the value of $name for v: the string, or element 0 of an
// array (bash's rule), and whether it is set.
func (v *Var) scalar() (string, bool) {
	switch {
	case v.Attr&AttrAssoc != 0:
		return v.Assoc.Get("0")
	case v.Attr&AttrIndexed != 0:
		return v.Index.Get(0)
	}
	return v.Str, v.Set
}

// values lists the elements of v in order (a scalar is one element).
func (v *Var) values() []string {
	switch {
	case v.Attr&AttrAssoc != 0:
		return v.Assoc.Values()
	case v.Attr&AttrIndexed != 0:
		return v.Index.Values()
	case v.Set:
		return []string{v.Str}
	}
	return nil
}

// keys lists the subscripts of v in order.
func (v *Var) keys() []string {
	switch {
	case v.Attr&AttrAssoc != 0:
		return v.Assoc.Keys()
	case v.Attr&AttrIndexed != 0:
		idx := v.Index.Indexes()
		out := make([]string, len(idx))
		for i, n := range idx {
			out[i] = strconv.FormatInt(n, 10)
		}
		return out
	case v.Set:
		return []string{"0"}
	}
	return nil
}

// IndexedArray is a sparse array indexed by non-negative integers, kept
// sorted by index.
type IndexedArray struct {
	Elems []IndexedElem
}

// IndexedElem is one element of an IndexedArray.
type IndexedElem struct {
	Index int64
	Value string
}

func (a *IndexedArray) clone() *IndexedArray {
	return &IndexedArray{Elems: append([]IndexedElem(nil), a.Elems...)}
}

func (a *IndexedArray) find(i int64) (int, bool) {
	n := len(a.Elems)
	if n > 0 && a.Elems[n-1].Index < i {
		return n, false
	}
	k := sort.Search(n, func(j int) bool { return a.Elems[j].Index >= i })
	return k, k < n && a.Elems[k].Index == i
}

// Get returns element i.
func (a *IndexedArray) Get(i int64) (string, bool) {
	if a == nil {
		return "", false
	}
	k, ok := a.find(i)
	if !ok {
		return "", false
	}
	return a.Elems[k].Value, true
}

// Set sets element i.
func (a *IndexedArray) Set(i int64, v string) {
	k, ok := a.find(i)
	if ok {
		a.Elems[k].Value = v
		return
	}
	a.Elems = append(a.Elems, IndexedElem{})
	copy(a.Elems[k+1:], a.Elems[k:])
	a.Elems[k] = IndexedElem{i, v}
}

// Unset removes element i.
func (a *IndexedArray) Unset(i int64) {
	if k, ok := a.find(i); ok {
		a.Elems = append(a.Elems[:k], a.Elems[k+1:]...)
	}
}

// Len is the number of set elements.
func (a *IndexedArray) Len() int {
	if a == nil {
		return 0
	}
	return len(a.Elems)
}

// Max is the highest index set, or -1.
func (a *IndexedArray) Max() int64 {
	if a == nil || len(a.Elems) == 0 {
		return -1
	}
	return a.Elems[len(a.Elems)-1].Index
}

// Values lists the elements in index order.
func (a *IndexedArray) Values() []string {
	if a == nil {
		return nil
	}
	out := make([]string, len(a.Elems))
	for i, e := range a.Elems {
		out[i] = e.Value
	}
	return out
}

// Indexes lists the set indexes in order.
func (a *IndexedArray) Indexes() []int64 {
	if a == nil {
		return nil
	}
	out := make([]int64, len(a.Elems))
	for i, e := range a.Elems {
		out[i] = e.Index
	}
	return out
}

// AssocArray is an associative array. Keys iterate in the order bash 5.2
// uses: its hash table of 1024 buckets (FNV-1 hash of the key), bucket by
// bucket, the most recently inserted key first within a bucket. Scripts
// that print "${!m[@]}" then see the same order as in bash.
type AssocArray struct {
	Map   map[string]string
	Order []string // insertion order; deleted keys removed
	// Buckets is the size bash's table started with, which orders the
	// keys: 0 for a new associative array's 1024; a variable converted
	// to one starts with 128.
	Buckets uint32
}

// emptied is a without its keys, its table the size it was.
func (a *AssocArray) emptied() *AssocArray {
	if a == nil {
		return &AssocArray{}
	}
	return &AssocArray{Buckets: a.Buckets}
}

func (a *AssocArray) clone() *AssocArray {
	m := make(map[string]string, len(a.Map))
	for k, v := range a.Map {
		m[k] = v
	}
	return &AssocArray{Map: m, Order: append([]string(nil), a.Order...), Buckets: a.Buckets}
}

// Get returns the value of key.
func (a *AssocArray) Get(key string) (string, bool) {
	if a == nil {
		return "", false
	}
	v, ok := a.Map[key]
	return v, ok
}

// Set sets key.
func (a *AssocArray) Set(key, v string) {
	if a.Map == nil {
		a.Map = map[string]string{}
	}
	if _, ok := a.Map[key]; !ok {
		a.Order = append(a.Order, key)
	}
	a.Map[key] = v
}

// Unset removes key.
func (a *AssocArray) Unset(key string) {
	if _, ok := a.Map[key]; !ok {
		return
	}
	delete(a.Map, key)
	for i, k := range a.Order {
		if k == key {
			a.Order = append(a.Order[:i], a.Order[i+1:]...)
			break
		}
	}
}

// Len is the number of keys.
func (a *AssocArray) Len() int {
	if a == nil {
		return 0
	}
	return len(a.Map)
}

// bashHash is bash's hash_string (FNV-1, 32 bits).
func bashHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(s[i])
	}
	return h
}

// assocBuckets is the bucket count of bash's associative arrays of n
// keys whose table started with start buckets (0 for 1024); bash grows
// the table (doubling) when it holds twice as many entries.
func assocBuckets(n int, start uint32) uint32 {
	b := start
	if b == 0 {
		b = 1024
	}
	for uint32(n) >= b*2 && b < 1<<30 {
		b *= 2
	}
	return b
}

// Keys lists the keys in bash's iteration order.
func (a *AssocArray) Keys() []string {
	if a == nil || len(a.Order) == 0 {
		return nil
	}
	mask := assocBuckets(len(a.Order), a.Buckets) - 1
	type item struct {
		key    string
		bucket uint32
		seq    int
	}
	items := make([]item, len(a.Order))
	for i, k := range a.Order {
		items[i] = item{k, bashHash(k) & mask, i}
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].bucket != items[j].bucket {
			return items[i].bucket < items[j].bucket
		}
		return items[i].seq > items[j].seq
	})
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.key
	}
	return out
}

// Values lists the values in key order.
func (a *AssocArray) Values() []string {
	keys := a.Keys()
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = a.Map[k]
	}
	return out
}

// scope is one level of variables: the global scope or one function call.
type scope struct {
	vars map[string]*Var
	fn   string // function name; "" for the global scope
	// temp marks the scope of the assignments before a command
	// (var=x cmd), gone when the command ends.
	temp bool
	// opts are the options `local -` saved, restored when the function
	// returns.
	opts *options
}

// varStore is the dynamic scope chain of a shell.
type varStore struct {
	scopes []*scope // scopes[0] is global
}

func newVarStore() *varStore {
	return &varStore{scopes: []*scope{{vars: map[string]*Var{}}}}
}

// clone deep-copies the store, for a subshell. The copies of a scope's
// variables share one allocation, as do the scopes: every stage of a
// pipeline is a subshell, and a shell holds some fifty variables, so
// cloning them one by one was three quarters of the allocations of
// running a builtin in a pipeline.
func (s *varStore) clone() *varStore {
	c := &varStore{scopes: make([]*scope, len(s.scopes))}
	scopes := make([]scope, len(s.scopes))
	for i, sc := range s.scopes {
		m := make(map[string]*Var, len(sc.vars))
		vars := make([]Var, len(sc.vars))
		j := 0
		for k, v := range sc.vars {
			v.copyTo(&vars[j])
			m[k] = &vars[j]
			j++
		}
		scopes[i] = scope{vars: m, fn: sc.fn}
		c.scopes[i] = &scopes[i]
	}
	return c
}

func (s *varStore) global() *scope { return s.scopes[0] }
func (s *varStore) top() *scope    { return s.scopes[len(s.scopes)-1] }

// localScope is the innermost scope that is not a command's temporary
// assignments: where declare and local make their variables.
func (s *varStore) localScope() *scope {
	for i := len(s.scopes) - 1; i > 0; i-- {
		if !s.scopes[i].temp {
			return s.scopes[i]
		}
	}
	return s.scopes[0]
}

// lookup finds name in the innermost scope that has it, without
// resolving namerefs.
func (s *varStore) lookup(name string) (*Var, *scope) {
	for i := len(s.scopes) - 1; i >= 0; i-- {
		if v, ok := s.scopes[i].vars[name]; ok {
			return v, s.scopes[i]
		}
	}
	return nil, nil
}

// maxNamerefDepth bounds nameref chains (bash warns at the same point).
const maxNamerefDepth = 8

// resolve follows namerefs from name and returns the final name and its
// subscript, if the nameref named an array element ("a[1]").
func (s *varStore) resolve(name string) (string, string, bool) {
	for i := 0; i < maxNamerefDepth; i++ {
		v, _ := s.lookup(name)
		if v == nil || v.Attr&AttrNameref == 0 || !v.Set || v.Str == "" {
			return name, "", false
		}
		target := v.Str
		if j := strings.IndexByte(target, '['); j > 0 && strings.HasSuffix(target, "]") {
			return target[:j], target[j+1 : len(target)-1], true
		}
		name = target
	}
	return name, "", false
}

// circular reports whether the namerefs from name come back to a name
// they passed (v -> w -> v), which bash warns about and treats as unset.
func (s *varStore) circular(name string) bool {
	var seen map[string]bool
	for {
		v, _ := s.lookup(name)
		if v == nil || v.Attr&AttrNameref == 0 || !v.Set || v.Str == "" || strings.IndexByte(v.Str, '[') >= 0 {
			return false
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[name] = true
		name = v.Str
		if seen[name] {
			return true
		}
	}
}

// selfRefLocal reports whether name is a function's nameref to itself
// (local -n v=v), which bash resolves to the global variable.
func (s *varStore) selfRefLocal(name string) bool {
	v, sc := s.lookup(name)
	return v != nil && sc != s.global() && v.Attr&AttrNameref != 0 && v.Set && v.Str == name
}

// get returns the variable name refers to after namerefs, or nil.
func (s *varStore) get(name string) *Var {
	n, _, _ := s.resolve(name)
	v, _ := s.lookup(n)
	return v
}

// names lists every visible variable name, sorted.
func (s *varStore) names() []string {
	seen := map[string]bool{}
	for _, sc := range s.scopes {
		for k := range sc.vars {
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
