package shell

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// paramValue is what a parameter names before operators apply: one
// value, or a list (from $@, $*, ${a[@]}, ${a[*]}).
type paramValue struct {
	list  bool     // an @ or * list
	star  bool     // joined with IFS[0] when quoted
	vals  []string // the list, or the single value
	set   bool     // the parameter is set (for a list: has elements)
	name  string   // the variable name, when it is one (for assignment and messages)
	index string   // the subscript text, when one was given
	// raw is the expansion of an operator's word (${x:-word}) with its
	// quoting and "$@" breaks, used as is when the value is emitted.
	raw *xbuf
	// quoted marks a list that came from a quoted "$@" in an operator's
	// word: its elements are fields as they are, unquoted or not.
	quoted bool
}

func (p *paramValue) str() string {
	if len(p.vals) == 0 {
		return ""
	}
	return p.vals[0]
}

// expandParam expands ${...} or $name into x.
func (r *Interp) expandParam(x *xbuf, pe *syntax.ParamExp, quoted bool) {
	saved := r.paramInDQ
	r.paramInDQ = quoted
	pv := r.paramResolve(pe)
	r.paramInDQ = saved
	r.emitParam(x, pv, quoted)
}

// emitParam appends a parameter's value(s) to x.
func (r *Interp) emitParam(x *xbuf, pv paramValue, quoted bool) {
	if pv.raw != nil {
		x.appendBuf(pv.raw)
		return
	}
	if pv.quoted {
		quoted = true
	}
	if !pv.list {
		x.add(pv.str(), quoted, !quoted)
		if quoted && pv.str() == "" {
			x.mark(markEmpty)
		}
		return
	}
	if pv.star && quoted {
		x.add(strings.Join(pv.vals, r.ifsJoiner()), true, false)
		return
	}
	for i, v := range pv.vals {
		if i > 0 {
			if pv.star {
				x.mark(markStarBreak)
			} else {
				x.mark(markBreak)
			}
		}
		x.add(v, quoted, !quoted)
		if quoted && v == "" {
			x.mark(markEmpty)
		}
	}
}

// ifsJoiner is the first character of IFS ("" if IFS is empty, a space
// if unset), which "$*" joins with.
func (r *Interp) ifsJoiner() string {
	ifs, ok := r.getScalar("IFS")
	if !ok {
		return " "
	}
	if ifs == "" {
		return ""
	}
	_, n := utf8.DecodeRuneInString(ifs)
	return ifs[:n]
}

// paramResolve evaluates a parameter expansion to its value(s).
func (r *Interp) paramResolve(pe *syntax.ParamExp) paramValue {
	if pe.Param == nil {
		r.badSubst(pe)
	}
	if r.source != nil && r.source.bad[int(pe.Pos().Offset())] {
		r.badRepaired(pe)
	}
	if pe.Param.Value == "#" && !pe.Length && (pe.Exp != nil || pe.Repl != nil) {
		// ${#/} ${#%} ${#=} ${#+}: bash reads # as the length operator
		// with no parameter after it
		switch r.curText(pe) {
		case "${#/}", "${#%}", "${#=}", "${#+}":
			r.badSubst(pe)
		}
	}
	name := pe.Param.Value
	// ${!prefix*} and ${!prefix@}
	if pe.Excl && pe.Names != 0 {
		var names []string
		for _, n := range r.vars.names() {
			if strings.HasPrefix(n, name) {
				if v := r.vars.get(n); v != nil && (v.Set || v.IsArray()) {
					names = append(names, n)
				}
			}
		}
		return paramValue{list: true, star: pe.Names == syntax.NamesPrefix, vals: names, set: len(names) > 0}
	}
	idx, hasIdx := r.subscriptText(pe)
	// ${!a[@]}: the keys.
	if pe.Excl && hasIdx && (idx == "@" || idx == "*") {
		v := r.vars.get(name)
		if v == nil {
			v = r.dynamicVar(name)
		}
		var keys []string
		if v != nil {
			keys = v.keys()
		}
		return r.applyOps(pe, paramValue{list: true, star: idx == "*", vals: keys, set: len(keys) > 0, name: name})
	}
	var pv paramValue
	if pe.Excl {
		// Indirection: the value names the parameter to expand.
		ref := r.lookupParam(name, idx, hasIdx, pe)
		target := ref.str()
		v, _ := r.vars.lookup(name)
		if v != nil && v.Attr&AttrNameref != 0 && !hasIdx {
			// ${!ref} of a nameref is the name it refers to.
			pv = paramValue{vals: []string{v.Str}, set: v.Set}
		} else if (name == "@" || name == "*") && len(r.params) == 0 {
			// ${!@} and ${!*} without positional parameters: nothing
			pv = paramValue{}
		} else {
			if !ref.set && target == "" {
				if !pe.Length {
					shown := name
					if hasIdx {
						shown += "[" + idx + "]"
					}
					r.errorf("%s: invalid indirect expansion", shown)
					panic(errDiscard)
				}
			}
			pv = r.indirect(target, pe)
		}
	} else {
		pv = r.lookupParam(name, idx, hasIdx, pe)
	}
	if pe.Length {
		if pv.list {
			if pv.name == "" && (name == "@" || name == "*") {
				return paramValue{vals: []string{strconv.Itoa(len(r.params))}, set: true}
			}
			return paramValue{vals: []string{strconv.Itoa(len(pv.vals))}, set: true}
		}
		if !pv.set && r.opts.nounset && name != "@" && name != "*" {
			if !hasIdx || pe.Excl {
				r.unbound(pe, pv)
			}
			// ${#a[i]}: an unset element of an array is 0 long; only
			// an unset array is an error, by its name
			if v := r.vars.get(name); v == nil || !v.Set {
				// bash reports it and reads on from the next line
				r.errorf("%s: unbound variable", name)
				r.status = 127
				panic(errDiscard)
			}
		}
		return paramValue{vals: []string{strconv.Itoa(utf8.RuneCountInString(pv.str()))}, set: true}
	}
	return r.applyOps(pe, pv)
}

