package shell

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// declClause runs declare/local/export/readonly/typeset/nameref parsed as
// a clause: assignments keep their structure (arrays, subscripts).
func (r *Interp) declClause(c *syntax.DeclClause) {
	name := c.Variant.Value
	var items []declItem
	for _, as := range c.Args {
		switch {
		case as.Naked && as.Name == nil && as.Value != nil:
			for _, w := range r.expandWords([]*syntax.Word{as.Value}) {
				items = append(items, declItem{word: w})
			}
		case as.Naked && as.Name != nil:
			w := as.Name.Value
			if as.Index != nil {
				w += "[" + r.curText(as.Index) + "]"
			}
			items = append(items, declItem{word: w})
		default:
			it := declItem{assign: as}
			if as.Array == nil && !as.Naked {
				// expanded with the other words, before declare runs
				it.value, it.expanded = r.expandAssignValue(as.Value), true
			}
			items = append(items, it)
		}
	}
	if r.opts.xtrace {
		words := []string{name}
		for _, it := range items {
			switch {
			case it.expanded:
				words = append(words, r.assignLHS(it.assign)+"="+it.value)
			case it.assign != nil:
				words = append(words, it.assign.Name.Value)
			default:
				words = append(words, it.word)
			}
		}
		r.xtraceCall(nil, words)
	}
	r.status = r.declare(name, items)
}

// declItem is one operand of declare: a word (option, name or
// name=value text) or a parsed assignment, whose value may be expanded
// already.
type declItem struct {
	word     string
	assign   *syntax.Assign
	value    string
	expanded bool
}

// builtinDeclare runs declare and friends called as ordinary commands
// (`builtin declare`, `command export`, or through a variable).
func builtinDeclare(r *Interp, args []string) int {
	items := make([]declItem, len(args)-1)
	for i, a := range args[1:] {
		items[i] = declItem{word: a}
	}
	return r.declare(args[0], items)
}

// declare implements declare, typeset, local, export, readonly.
func (r *Interp) declare(cmd string, items []declItem) int {
	var on, off Attr
	print, funcs, funcNames, global, inherit := false, false, false, false, false
	switch cmd {
	case "export":
		on |= AttrExport
	case "readonly":
		on |= AttrReadonly
	case "local":
		if r.funcDepth == 0 {
			r.builtinErr("local", "can only be used in a function")
			return 1
		}
	}
	unexport := false
	var operands []declItem
	optsDone := false
	for _, it := range items {
		w := it.word
		if cmd == "local" && it.assign == nil && w == "-" {
			if sc := r.vars.localScope(); sc.opts == nil {
				saved := r.opts
				sc.opts = &saved
			}
			optsDone = true
			continue
		}
		if it.assign == nil && !optsDone && len(w) > 1 && (w[0] == '-' || w[0] == '+') {
			if w == "--" {
				optsDone = true
				continue
			}
			for _, c := range w[1:] {
				var a Attr
				switch c {
				case 'a':
					a = AttrIndexed
				case 'A':
					a = AttrAssoc
				case 'i':
					a = AttrInteger
				case 'l':
					a = AttrLower
				case 'u':
					a = AttrUpper
				case 'n':
					a = AttrNameref
				case 'r':
					a = AttrReadonly
				case 'x':
					a = AttrExport
				case 't':
					a = AttrTrace
				case 'c':
					a = AttrCapital
				case 'p':
					print = true
				case 'f':
					// +f is no function operation: declare +ft f acts
					// on a variable f, as in bash
					funcs = funcs || w[0] == '-'
				case 'F':
					funcNames = funcNames || w[0] == '-'
					funcs = funcs || w[0] == '-'
				case 'g':
					global = true
				case 'I':
					inherit = true
				default:
					r.builtinErr(cmd, "-%c: invalid option", c)
					r.writeErr(cmd + ": usage: " + declUsage(cmd) + "\n")
					return 2
				}
				if cmd == "export" && c == 'n' {
					unexport = w[0] == '-'
					continue
				}
				if w[0] == '-' {
					on |= a
				} else {
					off |= a
				}
			}
			continue
		}
		optsDone = true
		operands = append(operands, it)
	}
	if funcs || funcNames {
		if unexport {
			off |= AttrExport
		}
		if len(operands) == 0 && (cmd == "declare" || cmd == "typeset") {
			// declare -xf, -rF: list the functions with those attributes
			return r.listFuncs(cmd, funcNames, on)
		}
		if print && len(operands) > 0 {
			return r.printFuncs(cmd, operands, funcNames)
		}
		return r.declareFuncs(cmd, operands, funcNames, on, off)
	}
	if len(operands) == 0 {
		if cmd == "local" && !print && on == 0 {
			return r.printVars(cmd, on, true)
		}
		return r.printVars(cmd, on|off, print || on|off != 0)
	}
	if print {
		status := 0
		for _, it := range operands {
			n := it.word
			v, _ := r.vars.lookup(n) // a nameref prints itself
			if v == nil {
				if v := r.dynamicVar(n); v != nil {
					r.writeOut(cmd, r.declareLine(n, v)+"\n")
					continue
				}
				r.builtinErr(cmd, "%s: not found", n)
				status = 1
				continue
			}
			r.writeOut(cmd, r.declareLine(n, v)+"\n")
		}
		return status
	}
	status := 0
	for _, it := range operands {
		if !r.declareOne(cmd, it, on, off, declFlags{global: global, unexport: unexport, inherit: inherit}) {
			status = 1
		}
	}
	return status
}

