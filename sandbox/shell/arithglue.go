package shell

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Arithmetic, like bash, works on text: the expression as written, with
// its parameter expansions, command substitutions and quotes expanded,
// is evaluated by arithEval. These functions connect the parsed nodes to
// that text.

// arithNode evaluates the arithmetic expression x, whose source text
// spans [start, end) of the current source. It reports errors itself.
func (r *Interp) arithNode(x syntax.ArithmExpr, start, end uint) (int64, bool) {
	text := r.arithSourceMode(x, start, end, true)
	return r.arithString(text)
}

// arithString evaluates text, reporting errors itself.
func (r *Interp) arithString(text string) (int64, bool) {
	return r.arithStringPrefix(text, "")
}

// arithStringPrefix is arithString for ((..)) and let, whose errors bash
// prefixes with "((: " and "let: ".
func (r *Interp) arithStringPrefix(text, prefix string) (int64, bool) {
	v, err := r.arithEvalErr(text)
	if err != nil {
		if !strings.Contains(err.Error(), "(error token is") {
			prefix = ""
		}
		r.errorf("%s%s", prefix, err.Error())
		return 0, false
	}
	return v, true
}

// arithEvalErr evaluates text.
func (r *Interp) arithEvalErr(text string) (int64, error) {
	return arithEval(text, arithInterp{r})
}

// arithSource returns the text of x with its expansions done.
func (r *Interp) arithSource(x syntax.ArithmExpr, start, end uint) string {
	return r.arithSourceMode(x, start, end, false)
}

// arithSourceMode is arithSource; with rawSQ, single quotes stay in the
// text, as in $((..)) and ((..)), where bash rejects them.
func (r *Interp) arithSourceMode(x syntax.ArithmExpr, start, end uint, rawSQ bool) string {
	if x == nil {
		return ""
	}
	src := ""
	if r.source != nil {
		src = r.source.text
	}
	if int(end) > len(src) || start > end {
		var sb strings.Builder
		syntax.NewPrinter().Print(&sb, x)
		return sb.String()
	}
	type rep struct {
		s, e int
		v    string
	}
	var reps []rep
	add := func(n syntax.Node, v string) {
		reps = append(reps, rep{int(n.Pos().Offset()), int(n.End().Offset()), v})
	}
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Short && n.Index != nil && !n.Dollar.IsValid() {
				return true // a[i] inside arithmetic: keep, expand inside
			}
			add(n, r.expandString(&syntax.Word{Parts: []syntax.WordPart{n}}))
			return false
		case *syntax.SglQuoted:
			if rawSQ && !n.Dollar {
				return false // an error in arithmetic: keep the quotes
			}
			add(n, r.expandString(&syntax.Word{Parts: []syntax.WordPart{n}}))
			return false
		case *syntax.CmdSubst, *syntax.ArithmExp, *syntax.DblQuoted, *syntax.ProcSubst:
			add(n, r.expandString(&syntax.Word{Parts: []syntax.WordPart{n.(syntax.WordPart)}}))
			return false
		case *syntax.Lit:
			if strings.Contains(n.Value, "\\") {
				add(n, unbackslash(n.Value))
			}
		}
		return true
	})
	sort.Slice(reps, func(i, j int) bool { return reps[i].s < reps[j].s })
	var sb strings.Builder
	pos := int(start)
	for _, rp := range reps {
		if rp.s < pos || rp.e > int(end) {
			continue
		}
		sb.WriteString(src[pos:rp.s])
		sb.WriteString(rp.v)
		pos = rp.e
	}
	sb.WriteString(src[pos:end])
	return sb.String()
}

// unbackslash removes the backslashes that quote a character in an
// unquoted literal: \\ is one backslash, and a backslash-newline goes.
func unbackslash(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// arithInterp gives arithEval the shell's variables.
type arithInterp struct{ r *Interp }

// arithStack shares one recursion budget between nested evaluations.
func (a arithInterp) arithStack() *arithStack { return &a.r.arith }

// arithIndex evaluates an indexed array's subscript once, for a[i++]++.
func (a arithInterp) arithIndex(name, sub string) (string, error) {
	r := a.r
	rname, _, _ := r.vars.resolve(name)
	if v := r.vars.get(rname); v != nil && v.Attr&AttrAssoc != 0 {
		return sub, nil
	}
	i, err := r.arithEvalErr(sub)
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(i, 10), nil
}

func (a arithInterp) arithGet(name, sub string, hasSub bool) (string, bool, error) {
	r := a.r
	if !hasSub {
		v, ok := r.getScalar(name)
		if !ok && r.opts.nounset {
			// As for $x: the message, and the shell exits.
			r.errorf("%s: unbound variable", name)
			panic(&exitError{status: 1, unbound: true})
		}
		return v, ok, nil
	}
	rname, _, _ := r.vars.resolve(name)
	v := r.vars.get(rname)
	if v == nil {
		if r.opts.nounset {
			return "", false, shellErr(name + "[" + sub + "]: unbound variable")
		}
		return "", false, nil
	}
	if v.Attr&AttrAssoc != 0 {
		s, ok := v.Assoc.Get(sub)
		return s, ok, nil
	}
	i, err := r.arithEvalErr(sub)
	if err != nil {
		return "", false, err
	}
	if v.Attr&AttrIndexed == 0 {
		if i == 0 {
			return v.Str, v.Set, nil
		}
		return "", false, nil
	}
	if i < 0 {
		i += v.Index.Max() + 1
		if i < 0 {
			return "", false, shellErr(name + ": bad array subscript")
		}
	}
	s, ok := v.Index.Get(i)
	return s, ok, nil
}

func (a arithInterp) arithSet(name, sub string, hasSub bool, value int64) error {
	s := strconv.FormatInt(value, 10)
	if hasSub {
		return a.r.assignElem(name, sub, s, false)
	}
	return a.r.assign(name, s, false)
}

// isNotExist reports a missing file.
func isNotExist(err error) bool {
	var en interface{ Error() string }
	if errors.As(err, &en) {
		return strings.Contains(errnoText(err), "No such file")
	}
	return false
}
