package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Aliases expand when bash parses a command, not when it runs it: bash
// reads a script one line (one complete command) at a time, so an alias
// defined on a line applies from the next line on, and a function body
// keeps the aliases of when it was defined. aliasUnit does that textual
// expansion for one unit of statements before it runs.

// aliasRegion is text an alias expansion produced: within it, the
// aliases in names do not expand again.
type aliasRegion struct {
	start, end int
	names      map[string]bool
}

// aliasUnit expands the aliases of the unit text[start:end] (statements
// that share lines) and returns the statements parsed from the result
// and the source they belong to, or ok false when no alias applies.
// Offsets and lines outside the unit stay those of text.
func (r *Interp) aliasUnit(text string, start, end int, name string) (stmts []*syntax.Stmt, src *sourceFile, ok bool) {
	if !r.opts.expandAliases || len(r.aliases) == 0 || start < 0 || end > len(text) || start >= end {
		return nil, nil, false
	}
	unit := text[start:end]
	candidate := false
	for a := range r.aliases {
		if strings.Contains(unit, a) {
			candidate = true
			break
		}
	}
	if !candidate {
		return nil, nil, false
	}
	// Blank out what precedes the unit, keeping its newlines, so that
	// the unit parses alone at its own offsets and lines.
	pad := []byte(text[:start])
	for i, c := range pad {
		if c != '\n' {
			pad[i] = ' '
		}
	}
	cur := string(pad) + unit
	var regions []aliasRegion
	eligible := map[int]bool{}
	changed := false
	for iter := 0; iter < 100; iter++ {
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cur), name)
		if err != nil {
			break
		}
		// The first word (by offset) that is an alias to expand.
		best, bestEnd, bestName := -1, 0, ""
		syntax.Walk(f, func(n syntax.Node) bool {
			c, isCall := n.(*syntax.CallExpr)
			if !isCall || len(c.Args) == 0 {
				return true
			}
			for i, w := range c.Args {
				off := int(w.Pos().Offset())
				if i > 0 && !eligible[off] {
					continue
				}
				lit := w.Lit()
				if len(w.Parts) != 1 || lit == "" || off < start {
					continue
				}
				if _, isAlias := r.aliases[lit]; !isAlias || blockedAlias(regions, off, lit) {
					continue
				}
				if best < 0 || off < best {
					best, bestEnd, bestName = off, int(w.End().Offset()), lit
				}
			}
			return true
		})
		if best < 0 {
			break
		}
		val := r.aliases[bestName]
		delta := len(val) - (bestEnd - best)
		names := map[string]bool{bestName: true}
		for i := range regions {
			rg := &regions[i]
			if rg.start <= best && best < rg.end {
				for k := range rg.names {
					names[k] = true
				}
			}
			switch {
			case rg.start >= bestEnd:
				rg.start += delta
				rg.end += delta
			case rg.end >= bestEnd:
				rg.end += delta
			}
		}
		moved := map[int]bool{}
		for off := range eligible {
			if off >= bestEnd {
				moved[off+delta] = true
			} else if off != best {
				moved[off] = true
			}
		}
		// the first word of the replacement is expanded in turn
		moved[best+len(val)-len(strings.TrimLeft(val, " \t"))] = true
		eligible = moved
		regions = append(regions, aliasRegion{best, best + len(val), names})
		cur = cur[:best] + val + cur[bestEnd:]
		if strings.HasSuffix(val, " ") || strings.HasSuffix(val, "\t") {
			next := best + len(val)
			for next < len(cur) && (cur[next] == ' ' || cur[next] == '\t') {
				next++
			}
			eligible[next] = true
		}
		changed = true
	}
	if !changed {
		return nil, nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cur), name)
	if err != nil {
		return nil, nil, false
	}
	return f.Stmts, &sourceFile{name: name, text: cur, aliasesDone: true}, true
}

func blockedAlias(regions []aliasRegion, off int, name string) bool {
	for _, rg := range regions {
		if rg.start <= off && off < rg.end && rg.names[name] {
			return true
		}
	}
	return false
}

// runUnits runs top-level statements unit by unit (statements sharing a
// line), expanding aliases in each unit as bash's parser would when it
// reads it. run runs one statement and reports whether to stop.
func (r *Interp) runUnits(file *sourceFile, stmts []*syntax.Stmt, run func(st *syntax.Stmt) (stop bool)) {
	for i := 0; i < len(stmts); {
		j := i + 1
		for j < len(stmts) && stmts[j].Pos().Line() == stmts[j-1].End().Line() {
			j++
		}
		start := int(stmts[i].Pos().Offset())
		end := len(file.text)
		if j < len(stmts) {
			end = int(stmts[j].Pos().Offset())
		}
		list, src := stmts[i:j], file
		if exp, s, ok := r.aliasUnit(file.text, start, end, file.name); ok {
			list, src = exp, s
		}
		saved := r.source
		r.source = src
		stop := false
		for _, st := range list {
			r.hdocWarn(file, st)
			if r.skipSynErr(file, st) {
				continue
			}
			if run(st) {
				stop = true
				break
			}
		}
		r.source = saved
		if stop {
			return
		}
		i = j
	}
}