// declTargetIsArray reports whether the variable declare would set for
// name is already an array: declare a='(1 2)' is then a compound
// assignment too.
func (r *Interp) declTargetIsArray(cmd, name string, global bool) bool {
	if cmd == "export" || cmd == "readonly" {
		// they assign the string: readonly 'a=(1)' sets a[0] to "(1)"
		return false
	}
	var v *Var
	if r.funcDepth > 0 && !global {
		v = r.vars.localScope().vars[name]
	} else {
		v = r.vars.get(name)
	}
	return v != nil && v.Attr&AttrNameref == 0 && v.Attr&(AttrIndexed|AttrAssoc) != 0
}

func declUsage(cmd string) string {
	switch cmd {
	case "export":
		return "export [-fn] [name[=value] ...] or export -p"
	case "readonly":
		return "readonly [-aAf] [name[=value] ...] or readonly -p"
	case "local":
		return "local [option] name[=value] ..."
	}
	return cmd + " [-aAfFgiIlnrtux] [name[=value] ...] or " + cmd + " -p [-aAfFilnrtux] [name ...]"
}

// declareOne applies declare to one operand.
// declFlags are declare's options that are not attributes.
type declFlags struct {
	global   bool // -g
	unexport bool // export -n
	inherit  bool // -I: a new local starts as the variable it hides
}

