package shell

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// validName reports whether s is a valid variable name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// getScalar returns $name (element 0 of an array), after namerefs.
func (r *Interp) getScalar(name string) (string, bool) {
	rname, sub, viaRef := r.vars.resolve(name)
	if v := r.dynamicVar(rname); v != nil {
		return v.scalar()
	}
	v, _ := r.vars.lookup(rname)
	if v == nil {
		return "", false
	}
	if viaRef && sub != "" {
		pv := r.lookupParam(rname, sub, true, nil)
		return pv.str(), pv.set
	}
	return v.scalar()
}

// dynamicVar returns the value of a variable bash computes on each use,
// or nil.
func (r *Interp) dynamicVar(name string) *Var {
	switch name {
	case "RANDOM":
		if v, _ := r.vars.lookup(name); v != nil && v.Attr&AttrTrace != 0 {
			return nil // unset and reassigned: an ordinary variable
		}
		return &Var{Set: true, Str: strconv.Itoa(r.nextRandom())}
	case "SRANDOM":
		return &Var{Set: true, Str: strconv.FormatUint(uint64(r.nextRandom())<<17^uint64(r.nextRandom()), 10)}
	case "SECONDS":
		base := r.started
		off := int64(0)
		if v, _ := r.vars.lookup("SECONDS"); v != nil && v.Set {
			off, _ = strconv.ParseInt(v.Str, 10, 64)
			if t, ok := r.secondsSet(); ok {
				base = t
			}
		}
		return &Var{Set: true, Str: strconv.FormatInt(off+int64(r.now().Sub(base)/time.Second), 10)}
	case "EPOCHSECONDS":
		return &Var{Set: true, Str: strconv.FormatInt(r.now().Unix(), 10)}
	case "EPOCHREALTIME":
		t := r.now()
		return &Var{Set: true, Str: strconv.FormatInt(t.Unix(), 10) + "." + pad6(t.Nanosecond()/1000)}
	case "LINENO":
		return &Var{Set: true, Str: strconv.Itoa(r.lineno)}
	case "BASHPID":
		return &Var{Set: true, Str: strconv.Itoa(r.bashpid)}
	case "BASH_ARGV0":
		if v, _ := r.vars.lookup(name); v != nil && v.Attr&AttrTrace != 0 {
			return nil // unset and reassigned: an ordinary variable
		}
		return &Var{Set: true, Str: r.arg0}
	case "BASH_SUBSHELL":
		return &Var{Set: true, Str: strconv.Itoa(r.subDepth)}
	case "BASH_COMMAND":
		return &Var{Set: true, Str: r.curCmd}
	case "BASH_ARGV", "BASH_ARGC":
		return r.bashArgv(name)
	case "FUNCNAME":
		if len(r.frames) == 0 {
			return nil
		}
		a := &IndexedArray{}
		for i := len(r.frames) - 1; i >= 0; i-- {
			a.Set(int64(len(r.frames)-1-i), r.frames[i].fn)
		}
		if !r.cmdString {
			a.Set(int64(len(r.frames)), "main")
		}
		return &Var{Attr: AttrIndexed, Set: true, Index: a}
	case "BASH_SOURCE":
		a := &IndexedArray{}
		for i := len(r.frames) - 1; i >= 0; i-- {
			a.Set(int64(len(r.frames)-1-i), r.frames[i].source)
		}
		if !r.cmdString {
			a.Set(int64(len(r.frames)), r.mainSource)
		}
		return &Var{Attr: AttrIndexed, Set: true, Index: a}
	case "BASH_LINENO":
		a := &IndexedArray{}
		for i := len(r.frames) - 1; i >= 0; i-- {
			a.Set(int64(len(r.frames)-1-i), strconv.Itoa(r.frames[i].line))
		}
		if !r.cmdString {
			a.Set(int64(len(r.frames)), "0")
		}
		return &Var{Attr: AttrIndexed, Set: true, Index: a}
	case "PIPESTATUS":
		a := &IndexedArray{}
		for i, s := range r.pipeStatus {
			a.Set(int64(i), strconv.Itoa(s))
		}
		if len(r.pipeStatus) == 0 {
			a.Set(0, strconv.Itoa(r.status))
		}
		return &Var{Attr: AttrIndexed, Set: true, Index: a}
	case "BASH_CMDS":
		// the command hash table, oldest first so that the newest of
		// a bucket comes first, as hash lists them
		a := &AssocArray{Buckets: 256}
		names := slices.Collect(maps.Keys(r.hashes))
		slices.SortFunc(names, func(x, y string) int { return cmp.Compare(r.hashMeta[x].seq, r.hashMeta[y].seq) })
		for _, n := range names {
			a.Set(n, r.hashes[n])
		}
		return &Var{Attr: AttrAssoc, Set: true, Assoc: a}
	case "DIRSTACK":
		r.dirStackUsed = true
		a := &IndexedArray{}
		a.Set(0, r.dir)
		for i := len(r.dirStack) - 1; i >= 0; i-- {
			a.Set(int64(len(r.dirStack)-i), r.dirStack[i])
		}
		return &Var{Attr: AttrIndexed, Set: true, Index: a}
	case "BASH_ALIASES":
		// the alias table, in bash's order (64 buckets)
		a := &AssocArray{Buckets: 64}
		for _, n := range slices.Sorted(maps.Keys(r.aliases)) {
			a.Set(n, r.aliases[n])
		}
		return &Var{Attr: AttrAssoc, Set: true, Assoc: a}
	case "SHELLOPTS":
		return &Var{Attr: AttrReadonly, Set: true, Str: r.shellopts()}
	case "BASHOPTS":
		return &Var{Attr: AttrReadonly, Set: true, Str: r.bashopts()}
	}
	return nil
}