// indirect expands the parameter named by target (a name, a[sub], or a
// positional or special parameter).
func (r *Interp) indirect(target string, pe *syntax.ParamExp) paramValue {
	name, sub, hasSub := target, "", false
	if i := strings.IndexByte(target, '['); i > 0 && strings.HasSuffix(target, "]") {
		name, sub, hasSub = target[:i], target[i+1:len(target)-1], true
	}
	if !validName(name) && !isSpecialParam(name) {
		r.errorf("%s: invalid variable name", target)
		panic(errDiscard)
	}
	if hasSub && sub != "@" && sub != "*" {
		// Evaluate the subscript as written in the value.
		return r.lookupParam(name, r.expandSubscriptText(sub), true, pe)
	}
	return r.lookupParam(name, sub, hasSub, pe)
}

// expandSubscriptText expands the subscript of a name held in a value
// (a nameref's x[$i], ${!v} of "x[$(cmd)]") as bash expands subscripts:
// parameters, command substitutions and arithmetic, as if in double
// quotes.
func (r *Interp) expandSubscriptText(sub string) string {
	if !strings.ContainsAny(sub, "$`") {
		return sub
	}
	w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(sub))
	if err != nil {
		return sub
	}
	// the parsed nodes' offsets are into sub
	saved := r.source
	r.source = &sourceFile{name: r.sourceName(), text: sub}
	defer func() { r.source = saved }()
	return r.expandHeredoc(w)
}