func (r *Interp) declareOne(cmd string, it declItem, on, off Attr, fl declFlags) bool {
	global, unexport := fl.global, fl.unexport
	var name, sub string
	var hasValue, appendTo, hasSub bool
	var value string
	var arr *syntax.ArrayExpr
	if as := it.assign; as != nil {
		name = as.Name.Value
		appendTo = as.Append
		if as.Array != nil && strings.HasSuffix(name, "]") {
			// declare a[i]=(..) (repair.go)
			// bash discards the rest of the line, as for an expansion error
			r.errorf("%s: cannot assign list to array member", name)
			r.status = 1
			panic(errDiscard)
		}
		if as.Index != nil {
			if r.curText(as.Index) == "" {
				// declare m[]=x (repair.go)
				r.errorf("%s[]: bad array subscript", name)
				return false
			}
			hasSub = true
			sub = r.arithSource(as.Index, as.Index.Pos().Offset(), as.Index.End().Offset())
		}
		switch {
		case as.Array != nil:
			arr, hasValue = as.Array, true
		case it.expanded:
			value, hasValue = it.value, true
		case !as.Naked:
			value, hasValue = r.expandAssignValue(as.Value), true
		}
		if hasValue && arr == nil && (cmd == "export" || cmd == "readonly") {
			// they assign as an assignment statement does, traced so
			r.xtraceAssign(r.assignLHS(as), value)
		}
	} else {
		w := it.word
		n, v, ok := strings.Cut(w, "=")
		if ok {
			hasValue, value = true, v
			if strings.HasSuffix(n, "+") {
				appendTo, n = true, n[:len(n)-1]
			}
		}
		if i := strings.IndexByte(n, '['); i > 0 && strings.HasSuffix(n, "]") {
			hasSub, sub, n = true, n[i+1:len(n)-1], n[:i]
		}
		name = n
	}
	// declare 'a=(1 2)' as a word, or declare -a a='(1 2)', is still a
	// compound assignment; so is declare -a a[n]='(1 2)', to the array.
	arrFromString := false
	if arr == nil && hasValue && (!hasSub || on&(AttrIndexed|AttrAssoc) != 0) && strings.HasPrefix(value, "(") && strings.HasSuffix(value, ")") && (on&(AttrIndexed|AttrAssoc) != 0 || r.declTargetIsArray(cmd, name, global)) {
		if f, err := syntax.NewParser().Parse(strings.NewReader("x="+value), ""); err == nil && len(f.Stmts) == 1 {
			if ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(ce.Assigns) == 1 && ce.Assigns[0].Array != nil {
				saved := r.source
				r.source = &sourceFile{name: r.sourceName(), text: "x=" + value}
				defer func() { r.source = saved }()
				arr = ce.Assigns[0].Array
				arrFromString, hasSub = true, false
			}
		}
	}
	if !validName(name) || (on&AttrNameref == 0 && false) {
		shown := declDisplay(it)
		if it.assign != nil && arr == nil && hasValue {
			// declare 1a=$x (repair.go): bash shows the value expanded
			op := "="
			if appendTo {
				op = "+="
			}
			shown = name + op + value
		}
		r.builtinErr(cmd, "`%s': not a valid identifier", shown)
		return false
	}
	if off&AttrNameref != 0 && on == 0 && hasValue && arr == nil && !hasSub {
		// declare +n ref=v: the value goes through the reference, which
		// then keeps its target's name as a plain value.
		if v, _ := r.vars.lookup(name); v != nil && v.Attr&AttrNameref != 0 && v.Set && v.Attr&AttrReadonly == 0 {
			rn, rsub, isElem := r.vars.resolve(name)
			if isElem {
				rn += "[" + rsub + "]"
			}
			ok := r.assignChecked(rn, value)
			v.Attr &^= AttrNameref
			return ok
		}
	}
	if hasSub && !hasValue && (cmd == "export" || cmd == "readonly") {
		r.builtinErr(cmd, "`%s[%s]': not a valid identifier", name, sub)
		return false
	}
	if on&AttrNameref != 0 && hasSub {
		r.builtinErr(cmd, "%s[%s]: reference variable cannot be an array", name, sub)
		return false
	}
	if on&AttrNameref != 0 && hasValue && arr == nil {
		if old, _ := r.vars.lookup(name); appendTo && old != nil && old.Attr&AttrNameref != 0 && old.Set {
			// declare -n ref+=x appends to the name ref holds
			if target := old.Str + value; target == name {
				r.errorf("%s: nameref variable self references not allowed", name)
				return false
			} else if validName(strings.SplitN(target, "[", 2)[0]) {
				value, appendTo = target, false
			}
		}
		if !validName(strings.SplitN(value, "[", 2)[0]) {
			r.builtinErr(cmd, "`%s': invalid variable name for name reference", value)
			return false
		}
		if value == name {
			if r.funcDepth == 0 || global || cmd == "export" || cmd == "readonly" {
				r.builtinErr(cmd, "%s: nameref variable self references not allowed", name)
				return false
			}
			// a function's v -> v: bash warns, and v then stands for the
			// global v
			r.builtinErr(cmd, "warning: %s: circular name reference", name)
			r.errorf("warning: %s: circular name reference", name)
		}
	}
	// Where the variable lives: a function's scope for declare/local
	// inside a function (unless -g), the global scope otherwise; export
	// and readonly act on the visible variable.
	var sc *scope
	v := (*Var)(nil)
	fresh := false // v is made here
	target := name
	if hasSub && hasValue && on&AttrIndexed != 0 {
		// declare -a ref[n]=v: ref stops being a reference
		if rv, _ := r.vars.lookup(name); rv != nil && rv.Attr&AttrNameref != 0 {
			r.errorf("warning: %s: removing nameref attribute", name)
			rv.Attr &^= AttrNameref
			rv.Str, rv.Set = "", false
		}
	}
	if on&AttrNameref == 0 && off&AttrNameref == 0 {
		target, _, _ = r.vars.resolve(name)
	}
	local := (cmd == "local" || cmd == "declare" || cmd == "typeset") && r.funcDepth > 0 && !global
	if local {
		sc = r.vars.localScope()
		v = sc.vars[target]
		if g := r.vars.global().vars[target]; v == nil && g != nil && g.Attr&AttrReadonly != 0 && sc != r.vars.global() {
			// bash refuses a local that would shadow a global readonly
			// (a readonly local of a calling function may be shadowed);
			// a compound value is refused first.
			if arr != nil {
				r.errorf("%s: readonly variable", target)
			}
			r.builtinErr(cmd, "%s: readonly variable", target)
			return false
		}
		if v == nil {
			v, fresh = &Var{}, true
			// local inherits nothing, but a local of an exported name
			// stays unexported unless asked; one of a name assigned
			// before the command (var=x local var) takes that variable.
			if t, tsc := r.vars.lookup(target); t != nil && (tsc.temp || fl.inherit && t.Attr&AttrNameref == 0) {
				*v = *t
				if t.Index != nil {
					v.Index = t.Index.clone()
				}
				if t.Assoc != nil {
					v.Assoc = t.Assoc.clone()
				}
			}
			sc.vars[target] = v
		}
	} else {
		var vsc *scope
		if global {
			v = r.vars.global().vars[target]
		} else {
			v, vsc = r.vars.lookup(target)
			if v != nil && vsc.temp && (on|off != 0 || hasValue) {
				// an assignment before the command that declare
				// changes outlives it, as in bash (var=x export var)
				r.propagateTemp(vsc, target)
			}
		}
		if v == nil {
			v, fresh = &Var{}, true
			r.vars.global().vars[target] = v
		}
	}
	if v.Attr&AttrReadonly != 0 && (hasValue || off&AttrReadonly != 0 || on&AttrNameref != 0 && v.Attr&AttrNameref == 0) {
		// declare names itself; export and readonly assign as bash's
		// variable code does, which does not (but names itself for a
		// compound value made from a string, readonly -a x='(1)').
		if (cmd == "export" || cmd == "readonly") && !arrFromString {
			r.errorf("%s: readonly variable", target)
		} else {
			r.builtinErr(cmd, "%s: readonly variable", target)
		}
		return false
	}
	if on&AttrAssoc != 0 && v.Attr&AttrIndexed != 0 {
		if arr != nil {
			// bash's compound assignment reports it first, after the
			// name of the function running
			prefix := ""
			if n := len(r.frames); n > 0 {
				prefix = r.frames[n-1].fn + ": "
			}
			r.errorf("%s%s: cannot convert indexed to associative array", prefix, target)
		}
		r.builtinErr(cmd, "%s: cannot convert indexed to associative array", target)
		return false
	}
	if on&AttrIndexed != 0 && v.Attr&AttrAssoc != 0 {
		r.builtinErr(cmd, "%s: cannot convert associative to indexed array", target)
		return false
	}
	if off&AttrIndexed != 0 && v.Attr&AttrIndexed != 0 || off&AttrAssoc != 0 && v.Attr&AttrAssoc != 0 {
		r.builtinErr(cmd, "%s: cannot destroy array variables in this way", target)
		return false
	}
	if on&AttrNameref != 0 && v.Attr&AttrNameref == 0 && !hasValue && v.Set && !validTarget(v.Str) {
		// declare -n x, x=%: the value would be the name referred to
		r.builtinErr(cmd, "`%s': invalid variable name for name reference", v.Str)
		return false
	}
	if on&(AttrIndexed|AttrAssoc) != 0 && on&AttrNameref == 0 && v.Attr&AttrNameref != 0 && !v.Set {
		// a reference without a target becomes the array itself
		v.Attr &^= AttrNameref
	}
	if on&AttrNameref != 0 && v.Attr&AttrNameref == 0 {
		if v.Attr&(AttrIndexed|AttrAssoc) != 0 {
			r.builtinErr(cmd, "%s: reference variable cannot be an array", target)
			return false
		}
		// a reference holds a name: no arithmetic or case change
		v.Attr &^= AttrInteger | AttrLower | AttrUpper | AttrCapital
	}
	if hasSub && !hasValue && v.Attr&AttrAssoc == 0 {
		// declare a[n]: a is an array (the subscript is ignored)
		on |= AttrIndexed
	}
	// Types first. A scalar made an array keeps its value as element 0,
	// but a function's variable starts empty.
	keep := v.Set && !v.IsArray() && !local
	if on&AttrAssoc != 0 && v.Attr&AttrAssoc == 0 {
		v.Attr |= AttrAssoc
		v.Assoc = &AssocArray{}
		if !fresh && !local {
			v.Assoc.Buckets = 128 // bash's table for a converted variable
		}
		if keep {
			v.Assoc.Set("0", v.Str)
		}
		v.Str = ""
	}
	if on&AttrIndexed != 0 && v.Attr&AttrIndexed == 0 {
		v.Attr |= AttrIndexed
		v.Index = &IndexedArray{}
		if keep {
			v.Index.Set(0, v.Str)
		}
		v.Str = ""
	}
	if on&AttrLower != 0 {
		off |= AttrUpper
	}
	if on&AttrUpper != 0 {
		off |= AttrLower
	}
	v.Attr = (v.Attr | (on &^ (AttrIndexed | AttrAssoc | AttrReadonly))) &^ (off &^ (AttrReadonly | AttrIndexed | AttrAssoc))
	if unexport {
		v.Attr &^= AttrExport
	}
	if hasValue {
		ro := v.Attr & AttrReadonly
		v.Attr &^= AttrReadonly
		ok := true
		switch {
		case v.Attr&AttrNameref != 0 && arr == nil:
			v.Str, v.Set = value, true
		case arr != nil:
			if local && fresh {
				// local a=("${a[@]}"): the values are the outer a's
				delete(sc.vars, target)
				ok = r.assignArrayTo(v, target, arr, appendTo)
				sc.vars[target] = v
			} else {
				ok = r.assignArrayTo(v, target, arr, appendTo)
			}
		case hasSub:
			if err := r.assignElemVar(v, target, sub, value, appendTo); err != nil {
				r.errorf("%s", err.Error())
				r.fatalArithErr(err)
				ok = false
			}
		default:
			if v.IsArray() {
				if err := r.assignElemVar(v, target, "0", value, appendTo); err != nil {
					r.errorf("%s", err.Error())
					ok = false
				}
			} else {
				val, err := r.attrValue(v, v.Str, value, appendTo && v.Set)
				if err != nil {
					if strings.Contains(err.Error(), "(error token is") {
						r.errorf("%s: %s", cmd, err.Error())
						r.fatalArithErr(err)
					}
					r.errorf("%s", err.Error())
					ok = false
				} else {
					v.Str, v.Set = val, true
					r.specialAssign(target, val)
				}
			}
		}
		v.Attr |= ro
		if !ok {
			return false
		}
	} else if (on&(AttrLower|AttrUpper|AttrCapital)) != 0 && v.Set && !v.IsArray() {
		v.Str = r.applyCase(v.Attr, v.Str)
	}
	if on&AttrReadonly != 0 {
		v.Attr |= AttrReadonly
	}
	if r.opts.allexport && cmd != "local" {
		v.Attr |= AttrExport
	}
	return true
}