func pad6(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 6 {
		s = "0" + s
	}
	return s
}

// secondsSet is when SECONDS was last assigned.
func (r *Interp) secondsSet() (time.Time, bool) {
	if r.secondsAt.IsZero() {
		return time.Time{}, false
	}
	return r.secondsAt, true
}

// nextRandom steps $RANDOM as bash 5.2 does, so that runs with the same
// seed repeat bash's sequence: the Park-Miller minimal standard generator
// (intrand32), its two halves xor-ed into 15 bits (brand), never the same
// value twice in a row (get_random_number).
func (r *Interp) nextRandom() int {
	for {
		seed := r.rand
		if seed == 0 {
			seed = 123459876
		}
		h := int32(seed / 127773)
		l := int32(seed - 127773*uint32(h))
		t := 16807*l - 2836*h
		if t < 0 {
			t += 0x7fffffff
		}
		r.rand = uint32(t)
		v := int((r.rand>>16)^(r.rand&65535)) & 0x7fff
		if v != r.lastRandom {
			r.lastRandom = v
			return v
		}
	}
}

// assignChecked assigns a value to name or name[sub], reporting errors
// (readonly, bad subscript) itself.
func (r *Interp) assignChecked(target, value string) bool {
	name, sub, hasSub := target, "", false
	if i := strings.IndexByte(target, '['); i > 0 && strings.HasSuffix(target, "]") {
		name, sub, hasSub = target[:i], target[i+1:len(target)-1], true
	}
	if !validName(name) {
		r.errorf("`%s': not a valid identifier", target)
		return false
	}
	var err error
	if hasSub {
		err = r.assignElem(name, sub, value, false)
	} else {
		err = r.assign(name, value, false)
	}
	if err != nil {
		r.errorf("%s", err.Error())
		return false
	}
	return true
}

// badNamerefValue reports, for cmd, a value assigned to name that is
// not a valid name where name is a nameref without a target (which
// takes the value as the name it refers to).
func (r *Interp) badNamerefValue(cmd, name, value string) bool {
	rname, sub, _ := r.vars.resolve(name)
	v, _ := r.vars.lookup(rname)
	if sub != "" || v == nil || v.Attr&AttrNameref == 0 || v.Attr&AttrReadonly != 0 || validTarget(value) {
		return false
	}
	r.builtinErr(cmd, "`%s': not a valid identifier", value)
	return true
}

// assignQuiet assigns without reporting errors.
func (r *Interp) assignQuiet(name, value string) { _ = r.assign(name, value, false) }

// shellErr is an error whose text is printed after the shell's prefix.
type shellErr string

func (e shellErr) Error() string { return string(e) }

