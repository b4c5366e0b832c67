package shell

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// State is what a shell keeps between commands, as plain data: its
// global variables (with their attributes, indexed and associative
// arrays included), functions, aliases, options, traps, working
// directory and directory stack, positional parameters, and the state of
// $RANDOM and $SECONDS. A sandbox stores it in snapshots and gives it to
// the shell of a restored or forked sandbox.
//
// State is taken between commands: local variables of functions that are
// running, open file descriptors and background jobs are not part of it.
// Slices are sorted by name, so the same shell gives the same State.
type State struct {
	Vars     []StateVar
	Funcs    []StateFunc
	Aliases  []NameValue
	Traps    []NameValue // signal or condition name, action
	Options  []string    // the set -o and shopt options that are on, sorted
	Dir      string
	DirStack []string
	Arg0     string   // $0
	Params   []string // $1, $2, ...
	Status   int      // $?
	LastArg  string   // $_
	Umask    uint32
	Random   uint32 // the state of $RANDOM's generator
	// Started is when the shell started; SecondsAt is when SECONDS was
	// last assigned (zero if never). Both are on the sandbox clock.
	Started, SecondsAt time.Time
	Hashes             []NameValue // the hash table: command, path
	Disabled           []string    // builtins turned off with enable -n
	Completions        []NameValue // complete specs: command, spec
	// Limits are ulimit's limits where they differ from a fresh shell's,
	// in ulimit -a's order.
	Limits []StateLimit
}

// StateLimit is one ulimit limit of a State: its option letter and its
// soft and hard values in bytes or counts (^uint64(0) is unlimited).
type StateLimit struct {
	Opt        byte
	Soft, Hard uint64
}

// NameValue is a name and its value.
type NameValue struct{ Name, Value string }

// StateVar is one variable of a State.
type StateVar struct {
	Name  string
	Attr  Attr
	Set   bool
	Str   string        // the value of a scalar
	Index []IndexedElem // the elements of an indexed array, by index
	// Keys and Values are an associative array's elements in insertion
	// order, which fixes the order "${!m[@]}" lists them in.
	Keys, Values []string
}

// StateFunc is one function of a State.
type StateFunc struct {
	Name   string
	Source string // its definition as shell code, which must parse
	// Line is how many lines came before Source in the text that
	// defined it, so that $LINENO and messages inside the function name
	// the same lines after a restore.
	Line int
	// AliasesExpanded: aliases were already expanded in Source.
	AliasesExpanded bool
	Readonly        bool
	Exported        bool
	Traced          bool // declare -ft
}