// propagateTemp moves name from the temporary scope of assignments before
// a command to the scope under it that has the name, or the global one.
func (r *Interp) propagateTemp(temp *scope, name string) {
	v := temp.vars[name]
	delete(temp.vars, name)
	dest := r.vars.global()
	for i := len(r.vars.scopes) - 1; i >= 0; i-- {
		sc := r.vars.scopes[i]
		if sc == temp {
			continue
		}
		if _, ok := sc.vars[name]; ok {
			dest = sc
			break
		}
	}
	dest.vars[name] = v
}

func declDisplay(it declItem) string {
	if it.assign != nil {
		return it.assign.Name.Value
	}
	return it.word
}

// assignElemVar sets an element of v (known to be in scope as name).
func (r *Interp) assignElemVar(v *Var, name, sub, value string, appendTo bool) error {
	return r.assignElem(name, sub, value, appendTo)
}

// attrFlags is the attribute letters of v, in declare -p's order.
func attrFlags(v *Var) string {
	var sb strings.Builder
	for _, f := range []struct {
		a Attr
		c byte
	}{{AttrIndexed, 'a'}, {AttrAssoc, 'A'}, {AttrInteger, 'i'}, {AttrNameref, 'n'},
		{AttrReadonly, 'r'}, {AttrTrace, 't'}, {AttrExport, 'x'}, {AttrCapital, 'c'}, {AttrLower, 'l'}, {AttrUpper, 'u'}} {
		if v.Attr&f.a != 0 {
			sb.WriteByte(f.c)
		}
	}
	return sb.String()
}