// assign sets $name (element 0 of an array), honouring namerefs and the
// integer, case and readonly attributes. With appendTo it appends (+=).
func (r *Interp) assign(name, value string, appendTo bool) error {
	rname, sub, viaRef := r.vars.resolve(name)
	if viaRef && sub != "" {
		if t := r.vars.get(rname); (sub == "@" || sub == "*") && (t == nil || t.Attr&AttrAssoc == 0) {
			// a reference to x[@] names no element to assign
			return shellErr(rname + "[" + sub + "]: bad array subscript")
		}
		return r.assignElem(rname, r.expandSubscriptText(sub), value, appendTo)
	}
	v, _ := r.vars.lookup(rname)
	if v == nil {
		v = &Var{}
		r.vars.global().vars[rname] = v
		if r.opts.allexport {
			v.Attr |= AttrExport
		}
	}
	if v.Attr&AttrReadonly != 0 {
		return shellErr(rname + ": readonly variable")
	}
	if v.Attr&AttrNameref != 0 && !appendTo && !validTarget(value) {
		// a nameref without a target takes the value as the name it
		// refers to
		return shellErr("`" + value + "': not a valid identifier")
	}
	r.specialAssign(rname, value)
	if v.Attr&(AttrIndexed|AttrAssoc) != 0 {
		if v.Attr&AttrAssoc != 0 {
			return r.assignElem(rname, "0", value, appendTo)
		}
		return r.assignElem(rname, "0", value, appendTo)
	}
	val, err := r.attrValue(v, v.Str, value, appendTo && v.Set)
	if err != nil {
		return err
	}
	v.Str, v.Set = val, true
	if r.opts.allexport {
		v.Attr |= AttrExport
	}
	return nil
}

// specialAssign notes assignments to variables with side effects.
func (r *Interp) specialAssign(name, value string) {
	switch name {
	case "RANDOM":
		n, _ := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		r.rand, r.lastRandom = uint32(n), 0
	case "SECONDS":
		r.secondsAt = r.now()
	case "BASH_ARGV0":
		r.arg0 = value // assigning BASH_ARGV0 sets $0
	case "POSIXLY_CORRECT":
		r.opts.posix = true // bash's sv_strict_posix
	case "BASH_XTRACEFD":
		r.setXtraceFd(value)
	case "OPTIND":
		// Assigning OPTIND (other than getopts itself) restarts getopts
		// at the start of a word, as bash's getopts_reset does.
		if !r.getoptsSetting {
			r.getoptsSub = 0
			r.getoptsInd, _ = strconv.Atoi(value)
		}
	}
}

// attrValue computes the value to store for v given its attributes:
// arithmetic for -i, case for -l/-u/-c, and += appending.
func (r *Interp) attrValue(v *Var, old, value string, appendTo bool) (string, error) {
	if v.Attr&AttrInteger != 0 {
		// x+=v adds v to the old value, itself evaluated first (b=4+1;
		// declare -i b; b+=37 is 42)
		var o int64
		if appendTo && old != "" {
			var err error
			if o, err = r.arithEvalErr(old); err != nil {
				return "", err
			}
		}
		n, err := r.arithEvalErr(value)
		if err != nil {
			return "", err
		}
		return strconv.FormatInt(o+n, 10), nil
	}
	if appendTo {
		value = old + value
	}
	return r.applyCase(v.Attr, value), nil
}

// applyCase applies -l, -u and -c.
func (r *Interp) applyCase(a Attr, s string) string {
	switch {
	case a&AttrLower != 0:
		return strings.ToLower(s)
	case a&AttrUpper != 0:
		return strings.ToUpper(s)
	case a&AttrCapital != 0:
		c, n := utf8.DecodeRuneInString(s)
		if n == 0 {
			return s
		}
		return string(unicode.ToUpper(c)) + strings.ToLower(s[n:])
	}
	return s
}