func isSpecialParam(name string) bool {
	if name == "" {
		return false
	}
	if len(name) == 1 && strings.IndexByte("@*#?-$!0_", name[0]) >= 0 {
		return true
	}
	for _, c := range name {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// subscriptText is the subscript of ${a[...]}, expanded ("@" and "*"
// stay as they are).
func (r *Interp) subscriptText(pe *syntax.ParamExp) (string, bool) {
	if pe.Index == nil {
		return "", false
	}
	if w, ok := pe.Index.(*syntax.Word); ok {
		if l := w.Lit(); l == "@" || l == "*" {
			return l, true
		}
	}
	return r.arithSource(pe.Index, pe.Index.Pos().Offset(), pe.Index.End().Offset()), true
}

// lookupParam reads a parameter: special, positional, variable or
// array element. idx is the expanded subscript text when hasIdx.
func (r *Interp) lookupParam(name, idx string, hasIdx bool, pe *syntax.ParamExp) paramValue {
	switch name {
	case "@", "*":
		return paramValue{list: true, star: name == "*", vals: append([]string(nil), r.params...), set: len(r.params) > 0}
	case "#":
		return paramValue{vals: []string{strconv.Itoa(len(r.params))}, set: true}
	case "?":
		return paramValue{vals: []string{strconv.Itoa(r.status)}, set: true}
	case "-":
		return paramValue{vals: []string{r.optionFlags()}, set: true}
	case "$":
		return paramValue{vals: []string{strconv.Itoa(r.pid)}, set: true}
	case "!":
		if r.lastBg == 0 {
			return paramValue{}
		}
		return paramValue{vals: []string{strconv.Itoa(r.lastBg)}, set: true}
	case "0":
		return paramValue{vals: []string{r.arg0}, set: true}
	case "_":
		return paramValue{vals: []string{r.lastArg}, set: true}
	}
	if name[0] >= '0' && name[0] <= '9' {
		n, err := strconv.Atoi(name)
		if err != nil || n < 1 || n > len(r.params) {
			return paramValue{}
		}
		return paramValue{vals: []string{r.params[n-1]}, set: true}
	}
	if r.vars.circular(name) {
		r.errorf("warning: %s: circular name reference", name)
		if g := r.vars.global().vars[name]; g != nil && !hasIdx && r.vars.selfRefLocal(name) && g.Attr&AttrNameref == 0 {
			s, ok := g.scalar()
			return paramValue{name: name, vals: []string{s}, set: ok}
		}
		return paramValue{}
	}
	rname, rsub, viaRef := r.vars.resolve(name)
	if viaRef && !hasIdx {
		idx, hasIdx = r.expandSubscriptText(rsub), true
	}
	v := r.dynamicVar(rname)
	if v == nil {
		v, _ = r.vars.lookup(rname)
	}
	pv := paramValue{name: rname, index: idx}
	if hasIdx && (idx == "@" || idx == "*") && (pe == nil || pe.Index == nil || isLitAtIndex(pe)) {
		pv.list, pv.star = true, idx == "*"
		if v != nil {
			pv.vals = v.values()
		}
		pv.set = len(pv.vals) > 0
		return pv
	}
	if v == nil {
		if hasIdx {
			// an unset array's subscript is still evaluated
			r.arrayIndex(rname, idx, nil)
		}
		return pv
	}
	if !hasIdx {
		pv.vals = []string{""}
		s, ok := v.scalar()
		pv.vals[0], pv.set = s, ok
		return pv
	}
	switch {
	case v.Attr&AttrAssoc != 0:
		s, ok := v.Assoc.Get(idx)
		pv.vals, pv.set = []string{s}, ok
	case v.Attr&AttrIndexed != 0:
		i, ok := r.arrayIndex(rname, idx, v)
		if !ok {
			pv.vals = []string{""}
			return pv
		}
		s, ok := v.Index.Get(i)
		pv.vals, pv.set = []string{s}, ok
	default:
		i, ok := r.arrayIndex(rname, idx, nil)
		if ok && i == 0 {
			pv.vals, pv.set = []string{v.Str}, v.Set
		}
	}
	return pv
}

// arrayIndex evaluates an indexed array subscript; negative indexes
// count from the end of v. It reports "bad array subscript" itself.
func (r *Interp) arrayIndex(name, sub string, v *Var) (int64, bool) {
	i, ok := r.arithString(sub)
	if !ok {
		// bash abandons what it read: a script reads on from the next
		// line, bash -c has nothing more to run
		r.arithAssignFailed()
	}
	if i < 0 {
		max := int64(-1)
		if v != nil {
			max = v.Index.Max()
		}
		i = max + 1 + i
		if i < 0 {
			r.errorf("%s: bad array subscript", name)
			return 0, false
		}
	}
	return i, true
}

// applyOps applies the operator of a parameter expansion.
func (r *Interp) applyOps(pe *syntax.ParamExp, pv paramValue) paramValue {
	isNull := func() bool {
		if pv.list {
			return len(pv.vals) == 0 || (len(pv.vals) == 1 && pv.vals[0] == "") || pv.star && strings.Join(pv.vals, "") == ""
		}
		return pv.str() == ""
	}
	if pe.Exp != nil {
		switch op := pe.Exp.Op; op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
			if !pv.set || op == syntax.DefaultUnsetOrNull && isNull() {
				return r.wordValue(pe.Exp.Word)
			}
			return pv
		case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			if !pv.set && pv.list && !pv.star {
				return paramValue{list: true} // "${@:+x}" with no elements: no field
			}
			if !pv.set || op == syntax.AlternateUnsetOrNull && isNull() {
				return paramValue{vals: []string{""}, set: true}
			}
			return r.wordValue(pe.Exp.Word)
		case syntax.AssignUnset, syntax.AssignUnsetOrNull:
			if pv.set && !(op == syntax.AssignUnsetOrNull && isNull()) {
				return pv
			}
			val := ""
			if r.paramInDQ {
				// "${x='$y'}" assigns what "${x:-'$y'}" gives: quotes kept
				wv := r.wordValue(pe.Exp.Word)
				val = wv.str()
			} else {
				val = r.expandString(pe.Exp.Word)
			}
			if w := pe.Exp.Word; w != nil && !r.paramInDQ && len(w.Parts) > 0 && strings.HasPrefix(litPrefix(w.Parts[0]), "~") {
				// ${u=~} assigns the expanded tilde
				var x xbuf
				r.expandParts(&x, w.Parts, false, true)
				x.joinBreaks(r)
				val = string(x.b)
			}
			if av := r.vars.get(pv.name); pv.list && av != nil && av.Attr&AttrAssoc != 0 && pe.Index != nil {
				// ${A[@]=x}: @ is a key of an associative array
				if err := r.assignElem(pv.name, pv.index, val, false); err != nil {
					r.errorf("%s", err.Error())
					panic(errDiscard)
				}
				nv, _ := av.Assoc.Get(pv.index)
				return paramValue{vals: []string{nv}, set: true, name: pv.name}
			}
			if pv.name != "" && pv.list {
				r.errorf("%s: bad array subscript", paramDisplayName(pe))
				panic(errDiscard)
			}
			if pv.name == "" || pv.list {
				r.errorf("$%s: cannot assign in this way", pe.Param.Value)
				panic(errDiscard)
			}
			target := pv.name
			if pv.index != "" {
				target += "[" + pv.index + "]"
			}
			if !r.assignChecked(target, val) {
				panic(errDiscard)
			}
			nv, _ := r.getScalar(pv.name)
			if pv.index != "" {
				// the element as stored: -i evaluated, -u/-l applied
				nv = val
				if av := r.vars.get(pv.name); av != nil {
					if s, err := r.attrValue(av, "", val, false); err == nil {
						nv = s
					}
				}
			}
			return paramValue{vals: []string{nv}, set: true, name: pv.name}
		case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			if pv.set && !(op == syntax.ErrorUnsetOrNull && isNull()) {
				return pv
			}
			msg := "parameter null or not set"
			if op == syntax.ErrorUnset {
				msg = "parameter not set"
			}
			if pe.Exp.Word != nil {
				if m := r.expandString(pe.Exp.Word); m != "" || len(pe.Exp.Word.Parts) > 0 {
					msg = m
				}
			}
			r.errorf("%s: %s", paramDisplayName(pe), msg)
			panic(&exitError{status: 1, unbound: true})
		}
	}
	if !pv.set && r.opts.nounset && !(pv.list && (pe.Param.Value == "@" || pe.Param.Value == "*")) {
		if !(pv.list && pv.name != "" && r.vars.get(pv.name) != nil) {
			r.unbound(pe, pv)
		}
	}
	switch {
	case pe.Slice != nil:
		return r.slice(pe, pv)
	case pe.Repl != nil:
		pat := r.expandPattern(pe.Repl.Orig)
		with := ""
		if pe.Repl.With != nil {
			with = r.expandReplacement(pe.Repl.With)
		}
		return mapVals(pv, func(s string) string { return r.replace(s, pat, with, pe.Repl.All) })
	case pe.Exp != nil:
		op := pe.Exp.Op
		switch op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			pat := r.expandPattern(pe.Exp.Word)
			return mapVals(pv, func(s string) string { return r.removeAffix(s, pat, op) })
		case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
			pat := "?"
			if pe.Exp.Word != nil && len(pe.Exp.Word.Parts) > 0 {
				pat = r.expandPattern(pe.Exp.Word)
			}
			if r.caseToggle(pe) {
				return mapVals(pv, func(s string) string { return caseToggle(s, pat, r.patternMode(false), op == syntax.LowerAll) })
			}
			return mapVals(pv, func(s string) string { return r.caseMod(s, pat, op) })
		case syntax.OtherParamOps:
			return r.transform(pe, pv, r.expandString(pe.Exp.Word))
		}
	}
	return pv
}