// declareLine is one line of declare -p.
func (r *Interp) declareLine(name string, v *Var) string {
	flags := attrFlags(v)
	if flags == "" {
		flags = "-"
	}
	head := "declare -" + strings.TrimPrefix(flags, "-") + " " + name
	if flags == "-" {
		head = "declare -- " + name
	}
	switch {
	case v.IsArray() && !v.Set && len(v.keys()) == 0:
		return head // declared, never assigned
	case v.Attr&AttrAssoc != 0:
		var sb strings.Builder
		sb.WriteString(head + "=(")
		for _, k := range v.Assoc.Keys() {
			sb.WriteString("[" + shellQuoteAssocKey(k) + "]=" + shellQuoteDouble(v.Assoc.Map[k]) + " ")
		}
		sb.WriteString(")")
		return sb.String()
	case v.Attr&AttrIndexed != 0:
		var sb strings.Builder
		sb.WriteString(head + "=(")
		for i, e := range v.Index.Elems {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString("[" + strconv.FormatInt(e.Index, 10) + "]=" + shellQuoteDouble(e.Value))
		}
		sb.WriteString(")")
		return sb.String()
	case !v.Set:
		return head
	}
	return head + "=" + shellQuoteDouble(v.Str)
}

// printVars lists variables for declare -p, export -p, readonly -p and
// plain set-like listings.
func (r *Interp) printVars(cmd string, filter Attr, withAttrs bool) int {
	var sb strings.Builder
	names := r.vars.names()
	if cmd == "local" {
		names = nil
		for k := range r.vars.localScope().vars {
			names = append(names, k)
		}
		sort.Strings(names)
	}
	var listed map[string]*Var
	if cmd != "local" {
		listed = r.listedDynamicVars()
		names = mergeNames(names, listed)
	}
	for _, n := range names {
		v, _ := r.vars.lookup(n)
		if cmd == "local" {
			v = r.vars.localScope().vars[n]
		} else if v == nil {
			v = listed[n]
		}
		if v == nil {
			continue
		}
		if filter != 0 && v.Attr&filter != filter {
			continue
		}
		switch cmd {
		case "export":
			if v.Attr&AttrExport == 0 {
				continue
			}
			sb.WriteString(r.declareLine(n, v) + "\n")
		case "readonly":
			if v.Attr&AttrReadonly == 0 {
				continue
			}
			line := r.declareLine(n, v)
			if r.opts.posix {
				// posix mode lists readonly commands, arrays with -a/-A
				_, rest, _ := strings.Cut(line, " "+n)
				kind := ""
				if v.Attr&AttrIndexed != 0 {
					kind = "-a "
				} else if v.Attr&AttrAssoc != 0 {
					kind = "-A "
				}
				line = "readonly " + kind + n + rest
			}
			sb.WriteString(line + "\n")
		case "local":
			sb.WriteString(r.declareLine(n, v) + "\n")
		default:
			if withAttrs {
				sb.WriteString(r.declareLine(n, v) + "\n")
			} else if v.IsArray() {
				line := r.declareLine(n, v)
				_, rest, _ := strings.Cut(line, " "+n+"=")
				sb.WriteString(n + "=" + rest + "\n")
			} else if v.Set {
				sb.WriteString(n + "=" + shellQuoteValue(v.Str, r.opts.posix) + "\n")
			}
		}
	}
	return r.writeOut(cmd, sb.String())
}