// State returns the shell's state. Call it between commands.
func (r *Interp) State() *State {
	st := &State{
		Dir:       r.dir,
		DirStack:  slices.Clone(r.dirStack),
		Arg0:      r.arg0,
		Params:    slices.Clone(r.params),
		Status:    r.status,
		LastArg:   r.lastArg,
		Umask:     r.umask,
		Random:    r.rand,
		Started:   r.started,
		SecondsAt: r.secondsAt,
		Aliases:   sortedPairs(r.aliases),
		Traps:     sortedPairs(r.traps),
		Hashes:    sortedPairs(r.hashes),
	}
	if r.completeSpecs != nil {
		st.Completions = sortedPairs(r.completeSpecs)
	}
	for _, name := range slices.Sorted(maps.Keys(r.disabled)) {
		if r.disabled[name] {
			st.Disabled = append(st.Disabled, name)
		}
	}
	def := defaultRlimits(r.sh.cfg.ProcessLimits)
	for i, l := range r.limits {
		if l != def[i] {
			st.Limits = append(st.Limits, StateLimit{Opt: resources[i].opt, Soft: l.soft, Hard: l.hard})
		}
	}
	g := r.vars.global().vars
	for _, name := range slices.Sorted(maps.Keys(g)) {
		v := g[name]
		sv := StateVar{Name: name, Attr: v.Attr, Set: v.Set, Str: v.Str}
		if v.Index != nil {
			sv.Index = slices.Clone(v.Index.Elems)
		}
		if v.Assoc != nil {
			sv.Keys = slices.Clone(v.Assoc.Order)
			sv.Values = make([]string, len(sv.Keys))
			for i, k := range sv.Keys {
				sv.Values[i] = v.Assoc.Map[k]
			}
		}
		st.Vars = append(st.Vars, sv)
	}
	for _, name := range slices.Sorted(maps.Keys(r.funcs)) {
		f := r.funcs[name]
		sf := StateFunc{Name: name, Source: f.Source, Readonly: f.readonly, Exported: f.exported, Traced: f.traced}
		if f.body != nil && f.body.src != nil {
			sf.AliasesExpanded = f.body.src.aliasesDone
		}
		body, err := parseFuncSource(name, sf.Source, 0)
		if err != nil && f.body != nil {
			// No usable text (a definition whose source is unknown):
			// print it as declare -f does.
			sf.Source = r.funcText(f)
			sf.AliasesExpanded = false
		} else if f.body != nil && f.body.stmt != nil {
			base := 0
			if f.body.src != nil {
				base = f.body.src.lineBase
			}
			sf.Line = max(int(f.body.stmt.Pos().Line())-int(body.stmt.Pos().Line())+base, 0)
		}
		st.Funcs = append(st.Funcs, sf)
	}
	o := r.opts
	for _, opt := range append(o.setOptions(), o.shoptOptions()...) {
		if opt.p != nil && *opt.p {
			st.Options = append(st.Options, opt.name)
		}
	}
	if !o.noBrace {
		st.Options = append(st.Options, "braceexpand")
	}
	if o.restricted {
		st.Options = append(st.Options, "restricted") // set -r, no set -o name
	}
	slices.Sort(st.Options)
	st.Options = slices.Compact(st.Options)
	return st
}

func sortedPairs(m map[string]string) []NameValue {
	out := make([]NameValue, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, NameValue{k, m[k]})
	}
	return out
}

// parseFuncSource parses the definition of function name, as if line
// lines came before it.
func parseFuncSource(name, src string, line int) (*stmtNode, error) {
	f, text, rep, err := parseRepaired(strings.Repeat("\n", line)+src, "")
	if err != nil {
		return nil, err
	}
	if len(f.Stmts) != 1 {
		return nil, fmt.Errorf("function %s: the source holds %d commands, not one definition", name, len(f.Stmts))
	}
	fd, ok := f.Stmts[0].Cmd.(*syntax.FuncDecl)
	if !ok || fd.Name.Value != name || len(f.Stmts[0].Redirs) != 0 || f.Stmts[0].Background || f.Stmts[0].Negated {
		return nil, fmt.Errorf("function %s: the source is not its definition", name)
	}
	return &stmtNode{stmt: fd.Body, src: &sourceFile{text: text, bad: rep.badSubsts()}}, nil
}