// assignElem sets name[sub].
func (r *Interp) assignElem(name, sub, value string, appendTo bool) error {
	rname, _, _ := r.vars.resolve(name)
	if rname == "DIRSTACK" {
		// an element of the directory stack (bash's assign_dirstack)
		i, err := r.arithEvalErr(sub)
		if err != nil {
			return err
		}
		r.setDirstackElement(i, value)
		return nil
	}
	if v, _ := r.vars.lookup(rname); v == nil && !appendTo {
		switch rname {
		case "BASH_ALIASES":
			r.aliases[sub] = value // an alias
			return nil
		case "BASH_CMDS":
			// BASH_CMDS[name]=path hashes name (bash's assign_hashcmd)
			if r.opts.restricted {
				if strings.Contains(value, "/") {
					return shellErr(value + ": restricted")
				}
				if _, err := r.lookPath(value); err != nil {
					return shellErr(value + ": not found")
				}
			}
			if r.opts.hashall {
				r.hashSet(sub, value, 0)
			}
			return nil
		}
	}
	v, _ := r.vars.lookup(rname)
	if v == nil {
		v = &Var{Attr: AttrIndexed, Index: &IndexedArray{}}
		if r.opts.allexport {
			v.Attr |= AttrExport
		}
		r.vars.global().vars[rname] = v
	}
	if v.Attr&AttrReadonly != 0 {
		return shellErr(rname + ": readonly variable")
	}
	if v.Attr&AttrAssoc != 0 {
		if sub == "" {
			return shellErr(rname + "[" + sub + "]: bad array subscript")
		}
		old, _ := v.Assoc.Get(sub)
		val, err := r.attrValue(v, old, value, appendTo)
		if err != nil {
			return err
		}
		v.Assoc.Set(sub, val)
		v.Set = true
		return nil
	}
	if v.Attr&AttrIndexed == 0 {
		// A scalar becomes an array with its value at index 0.
		v.Attr |= AttrIndexed
		v.Index = &IndexedArray{}
		if v.Set {
			v.Index.Set(0, v.Str)
		}
		v.Str = ""
	}
	i, err := r.arithEvalErr(sub)
	if err != nil {
		return err
	}
	if i < 0 {
		i += v.Index.Max() + 1
		if i < 0 {
			return shellErr(rname + "[" + sub + "]: bad array subscript")
		}
	}
	old, _ := v.Index.Get(i)
	val, err := r.attrValue(v, old, value, appendTo)
	if err != nil {
		return err
	}
	v.Index.Set(i, val)
	v.Set = true
	return nil
}

// assignNode performs one assignment word (a=b, a+=b, a[i]=b, a=(...)).
// local is true for declare/local, where the variable lives in the
// current function scope.
func (r *Interp) assignNode(as *syntax.Assign, local bool) bool {
	name := as.Name.Value
	if r.vars.circular(name) {
		r.errorf("warning: %s: circular name reference", name)
		if r.vars.selfRefLocal(name) && as.Index == nil && as.Array == nil {
			return r.assignGlobalScalar(name, r.expandAssignValue(as.Value), as.Append)
		}
		return false
	}
	if v := r.vars.get(name); v != nil && v.Attr&AttrReadonly != 0 {
		// a nameref names its target
		rn, _, _ := r.vars.resolve(name)
		if as.Index != nil && as.Array == nil && v.Attr&AttrAssoc == 0 {
			// the subscript is checked first: a[-n] before the start
			raw := r.curText(as.Index)
			sub := r.arithSource(as.Index, as.Index.Pos().Offset(), as.Index.End().Offset())
			top := v.Index.Max()
			if v.Attr&AttrIndexed == 0 && v.Set {
				top = 0 // a scalar is element 0
			}
			if i, err := r.arithEvalErr(sub); err == nil && i < 0 && i+top+1 < 0 {
				r.errorf("%s[%s]: bad array subscript", rn, raw)
				return false
			}
		}
		r.errorf("%s: readonly variable", rn)
		if !r.opts.posix {
			return false
		}
		return false
	}
	if as.Array != nil {
		if strings.HasSuffix(name, "]") {
			// a[i]=(..) (repair.go)
			r.errorf("%s: cannot assign list to array member", name)
			return false
		}
		if r.opts.xtrace && !local {
			// bash shows a compound assignment as written
			r.xtrace(r.assignLHS(as) + "=" + r.curText(as.Array))
		}
		return r.assignArray(name, as.Array, as.Append)
	}
	val := r.expandAssignValue(as.Value)
	if !local {
		r.xtraceAssign(r.assignLHS(as), val)
	}
	if as.Index != nil {
		raw := r.curText(as.Index)
		if raw == "" {
			// m[]=x (repair.go): bash reports the empty subscript.
			r.errorf("%s[]: bad array subscript", name)
			return false
		}
		if v := r.vars.get(name); (raw == "@" || raw == "*") && (v == nil || v.Attr&AttrAssoc == 0) {
			r.errorf("%s[%s]: bad array subscript", name, raw)
			return false
		}
		sub := r.arithSource(as.Index, as.Index.Pos().Offset(), as.Index.End().Offset())
		if err := r.assignElem(name, sub, val, as.Append); err != nil {
			msg := err.Error()
			if sub == "" && raw != "" {
				msg = strings.Replace(msg, "[]:", "["+raw+"]:", 1)
			}
			r.errorf("%s", msg)
			r.fatalArithErr(err)
			return false
		}
		return true
	}
	if err := r.assign(name, val, as.Append); err != nil {
		r.errorf("%s", err.Error())
		r.fatalArithErr(err)
		return false
	}
	return true
}