// listedDynamicVars is the variables bash computes on use that its
// declare listings show although the shell holds no variable for them,
// with the values bash lists: BASH_ARGC and BASH_ARGV (without extdebug),
// DIRSTACK (until first used), BASH_ALIASES and BASH_CMDS empty;
// FUNCNAME unset outside functions; the readonly SHELLOPTS and BASHOPTS.
func (r *Interp) listedDynamicVars() map[string]*Var {
	empty := func(a Attr) *Var {
		return &Var{Attr: a, Set: true, Index: &IndexedArray{}, Assoc: &AssocArray{}}
	}
	m := map[string]*Var{
		"BASH_ALIASES": empty(AttrAssoc),
		"BASH_CMDS":    empty(AttrAssoc),
		"BASH_ARGC":    empty(AttrIndexed),
		"BASH_ARGV":    empty(AttrIndexed),
		"DIRSTACK":     empty(AttrIndexed),
		"FUNCNAME":     {Attr: AttrIndexed},
		"PIPESTATUS":   r.dynamicVar("PIPESTATUS"),
		"SHELLOPTS":    r.dynamicVar("SHELLOPTS"),
		"BASHOPTS":     r.dynamicVar("BASHOPTS"),
	}
	if r.dirStackUsed {
		m["DIRSTACK"] = r.dynamicVar("DIRSTACK")
	}
	for _, n := range []string{"BASH_ARGC", "BASH_ARGV", "FUNCNAME", "BASH_LINENO", "BASH_SOURCE"} {
		if v := r.dynamicVar(n); v != nil {
			m[n] = v
		}
	}
	return m
}