// SetState replaces the shell's state with st. It checks all of st
// first — names, attributes, function sources, options — and changes
// nothing if any of it is wrong.
func (r *Interp) SetState(st *State) error {
	vars := make(map[string]*Var, len(st.Vars))
	for _, sv := range st.Vars {
		if !validName(sv.Name) {
			return fmt.Errorf("shell state: bad variable name %q", sv.Name)
		}
		if _, dup := vars[sv.Name]; dup {
			return fmt.Errorf("shell state: variable %s twice", sv.Name)
		}
		v := &Var{Attr: sv.Attr, Set: sv.Set, Str: sv.Str}
		switch {
		case sv.Attr&AttrIndexed != 0 && sv.Attr&AttrAssoc != 0:
			return fmt.Errorf("shell state: %s is both an indexed and an associative array", sv.Name)
		case sv.Attr&AttrIndexed != 0:
			for i, e := range sv.Index {
				if e.Index < 0 || i > 0 && e.Index <= sv.Index[i-1].Index {
					return fmt.Errorf("shell state: %s: indexes not increasing", sv.Name)
				}
			}
			v.Index = &IndexedArray{Elems: slices.Clone(sv.Index)}
		case sv.Attr&AttrAssoc != 0:
			if len(sv.Keys) != len(sv.Values) {
				return fmt.Errorf("shell state: %s: %d keys but %d values", sv.Name, len(sv.Keys), len(sv.Values))
			}
			a := &AssocArray{Map: make(map[string]string, len(sv.Keys))}
			for i, k := range sv.Keys {
				if _, dup := a.Map[k]; dup {
					return fmt.Errorf("shell state: %s: key %q twice", sv.Name, k)
				}
				a.Set(k, sv.Values[i])
			}
			v.Assoc = a
		case len(sv.Index) != 0 || len(sv.Keys) != 0 || len(sv.Values) != 0:
			return fmt.Errorf("shell state: scalar %s has elements", sv.Name)
		}
		vars[sv.Name] = v
	}
	funcs := make(map[string]*Func, len(st.Funcs))
	for _, sf := range st.Funcs {
		if _, dup := funcs[sf.Name]; dup {
			return fmt.Errorf("shell state: function %s twice", sf.Name)
		}
		if sf.Line < 0 || sf.Line > 1<<24 {
			return fmt.Errorf("shell state: function %s: line %d out of range", sf.Name, sf.Line)
		}
		body, err := parseFuncSource(sf.Name, sf.Source, sf.Line)
		if err != nil {
			return fmt.Errorf("shell state: %w", err)
		}
		body.src.aliasesDone = sf.AliasesExpanded
		funcs[sf.Name] = &Func{Name: sf.Name, Source: sf.Source, body: body, readonly: sf.Readonly, exported: sf.Exported, traced: sf.Traced}
	}
	opts := defaultOptions()
	for _, opt := range append(opts.setOptions(), opts.shoptOptions()...) {
		if opt.p != nil {
			*opt.p = false
		}
	}
	opts.noBrace = true
	known := map[string]*bool{}
	for _, opt := range append(opts.setOptions(), opts.shoptOptions()...) {
		if opt.p != nil {
			known[opt.name] = opt.p
		}
	}
	for _, name := range st.Options {
		if name == "braceexpand" {
			opts.noBrace = false
			continue
		}
		if name == "restricted" {
			opts.restricted = true
			continue
		}
		p, ok := known[name]
		if !ok {
			return fmt.Errorf("shell state: unknown option %q", name)
		}
		*p = true
	}
	if st.Dir == "" || st.Dir[0] != '/' {
		return fmt.Errorf("shell state: working directory %q is not absolute", st.Dir)
	}
	if st.Umask > 0o777 {
		return fmt.Errorf("shell state: umask %o out of range", st.Umask)
	}
	// Limits above this sandbox's own hard ones come down to them.
	limits := defaultRlimits(r.sh.cfg.ProcessLimits)
	for _, l := range st.Limits {
		i := resourceIndex(l.Opt)
		if i < 0 || l.Soft > l.Hard {
			return fmt.Errorf("shell state: ulimit -%c: soft %d, hard %d is not a limit", l.Opt, l.Soft, l.Hard)
		}
		limits[i] = rlimit{min(l.Soft, limits[i].hard), min(l.Hard, limits[i].hard)}
	}
	pairs := func(list []NameValue) map[string]string {
		m := make(map[string]string, len(list))
		for _, p := range list {
			m[p.Name] = p.Value
		}
		return m
	}

	// Everything checked: apply.
	r.vars = newVarStore()
	r.vars.global().vars = vars
	r.funcs = funcs
	r.opts = opts
	r.aliases = pairs(st.Aliases)
	r.traps = pairs(st.Traps)
	r.hashes = pairs(st.Hashes)
	r.completeSpecs = nil
	if len(st.Completions) > 0 {
		r.completeSpecs = pairs(st.Completions)
	}
	r.disabled = nil
	if len(st.Disabled) > 0 {
		r.disabled = map[string]bool{}
		for _, name := range st.Disabled {
			r.disabled[name] = true
		}
	}
	r.dir = st.Dir
	r.dirStack = slices.Clone(st.DirStack)
	r.arg0 = st.Arg0
	r.params = slices.Clone(st.Params)
	r.status = st.Status
	r.lastArg = st.LastArg
	r.umask = st.Umask
	r.limits = limits
	r.rand = st.Random
	r.started = st.Started
	r.secondsAt = st.SecondsAt
	return nil
}