// assignGlobalScalar assigns the global variable name, past any local
// of the same name and without following a nameref.
func (r *Interp) assignGlobalScalar(name, value string, appendTo bool) bool {
	g := r.vars.global().vars[name]
	if g == nil {
		g = &Var{}
		r.vars.global().vars[name] = g
	}
	if g.Attr&AttrReadonly != 0 {
		r.errorf("%s: readonly variable", name)
		return false
	}
	if g.Attr&AttrNameref != 0 || g.IsArray() {
		return false
	}
	val, err := r.attrValue(g, g.Str, value, appendTo && g.Set)
	if err != nil {
		r.errorf("%s", err.Error())
		return false
	}
	g.Str, g.Set = val, true
	return true
}

// fatalArithErr handles an arithmetic error in assigning to an integer
// variable or an array element as bash does: a -c string ends, a script
// abandons the current top-level command and the rest of its line.
func (r *Interp) fatalArithErr(err error) {
	if strings.Contains(err.Error(), "(error token is") {
		r.arithAssignFailed()
	}
}

// arithAssignFailed is what an arithmetic error in an assignment or a
// subscript does once it is reported: a script abandons the rest of the
// line, a -c string ends.
func (r *Interp) arithAssignFailed() {
	if !r.cmdString {
		panic(errDiscard)
	}
	panic(&exitError{status: 1})
}

// assignArray performs a=(...) or a+=(...).
func (r *Interp) assignArray(name string, arr *syntax.ArrayExpr, appendTo bool) bool {
	rname, _, _ := r.vars.resolve(name)
	v, _ := r.vars.lookup(rname)
	if v == nil {
		v = &Var{}
		if r.opts.allexport {
			v.Attr |= AttrExport
		}
		r.vars.global().vars[rname] = v
	}
	return r.assignArrayTo(v, rname, arr, appendTo)
}