// mergeNames is the sorted names with those of extra that it lacks.
func mergeNames(names []string, extra map[string]*Var) []string {
	out := slices.Clone(names)
	for n := range extra {
		if !slices.Contains(names, n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// shellQuoteValue quotes a value as set and declare (without -p) print
// it: bare when safe (bash's sh_contains_shell_metas: ~ only where it
// would expand, # only first), single-quoted otherwise; a lone ' is \'.
// In posix mode control characters stay inside the single quotes.
func shellQuoteValue(s string, posix bool) string {
	metas := s == ""
	for i := 0; i < len(s) && !metas; i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>', '!', '{', '}', '*', '[', '?', ']', '^', '$', '`':
			metas = true
		case '~':
			metas = i == 0 || s[i-1] == '=' || s[i-1] == ':'
		case '#':
			metas = i == 0
		}
	}
	switch {
	case !metas:
		return s
	case s == "'":
		return `\'`
	case posix:
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return shellQuote(s)
}

// declareFuncs implements declare -f / -F, and export -f and readonly
// -f: with the attributes r, t or x to set or clear it sets them on the
// functions named, without it prints them.
func (r *Interp) declareFuncs(cmd string, operands []declItem, namesOnly bool, on, off Attr) int {
	const funcAttrs = AttrExport | AttrReadonly | AttrTrace
	on &= funcAttrs
	off &= funcAttrs
	attrCmd := cmd == "export" || cmd == "readonly" // bash's set_or_show_attributes
	if len(operands) == 0 {
		names := make([]string, 0, len(r.funcs))
		for k, f := range r.funcs {
			if on == 0 || f.attrs()&on == on {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		var sb strings.Builder
		for _, n := range names {
			f := r.funcs[n]
			switch {
			case namesOnly:
				sb.WriteString("declare -" + f.flags() + " " + n + "\n")
			case on != 0 || attrCmd:
				// the definition, then the attributes that recreate it
				sb.WriteString(r.funcText(f))
				sb.WriteString("declare -" + f.flags() + " " + n + "\n")
			default:
				sb.WriteString(r.funcText(f))
			}
		}
		return r.writeOut(cmd, sb.String())
	}
	status := 0
	var sb strings.Builder
	for _, it := range operands {
		n := it.word
		if it.assign != nil {
			n = it.assign.Name.Value
		}
		f, ok := r.funcs[n]
		if attrCmd {
			switch {
			case !ok:
				r.builtinErr(cmd, "%s: not a function", n)
				status = 1
			case on&AttrExport != 0 && !exportableFuncName(n):
				r.builtinErr(cmd, "%s: cannot export", n)
				status = 1
			default:
				f.setAttrs(on, off&^AttrReadonly)
			}
			continue
		}
		if !ok {
			status = 1
			continue
		}
		if on == 0 && off == 0 {
			if namesOnly {
				sb.WriteString(n + "\n")
			} else {
				sb.WriteString(r.funcText(f))
			}
			continue
		}
		if f.readonly && off&AttrReadonly != 0 {
			r.builtinErr(cmd, "%s: readonly function", n)
			status = 1
			continue
		}
		f.setAttrs(on, off)
	}
	r.writeOut(cmd, sb.String())
	return status
}

// listFuncs implements declare -f and -F without names: every function,
// or those exported (-x) or readonly (-r) when on asks.
func (r *Interp) listFuncs(cmd string, namesOnly bool, on Attr) int {
	var names []string
	for k, f := range r.funcs {
		if on&AttrExport != 0 && !f.exported || on&AttrReadonly != 0 && !f.readonly {
			continue
		}
		names = append(names, k)
	}
	if len(names) == 0 {
		return 0
	}
	sort.Strings(names)
	var sb strings.Builder
	for _, n := range names {
		f := r.funcs[n]
		flags := f.flags()
		if !namesOnly {
			sb.WriteString(r.funcText(f))
			if flags == "f" {
				continue // no attribute to restore
			}
		}
		sb.WriteString("declare -" + flags + " " + n + "\n")
	}
	r.writeOut(cmd, sb.String())
	return 0
}

// printFuncs is declare -fp NAME...: each function's definition (its
// attributes after it, if any), or with -F its declare line.
func (r *Interp) printFuncs(cmd string, operands []declItem, namesOnly bool) int {
	status := 0
	for _, it := range operands {
		n := it.word
		if it.assign != nil {
			n = it.assign.Name.Value
		}
		f, ok := r.funcs[n]
		if !ok {
			r.builtinErr(cmd, "%s: not found", n)
			status = 1
			continue
		}
		text := "declare -" + f.flags() + " " + n + "\n"
		if !namesOnly {
			if f.flags() == "f" {
				text = ""
			}
			text = r.funcText(f) + text
		}
		r.writeOut(cmd, text)
	}
	return status
}

// exportableFuncName is bash's exportable_function_name: no slash, no =.
func exportableFuncName(s string) bool {
	return !strings.ContainsAny(s, "/=")
}

// attrs are the function's attributes as variable attributes.
func (f *Func) attrs() Attr {
	var a Attr
	if f.readonly {
		a |= AttrReadonly
	}
	if f.exported {
		a |= AttrExport
	}
	if f.traced {
		a |= AttrTrace
	}
	return a
}

// setAttrs sets and clears readonly, export and trace.
func (f *Func) setAttrs(on, off Attr) {
	if on&AttrReadonly != 0 {
		f.readonly = true
	}
	if off&AttrReadonly != 0 {
		f.readonly = false
	}
	if on&AttrExport != 0 {
		f.exported = true
	}
	if off&AttrExport != 0 {
		f.exported = false
	}
	if on&AttrTrace != 0 {
		f.traced = true
	}
	if off&AttrTrace != 0 {
		f.traced = false
	}
}

// flags is the function's attributes as declare -F lists them.
func (f *Func) flags() string {
	s := "f"
	if f.readonly {
		s += "r"
	}
	if f.traced {
		s += "t"
	}
	if f.exported {
		s += "x"
	}
	return s
}

// funcText renders a function as declare -f does (bash's own layout).
func (r *Interp) funcText(f *Func) string {
	src := ""
	if f.body.src != nil {
		src = f.body.src.text
	}
	return funcBodyText(f.Name, f.body.stmt, src, true) + "\n"
}

func builtinUnset(r *Interp, args []string) int {
	mode := ""
	var names []string
	for _, a := range args[1:] {
		if len(names) == 0 && len(a) > 1 && a[0] == '-' {
			for _, c := range a[1:] {
				switch c {
				case 'f', 'v', 'n':
					mode = string(c)
				default:
					r.builtinErr("unset", "-%c: invalid option", c)
					r.writeErr("unset: usage: unset [-f] [-v] [-n] [name ...]\n")
					return 2
				}
			}
			continue
		}
		names = append(names, a)
	}
	status := 0
	for _, n := range names {
		if mode == "f" {
			delete(r.funcs, n)
			continue
		}
		base := n
		sub := ""
		hasSub := false
		if i := strings.IndexByte(n, '['); i > 0 && strings.HasSuffix(n, "]") {
			base, sub, hasSub = n[:i], n[i+1:len(n)-1], true
		}
		if !validName(base) {
			// Without -v, bash then tries a function of that name.
			if mode == "" {
				delete(r.funcs, n)
				continue
			}
			r.builtinErr("unset", "`%s': not a valid identifier", n)
			status = 1
			continue
		}
		if hasSub {
			rname, _, _ := r.vars.resolve(base)
			if !r.unsetElem(rname, sub) {
				status = 1
			}
			continue
		}
		if mode == "n" {
			// only a reference is unset: -n leaves other variables be
			if v, sc := r.vars.lookup(n); v != nil && v.Attr&AttrNameref != 0 {
				delete(sc.vars, n)
			}
			continue
		}
		if v := r.vars.get(n); v == nil && mode == "" {
			if _, ok := r.funcs[n]; ok {
				delete(r.funcs, n)
				continue
			}
		}
		if !r.unsetVar(n) {
			status = 1
		}
	}
	return status
}