func paramDisplayName(pe *syntax.ParamExp) string {
	n := pe.Param.Value
	if pe.Index != nil {
		if w, ok := pe.Index.(*syntax.Word); ok {
			n += "[" + w.Lit() + "]"
		}
	}
	return n
}

// unbound reports an unset parameter under set -u; the shell exits.
func (r *Interp) unbound(pe *syntax.ParamExp, pv paramValue) {
	name := pe.Param.Value
	if pv.index != "" && pe.Index != nil {
		name += "[" + pv.index + "]"
	} else if name != "" && strings.Trim(name, "0123456789") == "" {
		name = "$" + name // a positional parameter
	}
	r.errorf("%s: unbound variable", name)
	panic(&exitError{status: 1, unbound: true})
}

func (r *Interp) badSubst(pe *syntax.ParamExp) {
	r.errorf("%s: bad substitution", r.curText(pe))
	panic(errDiscard)
}

// wordValue expands the word of an operator (${x:-word}), keeping "$@"
// lists as lists.
func (r *Interp) wordValue(w *syntax.Word) paramValue {
	if w == nil {
		return paramValue{vals: []string{""}, set: true}
	}
	if len(w.Parts) == 1 {
		if q, ok := w.Parts[0].(*syntax.DblQuoted); ok && isQuotedAtOnly(q) {
			pv := r.paramResolve(q.Parts[0].(*syntax.ParamExp))
			pv.set = true
			pv.quoted = true
			return pv
		}
	}
	if r.paramInDQ {
		w = dqOperand(w)
	}
	// In a here-document, bash keeps $'..' of the operand as written.
	hdoc := r.paramInHdoc
	r.paramInHdoc = false
	defer func() { r.paramInHdoc = hdoc }()
	raw := &xbuf{}
	if r.paramInDQ {
		for _, p := range w.Parts {
			if q, ok := p.(*syntax.SglQuoted); ok && hdoc && q.Dollar {
				raw.add("$'"+q.Value+"'", true, false)
				continue
			}
			if q, ok := p.(*syntax.SglQuoted); ok && r.sglInDQ(raw, q) {
				continue
			}
			if q, ok := p.(*syntax.DblQuoted); ok && len(q.Parts) > 0 {
				// bash reads the backslashes of "..." inside a quoted
				// ${x:+...} as unquoted ones: "${x:+"\p"}" is p.
				for _, qp := range q.Parts {
					if l, ok := qp.(*syntax.Lit); ok {
						raw.add(unescapeAll(l.Value), true, false)
						continue
					}
					r.expandParts(raw, []syntax.WordPart{qp}, true, false)
				}
				continue
			}
			r.expandParts(raw, []syntax.WordPart{p}, true, false)
		}
	} else {
		r.expandParts(raw, w.Parts, false, true) // ${x:-~} expands the ~
	}
	for i, q := range raw.quote {
		if !q {
			raw.split[i] = true // unquoted text of the word splits, literals too
		}
	}
	joined := *raw
	joined.joinBreaks(r)
	return paramValue{vals: []string{string(joined.b)}, set: true, raw: raw}
}