// assignArrayTo performs rname=(...) or rname+=(...) on v, the variable
// rname names where the assignment is made.
func (r *Interp) assignArrayTo(v *Var, rname string, arr *syntax.ArrayExpr, appendTo bool) bool {
	if v.Attr&AttrReadonly != 0 {
		r.errorf("%s: readonly variable", rname)
		return false
	}
	if v.Attr&AttrAssoc != 0 {
		// the values are expanded before the array changes:
		// h=([k]="${h[k]} more")
		na := v.Assoc
		if !appendTo || na == nil {
			na = v.Assoc.emptied()
		}
		defer func() { v.Assoc = na }()
		for _, el := range arr.Elems {
			if el.Index == nil {
				// bash 5.2: a=(k1 v1 k2 v2) assigns pairs.
				continue
			}
			key := r.arithSource(el.Index, el.Index.Pos().Offset(), el.Index.End().Offset())
			val := r.expandString(el.Value)
			if key == "" {
				// ([]=x) (repair.go): bash quotes the key and the value
				r.errorf("[%s]=%s: bad array subscript", shellQuote(key), shellQuote(val))
				continue
			}
			old, _ := na.Get(key)
			nv, err := r.attrValue(v, old, val, false)
			if err != nil {
				r.errorf("%s", err.Error())
				r.fatalArithErr(err)
				return false
			}
			na.Set(key, nv)
		}
		// Key-value pairs without subscripts, each word expanded as an
		// assignment's value (no splitting, no globbing); in a list that
		// starts with a subscript, a word without one is an error.
		keyed := len(arr.Elems) > 0 && (arr.Elems[0].Index != nil || isAppendElem(arr.Elems[0]))
		var key string
		isValue, badKey := false, false
		for _, el := range arr.Elems {
			if el.Index != nil || el.Value == nil {
				continue
			}
			if k, w, ok := appendElem(el); ok && keyed {
				val := r.expandAssignValue(w)
				old, _ := na.Get(k)
				nv, err := r.attrValue(v, old, val, true)
				if err != nil {
					r.errorf("%s", err.Error())
					return false
				}
				na.Set(k, nv)
				continue
			}
			w := r.expandString(el.Value)
			switch {
			case keyed:
				r.errorf("%s: %s: must use subscript when assigning associative array", rname, w)
				continue
			case isValue && !badKey:
				na.Set(key, w)
			case !isValue:
				key, badKey = w, w == ""
				if badKey {
					r.errorf("%s: bad array subscript", r.curText(el.Value))
				}
			}
			isValue = !isValue
		}
		if isValue && !badKey {
			na.Set(key, "")
		}
		v.Set = true
		return true
	}
	old := v.Index
	if v.Attr&AttrIndexed == 0 {
		old = &IndexedArray{}
		if v.Set && appendTo {
			old.Set(0, v.Str)
		}
	}
	a := &IndexedArray{}
	next := int64(0)
	if appendTo && old != nil {
		a = old.clone()
		next = a.Max() + 1
	}
	for _, el := range arr.Elems {
		if el.Index != nil {
			switch raw := strings.TrimSpace(r.curText(el.Index)); raw {
			case "":
				if r.curText(el.Index) == "" {
					// ([]=x) (repair.go)
					r.errorf("%s: bad array subscript", r.elemText(el))
					continue
				}
			case "@", "*":
				r.errorf("%s: cannot assign to non-numeric index", r.elemText(el))
				continue
			}
			sub := r.arithSource(el.Index, el.Index.Pos().Offset(), el.Index.End().Offset())
			// bash dequotes a compound assignment's subscript once more
			// after expanding it: every \x01 (its CTLESC) in the text
			// goes, so ([$'x\001y\177z']=v) evaluates "xy\177z".
			sub = strings.ReplaceAll(sub, "\x01", "")
			i, ok := r.arithString(sub)
			if !ok {
				// bash has assigned the elements before the bad
				// subscript: the array keeps them.
				v.Attr |= AttrIndexed
				v.Index, v.Str, v.Set = a, "", true
				r.arithAssignFailed()
			}
			if i < 0 {
				i += a.Max() + 1
				if i < 0 {
					r.errorf("%s: bad array subscript", r.elemText(el))
					continue
				}
			}
			val := r.expandAssignValue(el.Value)
			nv, err := r.attrValue(v, "", val, false)
			if err != nil {
				r.errorf("%s", err.Error())
				// the elements before the bad one stay, as in bash
				v.Attr |= AttrIndexed
				v.Index, v.Str, v.Set = a, "", true
				r.fatalArithErr(err)
				return false
			}
			a.Set(i, nv)
			next = i + 1
			continue
		}
		if el.Value == nil {
			continue
		}
		if sub, w, ok := appendElem(el); ok {
			// ([i]+=v), which the parser reads as a word: v is
			// appended to element i as the list assigns it
			i, ok := r.arithString(sub)
			if !ok {
				v.Attr |= AttrIndexed
				v.Index, v.Str, v.Set = a, "", true
				r.arithAssignFailed()
			}
			if i < 0 {
				i += a.Max() + 1
			}
			old, _ := a.Get(i)
			nv, err := r.attrValue(v, old, r.expandAssignValue(w), true)
			if err != nil {
				r.errorf("%s", err.Error())
				v.Attr |= AttrIndexed
				v.Index, v.Str, v.Set = a, "", true
				r.fatalArithErr(err)
				return false
			}
			if i >= 0 {
				a.Set(i, nv)
				next = i + 1
			}
			continue
		}
		for _, s := range r.expandWords([]*syntax.Word{el.Value}) {
			nv, err := r.attrValue(v, "", s, false)
			if err != nil {
				r.errorf("%s", err.Error())
				// the elements before the bad one stay, as in bash
				v.Attr |= AttrIndexed
				v.Index, v.Str, v.Set = a, "", true
				r.fatalArithErr(err)
				return false
			}
			a.Set(next, nv)
			next++
		}
	}
	v.Attr |= AttrIndexed
	v.Index, v.Str, v.Set = a, "", true
	return true
}

// isAppendElem reports whether el is [sub]+=value.
func isAppendElem(el *syntax.ArrayElem) bool {
	_, _, ok := appendElem(el)
	return ok
}

