package shell

import (
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
		// the hash table, as an associative array
		a := &AssocArray{}
		for _, k := range r.hashOrder() {
			a.Set(k, r.hashes[k])
		}
		return &Var{Attr: AttrAssoc, Set: true, Assoc: a}
	case "DIRSTACK":
		a := &IndexedArray{}
		a.Set(0, r.dir)
		for i := len(r.dirStack) - 1; i >= 0; i-- {
			a.Set(int64(len(r.dirStack)-i), r.dirStack[i])
		}
		return &Var{Attr: AttrIndexed, Set: true, Index: a}
	case "SHELLOPTS":
		return &Var{Set: true, Str: r.shellopts()}
	case "BASHOPTS":
		return &Var{Set: true, Str: r.bashopts()}
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

// nextRandom steps $RANDOM: a 15-bit value from a seeded LCG, so runs
// with the same seed repeat.
func (r *Interp) nextRandom() int {
	r.rand = r.rand*1103515245 + 12345
	return int((r.rand >> 16) & 0x7fff)
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
		return r.assignElem(rname, sub, value, appendTo)
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
		n, _ := strconv.ParseInt(value, 10, 64)
		r.rand = uint32(n)
	case "SECONDS":
		r.secondsAt = r.now()
	case "BASH_ARGV0":
		r.arg0 = value // assigning BASH_ARGV0 sets $0
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
		n, err := r.arithEvalErr(value)
		if err != nil {
			return "", err
		}
		if appendTo {
			o, _ := strconv.ParseInt(old, 10, 64)
			n += o
		}
		return strconv.FormatInt(n, 10), nil
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
	if rname == "BASH_CMDS" {
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
		return false
	}
	if v := r.vars.get(name); v != nil && v.Attr&AttrReadonly != 0 {
		// a nameref names its target
		rn, _, _ := r.vars.resolve(name)
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
			fatalArithErr(err)
			return false
		}
		return true
	}
	if err := r.assign(name, val, as.Append); err != nil {
		r.errorf("%s", err.Error())
		fatalArithErr(err)
		return false
	}
	return true
}

// fatalArithErr ends the shell after an arithmetic error in assigning to
// an integer variable, as bash does.
func fatalArithErr(err error) {
	if strings.Contains(err.Error(), "(error token is") {
		panic(&exitError{status: 1})
	}
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
	if v.Attr&AttrReadonly != 0 {
		r.errorf("%s: readonly variable", rname)
		return false
	}
	if v.Attr&AttrAssoc != 0 {
		if !appendTo {
			v.Assoc = &AssocArray{}
		}
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
			old, _ := v.Assoc.Get(key)
			nv, err := r.attrValue(v, old, val, false)
			if err != nil {
				r.errorf("%s", err.Error())
				return false
			}
			v.Assoc.Set(key, nv)
		}
		// Key-value pairs without subscripts.
		var words []*syntax.Word
		for _, el := range arr.Elems {
			if el.Index == nil && el.Value != nil {
				words = append(words, el.Value)
			}
		}
		if len(words) > 0 {
			list := r.expandWords(words)
			for i := 0; i < len(list); i += 2 {
				val := ""
				if i+1 < len(list) {
					val = list[i+1]
				}
				v.Assoc.Set(list[i], val)
			}
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
			i, ok := r.arithString(sub)
			if !ok {
				// bash has assigned the elements before the bad
				// subscript: the array keeps them.
				v.Attr |= AttrIndexed
				v.Index, v.Str, v.Set = a, "", true
				return false
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
				return false
			}
			a.Set(i, nv)
			next = i + 1
			continue
		}
		if el.Value == nil {
			continue
		}
		for _, s := range r.expandWords([]*syntax.Word{el.Value}) {
			nv, err := r.attrValue(v, "", s, false)
			if err != nil {
				r.errorf("%s", err.Error())
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
		if sub == "@" || sub == "*" {
			v.Assoc = &AssocArray{}
			return true
		}
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