func mapVals(pv paramValue, f func(string) string) paramValue {
	out := pv
	out.raw = nil
	out.vals = make([]string, len(pv.vals))
	for i, v := range pv.vals {
		out.vals[i] = f(v)
	}
	return out
}

// blanksAfter is the offset past the blanks at offset end of the source:
// bash's expressions run to the next delimiter, blanks included.
func (r *Interp) blanksAfter(end uint) uint {
	if r.source == nil {
		return end
	}
	for int(end) < len(r.source.text) && (r.source.text[end] == ' ' || r.source.text[end] == '\t') {
		end++
	}
	return end
}

// sliceParamText is the parameter of ${x:offset:length} as written in
// its text t: x, !x, a[@], #.
func sliceParamText(t string) string {
	if !strings.HasPrefix(t, "${") {
		return ""
	}
	t = t[2:]
	k := 0
	if strings.HasPrefix(t, "!") {
		k = 1
	}
	n := paramNameLen(t[k:])
	if n == 0 && k < len(t) {
		n = 1
	}
	k += n
	if k < len(t) && t[k] == '[' {
		depth := 0
		for j := k; j < len(t); j++ {
			switch t[j] {
			case '[':
				depth++
			case ']':
				depth--
			}
			if depth == 0 {
				k = j + 1
				break
			}
		}
	}
	return t[:min(k, len(t))]
}