// appendElem splits an element [sub]+=value of a compound assignment,
// which the parser reads as a word without a subscript, into the
// subscript and the value.
func appendElem(el *syntax.ArrayElem) (string, *syntax.Word, bool) {
	if el.Index != nil || el.Value == nil || len(el.Value.Parts) == 0 {
		return "", nil, false
	}
	lit, ok := el.Value.Parts[0].(*syntax.Lit)
	if !ok || !strings.HasPrefix(lit.Value, "[") {
		return "", nil, false
	}
	close := strings.Index(lit.Value, "]+=")
	if close < 0 || strings.ContainsAny(lit.Value[1:close], "[]") {
		return "", nil, false
	}
	rest := lit.Value[close+3:]
	parts := append([]syntax.WordPart(nil), el.Value.Parts[1:]...)
	if rest != "" {
		pos := syntax.NewPos(lit.ValuePos.Offset()+uint(close+3), lit.ValuePos.Line(), lit.ValuePos.Col()+uint(close+3))
		parts = append([]syntax.WordPart{&syntax.Lit{ValuePos: pos, ValueEnd: lit.ValueEnd, Value: rest}}, parts...)
	}
	return lit.Value[1:close], &syntax.Word{Parts: parts}, true
}

// elemText is the source text of an element of a compound assignment
// with a subscript, [sub]=value, as bash's errors quote it.
func (r *Interp) elemText(el *syntax.ArrayElem) string {
	if r.source == nil || el.Index == nil {
		return ""
	}
	start, end := int(el.Index.Pos().Offset())-1, int(el.End().Offset())
	if el.Value == nil {
		end = int(el.Index.End().Offset()) + len("]=")
	}
	if start < 0 || end > len(r.source.text) || start >= end {
		return ""
	}
	return r.source.text[start:end]
}

// unsetVar removes a variable (after namerefs) from the innermost scope
// holding it.
func (r *Interp) unsetVar(name string) bool {
	rname, sub, viaRef := r.vars.resolve(name)
	if viaRef && sub != "" {
		return r.unsetElem(rname, sub)
	}
	v, sc := r.vars.lookup(rname)
	if v == nil {
		return true
	}
	if v.Attr&AttrReadonly != 0 {
		r.errorf("unset: %s: cannot unset: readonly variable", rname)
		return false
	}
	if rname == "BASH_XTRACEFD" {
		r.unsetXtraceFd()
	}
	delete(sc.vars, rname)
	if sc != r.vars.global() && sc == r.vars.top() && sc.fn != "" {
		// A local unset in its own function stays local, unset, until
		// the function returns.
		sc.vars[rname] = &Var{}
		return true
	}
	if rname == "POSIXLY_CORRECT" {
		r.opts.posix = false
	}
	if rname == "RANDOM" || rname == "SECONDS" || rname == "BASH_ARGV0" {
		// Unset dynamic variables lose their special meaning.
		sc.vars[rname] = &Var{Attr: AttrTrace}
		delete(sc.vars, rname)
	}
	return true
}

func (r *Interp) unsetElem(name, sub string) bool {
	v, _ := r.vars.lookup(name)
	if v == nil {
		return true
	}
	if v.Attr&AttrReadonly != 0 {
		r.errorf("unset: %s: cannot unset: readonly variable", name)
		return false
	}
	switch {
	case v.Attr&AttrAssoc != 0:
		// bash 5.2: unset 'A[@]' unsets the key @
		v.Assoc.Unset(sub)
	case v.Attr&AttrIndexed != 0:
		if sub == "@" || sub == "*" {
			v.Index = &IndexedArray{}
			return true
		}
		i, ok := r.arithString(sub)
		if !ok {
			return false
		}
		if i < 0 {
			i += v.Index.Max() + 1
			if i < 0 {
				r.errorf("unset: [%s]: bad array subscript", sub)
				return false
			}
		}
		v.Index.Unset(i)
	default:
		if sub == "@" || sub == "*" {
			r.errorf("unset: %s: not an array variable", name)
			return false
		}
		i, ok := r.arithString(sub)
		if !ok {
			return false
		}
		if i != 0 {
			// only [0] names a scalar
			r.errorf("unset: %s: not an array variable", name)
			return false
		}
		v.Set, v.Str = false, ""
	}
	return true
}