// slice implements ${x:offset:length}, on characters of a string or
// elements of a list.
func (r *Interp) slice(pe *syntax.ParamExp, pv paramValue) paramValue {
	var off int64
	ok := true
	// bash names the parameter in the errors: "x: 1/0: division by 0 ..."
	prefix := sliceParamText(r.curText(pe)) + ": "
	if pe.Slice.Offset != nil {
		x := pe.Slice.Offset
		off, ok = r.arithStringPrefix(r.arithSourceMode(x, x.Pos().Offset(), r.blanksAfter(x.End().Offset()), true), prefix)
	}
	if !ok {
		panic(errDiscard)
	}
	hasLen := pe.Slice.Length != nil
	var length int64
	if hasLen {
		x := pe.Slice.Length
		length, ok = r.arithStringPrefix(r.arithSourceMode(x, x.Pos().Offset(), r.blanksAfter(x.End().Offset()), true), prefix)
		if !ok {
			panic(errDiscard)
		}
	}
	if pv.list {
		vals := pv.vals
		isParams := pv.name == "" && (pe.Param.Value == "@" || pe.Param.Value == "*")
		if isParams {
			// $0 is element 0 of "${@:0}".
			vals = append([]string{r.arg0}, r.params...)
		}
		n := int64(len(vals))
		var start int64
		if isParams || pv.name == "" {
			start = off
			if off < 0 {
				start = n + off
			}
		} else {
			// Arrays slice by index, not by position.
			v := r.vars.get(pv.name)
			idx := []int64{}
			if v != nil && v.Attr&AttrIndexed != 0 {
				idx = v.Index.Indexes()
			} else {
				for i := range vals {
					idx = append(idx, int64(i))
				}
			}
			target := off
			if off < 0 {
				target = int64(-1)
				if len(idx) > 0 {
					target = idx[len(idx)-1] + 1 + off
				}
			}
			start = int64(sort.Search(len(idx), func(i int) bool { return idx[i] >= target }))
			if off < 0 && target < 0 {
				start = n
			}
		}
		if start < 0 || start >= n {
			return paramValue{list: true, star: pv.star, set: pv.set}
		}
		end := n
		if hasLen {
			if length < 0 {
				r.errorf("%s: substring expression < 0", strconv.FormatInt(length, 10))
				panic(errDiscard)
			}
			end = min(start+length, n)
		}
		out := pv
		out.raw = nil
		out.vals = append([]string(nil), vals[start:end]...)
		return out
	}
	return mapVals(pv, func(s string) string {
		rs := []rune(s)
		n := int64(len(rs))
		start := off
		if start < 0 {
			start += n
			if start < 0 {
				return ""
			}
		}
		if start > n {
			return ""
		}
		end := n
		if hasLen {
			if length < 0 {
				end = n + length
				if end < start {
					r.errorf("%s: substring expression < 0", strconv.FormatInt(length, 10))
					panic(errDiscard)
				}
			} else {
				end = min(start+length, n)
			}
		}
		return string(rs[start:end])
	})
}

// removeAffix implements # ## % %%.
func (r *Interp) removeAffix(s, pat string, op syntax.ParExpOperator) string {
	m, err := patternCompile(pat, r.patternMode(false))
	if err != nil {
		return s
	}
	switch op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix:
		if n := m.matchPrefix(s, op == syntax.RemLargePrefix); n >= 0 {
			return s[n:]
		}
	default:
		if i := m.matchSuffix(s, op == syntax.RemLargeSuffix); i >= 0 {
			return s[:i]
		}
	}
	return s
}

// expandReplacement expands the replacement of ${x/pat/rep}: with
// patsub_replacement (on by default in bash 5.2) an unquoted & stands
// for the matched text; \& is a literal &.
func (r *Interp) expandReplacement(w *syntax.Word) string {
	var x xbuf
	r.expandParts(&x, w.Parts, false, false)
	x.joinBreaks(r)
	if !r.opts.patsubReplacement {
		return string(x.b)
	}
	// Mark unquoted & as the match with a NUL-free sentinel.
	var sb strings.Builder
	for i, c := range x.b {
		switch {
		case c == '&' && !x.quote[i]:
			sb.WriteString("\x00&")
		case c == '\\' && !x.quote[i]:
			sb.WriteString("\x00\\")
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// applyReplacement renders a replacement for a match.
func applyReplacement(rep, match string) string {
	if !strings.Contains(rep, "\x00") {
		return rep
	}
	var sb strings.Builder
	for i := 0; i < len(rep); i++ {
		if rep[i] == 0 && i+1 < len(rep) {
			i++
			if rep[i] == '&' {
				sb.WriteString(match)
			}
			continue
		}
		sb.WriteByte(rep[i])
	}
	return sb.String()
}

// replace implements ${s/pat/rep}, ${s//pat/rep}, ${s/#pat/rep} and
// ${s/%pat/rep}.
func (r *Interp) replace(s, pat, rep string, all bool) string {
	how := patternSubstFirst
	if all {
		how = patternSubstAll
	}
	if strings.HasPrefix(pat, "#") {
		how, pat = patternSubstPrefix, pat[1:]
	} else if strings.HasPrefix(pat, "%") {
		how, pat = patternSubstSuffix, pat[1:]
	}
	m, err := patternCompile(pat, r.patternMode(r.opts.nocasematch))
	if err != nil {
		return s
	}
	return m.replace(s, how, func(match string) string { return applyReplacement(rep, match) })
}

// caseMod implements ^ ^^ , ,, with a pattern each character must match.
func (r *Interp) caseMod(s, pat string, op syntax.ParExpOperator) string {
	m, err := patternCompile(pat, r.patternMode(false))
	if err != nil {
		return s
	}
	var sb strings.Builder
	first := true
	for _, c := range s {
		if first || op == syntax.UpperAll || op == syntax.LowerAll {
			if m.match(string(c)) {
				if op == syntax.UpperFirst || op == syntax.UpperAll {
					c = unicode.ToUpper(c)
				} else {
					c = unicode.ToLower(c)
				}
			}
		}
		first = false
		sb.WriteRune(c)
	}
	return sb.String()
}

// transform implements ${x@OP}.
func (r *Interp) transform(pe *syntax.ParamExp, pv paramValue, op string) paramValue {
	switch op {
	case "U":
		return mapVals(pv, strings.ToUpper)
	case "u":
		return mapVals(pv, func(s string) string {
			c, n := utf8.DecodeRuneInString(s)
			if n == 0 {
				return s
			}
			return string(unicode.ToUpper(c)) + s[n:]
		})
	case "L":
		return mapVals(pv, strings.ToLower)
	case "Q":
		if !pv.set {
			return pv
		}
		return mapVals(pv, shellQuote)
	case "E":
		return mapVals(pv, ansiC)
	case "P":
		return mapVals(pv, r.promptExpand)
	case "K", "k":
		v := (*Var)(nil)
		if pv.name != "" {
			v = r.vars.get(pv.name)
		}
		if v == nil || !v.IsArray() || !pv.list {
			if !pv.set {
				return pv
			}
			return mapVals(pv, shellQuote)
		}
		var parts []string
		keys := v.keys()
		vals := v.values()
		for i, k := range keys {
			kq := k
			if v.Attr&AttrAssoc != 0 {
				kq = shellQuoteAssocKey(k)
			}
			if op == "K" {
				parts = append(parts, kq+" "+shellQuoteDouble(vals[i]))
			} else {
				parts = append(parts, k, vals[i])
			}
		}
		if op == "k" {
			return paramValue{list: true, star: pv.star, vals: parts, set: true}
		}
		if v.Attr&AttrAssoc != 0 {
			return paramValue{vals: []string{strings.Join(parts, " ") + " "}, set: true} // bash's trailing blank
		}
		return paramValue{vals: []string{strings.Join(parts, " ")}, set: true}
	case "a":
		v := (*Var)(nil)
		if pv.name != "" {
			v = r.vars.get(pv.name)
		}
		flags := ""
		if v != nil {
			flags = attrFlags(v)
		}
		if pv.list {
			out := pv
			out.raw = nil
			out.vals = make([]string, len(pv.vals))
			for i := range out.vals {
				out.vals[i] = flags
			}
			return out
		}
		return paramValue{vals: []string{flags}, set: true}
	case "A":
		if n := pe.Param.Value; pv.name == "" && (n == "@" || n == "*") && len(pv.vals) > 0 {
			q := make([]string, len(pv.vals))
			for i, v := range pv.vals {
				q[i] = shellQuote(v)
			}
			return paramValue{vals: []string{"set -- " + strings.Join(q, " ")}, set: true}
		}
		if pv.name == "" {
			return paramValue{vals: []string{""}, set: true}
		}
		v := r.vars.get(pv.name)
		if v == nil || !pv.set && !v.IsArray() {
			return paramValue{vals: []string{""}, set: true}
		}
		if pv.list || v.IsArray() && pe.Index == nil {
			return paramValue{vals: []string{r.declareLine(pv.name, v)}, set: true}
		}
		prefix := ""
		if f := attrFlags(v); f != "" {
			prefix = "declare -" + f + " "
		}
		return paramValue{vals: []string{prefix + pv.name + "=" + shellQuote(pv.str())}, set: true}
	}
	r.errorf("%s: bad substitution", r.curText(pe))
	panic(errDiscard)
}

// shellQuote quotes s with single quotes as ${x@Q} does, or $'...' when s
// has control characters.
func shellQuote(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return ansiCQuote(s)
		}
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellQuoteDouble quotes s with double quotes as declare -p does, or
// $'...' when s has characters that do not print.
func shellQuoteDouble(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return ansiCQuote(s)
		}
	}
	if !utf8.ValidString(s) {
		return ansiCQuote(s)
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '$', '`':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// shellQuoteAssocKey quotes an associative array key for declare -p.
func shellQuoteAssocKey(k string) string {
	// ~ is quoted where it would expand (first, after : or =), # first
	if k == "" || k == "@" || k[0] == '~' || k[0] == '#' || strings.Contains(k, ":~") || strings.Contains(k, "=~") || strings.ContainsAny(k, " \t\n\"'\\$`*?[]()<>|&;!^{}") || !utf8.ValidString(k) {
		return shellQuoteDouble(k)
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c == 0x7f {
			return ansiCQuote(k)
		}
	}
	return k
}

// ansiCQuote renders s as $'...'.
func ansiCQuote(s string) string {
	var sb strings.Builder
	sb.WriteString("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\a':
			sb.WriteString(`\a`)
		case '\b':
			sb.WriteString(`\b`)
		case 0x1b:
			sb.WriteString(`\E`)
		case '\f':
			sb.WriteString(`\f`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		case '\v':
			sb.WriteString(`\v`)
		case '\\':
			sb.WriteString(`\\`)
		case '\'':
			sb.WriteString(`\'`)
		default:
			if c < 0x20 || c == 0x7f {
				sb.WriteString("\\" + strconv.FormatInt(int64(c)+01000, 8)[1:])
			} else if c >= 0x80 {
				// Valid UTF-8 prints; other bytes are octal escapes.
				if _, n := utf8.DecodeRuneInString(s[i:]); n > 1 {
					sb.WriteString(s[i : i+n])
					i += n - 1
				} else {
					sb.WriteString("\\" + strconv.FormatInt(int64(c), 8))
				}
			} else {
				sb.WriteByte(c)
			}
		}
	}
	sb.WriteByte('\'')
	return sb.String()
}

// sglInDQ expands '..' in the operand of a ${x:-'..'} inside double
// quotes, where bash keeps the quotes as characters and expands what is
// between them as double-quoted text ("${v:+'$v'}"). It reports false
// for text it leaves to the caller.
func (r *Interp) sglInDQ(x *xbuf, q *syntax.SglQuoted) bool {
	if q.Dollar || !strings.ContainsAny(q.Value, "\\$`") || strings.Contains(q.Value, `"`) {
		return false
	}
	src := `: "` + q.Value + `"`
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 2 || len(ce.Args[1].Parts) != 1 {
		return false
	}
	dq, ok := ce.Args[1].Parts[0].(*syntax.DblQuoted)
	if !ok {
		return false
	}
	// the parts' offsets are into src: arithmetic and subscripts are
	// read from it
	saved := r.source
	name := ""
	if saved != nil {
		name = saved.name
	}
	r.source = &sourceFile{name: name, text: src}
	defer func() { r.source = saved }()
	x.add("'", true, false)
	r.expandParts(x, dq.Parts, true, false)
	x.add("'", true, false)
	return true
}

// litPrefix is the value of p if it is a literal, or "".
func litPrefix(p syntax.WordPart) string {
	if l, ok := p.(*syntax.Lit); ok {
		return l.Value
	}
	return ""
}
